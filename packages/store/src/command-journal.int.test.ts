/**
 * The command journal on a real file: lines appended before a send are read back after a crash, a
 * line cut short by one is skipped, the file is emptied once nothing is pending, and it is private
 * (mode 0600) and opened beside the database by `HogaDatabase.commandJournal`.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandJournal } from './command-journal.js';
import { HogaDatabase } from './hoga-database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hoga-journal-'));
  dirs.push(dir);
  return dir;
}

const line = (id: string, pad = 0): string => JSON.stringify({ commandId: id, content: 'x'.repeat(pad) });

describe('CommandJournal', () => {
  it('reads back what was appended, from a second instance (the next start), without the last line a crash cut short', () => {
    const path = join(tempDir(), 'db.sqlite-commands');
    const journal = new CommandJournal(path);
    journal.append('a', line('a'));
    journal.append('b', line('b'), true);
    // the process dies during its third write: part of a line, no newline
    appendFileSync(path, '{"commandId":"c","con');
    const next = new CommandJournal(path);
    expect(next.entries().map((l) => JSON.parse(l).commandId)).toEqual(['a', 'b']);
    next.clear();
    expect(readFileSync(path, 'utf8')).toBe('');
    expect(new CommandJournal(path).entries()).toEqual([]);
    journal.close();
    next.close();
  });

  it('is removed when closed with nothing pending, and kept while a line waits or an earlier process left some', () => {
    const path = join(tempDir(), 'db.sqlite-commands');
    const clean = new CommandJournal(path);
    clean.append('a', line('a'));
    clean.settle('a');
    clean.close();
    expect(existsSync(path)).toBe(false);
    const crashed = new CommandJournal(path);
    crashed.append('b', line('b'));
    crashed.close(); // 'b' was sent, its rows never written
    expect(existsSync(path)).toBe(true);
    // the next process writes and settles its own before repairing: the inherited line survives
    const next = new CommandJournal(path);
    for (let i = 0; i < 80; i++) {
      next.append(`c${i}`, line(`c${i}`, 1000));
      next.settle(`c${i}`);
    }
    next.close();
    expect(new CommandJournal(path).entries()[0]).toBe(line('b'));
  });

  it('is private to its owner (mode 0600)', () => {
    const path = join(tempDir(), 'db.sqlite-commands');
    const journal = new CommandJournal(path);
    journal.append('a', line('a'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    journal.close();
  });

  it('is emptied once nothing is pending and it passed 64 KB, never while a line waits for its rows', () => {
    const path = join(tempDir(), 'db.sqlite-commands');
    const journal = new CommandJournal(path);
    journal.append('first', line('first'));
    for (let i = 0; i < 80; i++) {
      journal.append(`c${i}`, line(`c${i}`, 1000));
      journal.settle(`c${i}`);
    }
    // 80 KB written, but `first` is still pending: its line must survive a crash
    expect(statSync(path).size).toBeGreaterThan(64 * 1024);
    expect(new CommandJournal(path).entries()[0]).toBe(line('first'));
    journal.settle('first');
    expect(statSync(path).size).toBe(0);
    // small files are left until they grow
    journal.append('d', line('d'));
    journal.settle('d');
    expect(statSync(path).size).toBeGreaterThan(0);
    journal.close();
    expect(() => journal.append('e', line('e'))).toThrow(/closed/);
  });

  it('remembers the ids this process appended, settled and cleared ones included', () => {
    const journal = new CommandJournal(join(tempDir(), 'db.sqlite-commands'));
    journal.append('a', line('a'));
    expect(journal.has('a')).toBe(true);
    expect(journal.has('b')).toBe(false);
    journal.settle('a');
    journal.clear();
    expect(journal.has('a')).toBe(true);
    journal.close();
  });

  it('lives beside a database file, is closed with it and reopened with it; none for :memory:', () => {
    const file = join(tempDir(), 'hoga.sqlite');
    const db = HogaDatabase.open(file);
    const journal = db.commandJournal();
    expect(journal?.path).toBe(`${file}-commands`);
    expect(db.commandJournal()).toBe(journal);
    journal?.append('a', line('a'));
    db.close();
    expect(() => journal?.append('b', line('b'))).toThrow(/closed/);
    const reopened = HogaDatabase.open(file);
    expect(reopened.commandJournal()?.entries()).toEqual([line('a')]);
    reopened.close();
    const memory = HogaDatabase.open(':memory:');
    expect(memory.commandJournal()).toBeNull();
    memory.close();
  });
});

/**
 * The command journal on a real file: lines appended before a send are read back after a crash, a
 * line cut short by one is skipped, the file is emptied once nothing is pending (never losing a line
 * another process appends meanwhile), and it is private
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
    next.compact(() => true);
    expect(readFileSync(path, 'utf8')).toBe('');
    expect(new CommandJournal(path).entries()).toEqual([]);
    journal.close();
    next.close();
  });

  it('stays when closed (another process may be appending to it), whatever it holds', () => {
    const path = join(tempDir(), 'db.sqlite-commands');
    const other = new CommandJournal(path); // a second process on the same database
    const clean = new CommandJournal(path);
    clean.append('a', line('a'));
    clean.settle('a');
    clean.close();
    expect(existsSync(path)).toBe(true);
    other.append('b', line('b'));
    expect(new CommandJournal(path).entries()).toEqual([line('a'), line('b')]);
    other.close();
  });

  it('keeps, when compacted, the lines another process appends meanwhile, before and after the new file replaces the old', () => {
    const path = join(tempDir(), 'db.sqlite-commands');
    const owner = new CommandJournal(path);
    const other = new CommandJournal(path); // hoga order beside hoga run
    owner.append('a', line('a'));
    other.append('b', line('b'));
    owner.settle('a');
    // while the owner decides which lines are stored (after it read the file, before the rename)
    owner.compact((l) => {
      if (l === line('a')) other.append('c', line('c'));
      // until the compaction is done with it, the old file is also <journal>.replaced
      expect(readFileSync(`${path}.replaced`, 'utf8')).toContain(line('a'));
      return l !== line('b');
    });
    expect(existsSync(`${path}.replaced`)).toBe(false);
    expect(new CommandJournal(path).entries()).toEqual([line('b'), line('c')]);
    // the other process still holds the old file: its next line reaches the journal all the same
    other.append('d', line('d'));
    expect(new CommandJournal(path).entries()).toEqual([line('b'), line('c'), line('d')]);
    // the owner writes to the file it compacted into, after the other process's line
    owner.append('e', line('e'));
    expect(new CommandJournal(path).entries()).toEqual([line('b'), line('c'), line('d'), line('e')]);
    owner.compact(() => true);
    expect(readFileSync(path, 'utf8')).toBe('');
    other.append('f', line('f'), true);
    expect(new CommandJournal(path).entries()).toEqual([line('f')]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    owner.close();
    other.close();
  });

  it('keeps what a killed compaction left as .replaced until the lines not stored are in the journal', () => {
    const path = join(tempDir(), 'db.sqlite-commands');
    appendFileSync(`${path}.replaced`, `${line('gone')}\n${line('left')}\n`);
    const journal = new CommandJournal(path);
    journal.append('a', line('a'));
    expect(journal.entries()).toEqual([line('gone'), line('left'), line('a')]);
    journal.compact((l) => {
      // killed here, before the rename, the line not stored would still be read
      expect(readFileSync(`${path}.replaced`, 'utf8')).toContain(line('left'));
      return l !== line('left');
    });
    expect(existsSync(`${path}.replaced`)).toBe(false);
    expect(journal.entries()).toEqual([line('left')]);
    journal.close();
  });

  it('is private to its owner (mode 0600)', () => {
    const path = join(tempDir(), 'db.sqlite-commands');
    const journal = new CommandJournal(path);
    journal.append('a', line('a'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    journal.close();
  });

  it('asks to be folded once nothing is pending and it passed 64 KB, never while a line waits for its rows', () => {
    const path = join(tempDir(), 'db.sqlite-commands');
    const journal = new CommandJournal(path);
    journal.append('first', line('first'));
    for (let i = 0; i < 80; i++) {
      journal.append(`c${i}`, line(`c${i}`, 1000));
      journal.settle(`c${i}`);
    }
    // 80 KB written, but `first` is still pending
    expect(statSync(path).size).toBeGreaterThan(64 * 1024);
    expect(journal.shouldCompact()).toBe(false);
    journal.settle('first');
    expect(journal.shouldCompact()).toBe(true);
    journal.compact(() => true);
    expect(statSync(path).size).toBe(0);
    expect(journal.shouldCompact()).toBe(false);
    journal.close();
    expect(() => journal.append('e', line('e'))).toThrow(/closed/);
  });

  it('remembers the ids this process appended, settled and cleared ones included', () => {
    const journal = new CommandJournal(join(tempDir(), 'db.sqlite-commands'));
    journal.append('a', line('a'));
    expect(journal.has('a')).toBe(true);
    expect(journal.has('b')).toBe(false);
    journal.settle('a');
    journal.compact(() => true);
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

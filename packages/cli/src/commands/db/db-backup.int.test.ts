/**
 * `hoga db backup <file>`: a consistent copy of a database another process is writing, taken
 * without stopping it (SQLite's VACUUM INTO reads one snapshot; in WAL mode the writer goes on), made
 * readable by the user only (it holds the access token), never over an existing file.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hoga, jsonFailure } from '../../hoga-process.test-helper.js';
import { limitBuyIntent, releaseWriter, writerHoldingTransaction } from './db-rows.test-helper.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-backup-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');

describe('hoga db backup', () => {
  it('copies a database whose writer holds an open transaction, without waiting for it or stopping it', async () => {
    const writer = writerHoldingTransaction(file);
    try {
      const target = join(dir, 'backups', 'hoga-2026-11-30.sqlite');
      const run = await hoga(['db', 'backup', target, '--db', file, '--json']);
      expect(run.err).toBe('');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.out)).toMatchObject({
        file,
        backup: target,
        schemaVersion: writer.schemaVersion,
        sizeBytes: statSync(target).size,
      });
      // the writer was not stopped: it commits what it held open, and writes on
      writer.connection.exec('COMMIT');
      writer.orders.recordIntent(limitBuyIntent('after-1'));
      expect(statSync(target).mode & 0o777).toBe(0o600);
      expect(readdirSync(join(dir, 'backups'))).toEqual(['hoga-2026-11-30.sqlite']);
      const copy = HogaDatabase.open(target, { readonly: true });
      try {
        expect(copy.info().integrity).toEqual(['ok']);
        expect(copy.orders.list({}).map((o) => o.clientOrderId)).toEqual(['committed-1']);
        expect(copy.connection.prepare('SELECT count(*) AS n FROM strategy_state').get()).toEqual({ n: 0 });
      } finally {
        copy.close();
      }
    } finally {
      releaseWriter(writer);
    }
  });

  it('copies the command journal beside the file too, 0600, and says so', async () => {
    const db = HogaDatabase.open(file);
    db.close();
    writeFileSync(`${file}-commands`, '{"line":1}\n');
    chmodSync(`${file}-commands`, 0o644);
    const target = join(dir, 'copy.sqlite');
    const run = await hoga(['db', 'backup', target, '--db', file]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain(`${file} backed up to ${target}`);
    expect(run.out).toContain(`${target}-commands`);
    expect(readFileSync(`${target}-commands`, 'utf8')).toBe('{"line":1}\n');
    expect(statSync(`${target}-commands`).mode & 0o777).toBe(0o600);
  });

  it('refuses to write over an existing file (exit 2), leaving it as it was', async () => {
    HogaDatabase.open(file).close();
    const target = join(dir, 'exists.sqlite');
    writeFileSync(target, 'precious\n');
    const before = sha256(target);
    const run = await hoga(['db', 'backup', target, '--db', file, '--json']);
    expect(run.code).toBe(2);
    expect(jsonFailure(run.err).message).toContain(`${target} exists`);
    expect(sha256(target)).toBe(before);
    expect(readdirSync(dir).filter((f) => !f.startsWith('hoga.sqlite'))).toEqual(['exists.sqlite']);
  });

  it('refuses a name taken by a symbolic link, even one to nothing, leaving the link as it was', async () => {
    HogaDatabase.open(file).close();
    const target = join(dir, 'link.sqlite');
    symlinkSync(join(dir, 'nowhere.sqlite'), target);
    const run = await hoga(['db', 'backup', target, '--db', file]);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`${target} exists`);
    expect(readlinkSync(target)).toBe(join(dir, 'nowhere.sqlite'));
    expect(existsSync(join(dir, 'nowhere.sqlite'))).toBe(false);
  });

  it('refuses a file that is not a hoga database, naming it (exit 1), and writes no backup', async () => {
    writeFileSync(file, 'not a database\n'.repeat(100));
    const target = join(dir, 'copy.sqlite');
    const run = await hoga(['db', 'backup', target, '--db', file]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${file} is not a hoga database`);
    expect(existsSync(target)).toBe(false);
  });
});

/**
 * `HogaDatabase.deferCheckpoints` on a real file: commits stop paying for WAL checkpoints (the
 * WAL grows past SQLite's 1,000-page automatic checkpoint), and the timer's passive checkpoints
 * bring it back into the database between writes, starting the WAL over there too.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { HogaDatabase, StoreError } from '../src/index.js';
import { bundleScript, collectLines, exited } from './spawn-child.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PAGE = 4096;
/** 3,000 small commits: each appends at least one page to the WAL. */
function writeMany(db: HogaDatabase): void {
  const c = db.connection;
  c.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = c.prepare('INSERT INTO t (body) VALUES (?)');
  for (let i = 0; i < 3_000; i++) insert.run('x'.repeat(200));
}
const walBytes = (file: string) => statSync(`${file}-wal`).size;

describe('deferred WAL checkpoints', () => {
  it('by default, a commit checkpoints once the WAL passes 1,000 pages', () => {
    const file = join(dir, 'default.sqlite');
    const db = HogaDatabase.open(file);
    writeMany(db);
    expect(walBytes(file)).toBeLessThan(1_100 * (PAGE + 24));
    db.close();
  });

  it('deferred, commits only append; a checkpoint copies every frame back', () => {
    const file = join(dir, 'deferred.sqlite');
    const db = HogaDatabase.open(file);
    db.deferCheckpoints(60_000);
    writeMany(db);
    expect(walBytes(file)).toBeGreaterThan(2_000 * PAGE);
    const done = db.checkpoint();
    expect(done.walFrames).toBeGreaterThan(2_000);
    expect(done.checkpointed).toBe(done.walFrames);
    db.close();
    const again = HogaDatabase.open(file);
    expect(again.connection.prepare('SELECT count(*) FROM t').pluck().get()).toBe(3_000);
    again.close();
  });

  it('runs the checkpoints on its timer, between writes', async () => {
    const file = join(dir, 'timer.sqlite');
    const db = HogaDatabase.open(file);
    db.deferCheckpoints(20);
    writeMany(db);
    const before = db.checkpointStats.count;
    await sleep(150);
    expect(db.checkpointStats.count).toBeGreaterThan(before);
    // Everything is in the database: a checkpoint now finds nothing left to copy.
    const now = db.checkpoint();
    expect(now.checkpointed).toBe(now.walFrames);
    db.close();
  });

  it('starts the WAL over on its timer, so the next commit appends instead of restarting it', async () => {
    const file = join(dir, 'restart.sqlite');
    const db = HogaDatabase.open(file);
    db.deferCheckpoints(20);
    writeMany(db);
    await sleep(150);
    // The timer copied the 3,000 commits back and wrote one page to start the WAL over: what is
    // left in it is that one frame, not yet copied (SQLite restarts a WAL only once all is copied).
    const left = db.connection.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    expect(left[0]?.log).toBe(1);
    // Idle: the ticks find nothing written since and do nothing.
    const ticks = db.checkpointStats.count;
    await sleep(100);
    expect(db.checkpointStats.count).toBe(ticks);
    expect(db.connection.prepare('SELECT count(*) FROM t').pluck().get()).toBe(3_000);
    db.close();
  });

  it('never waits for another connection holding the write lock; starts the WAL over once it is free', async () => {
    const file = join(dir, 'locked.sqlite');
    // A tick that waited for the lock would wait up to a minute: the test would time out.
    const db = HogaDatabase.open(file, { busyTimeoutMs: 60_000 });
    writeMany(db);
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE'); // the write lock, taken before the first tick
    db.deferCheckpoints(20);
    await sleep(150);
    expect(db.checkpointStats.count).toBeGreaterThan(0);
    other.exec('COMMIT');
    other.close();
    await sleep(150);
    const left = db.connection.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    expect(left[0]?.log).toBe(1);
    expect(db.connection.pragma('busy_timeout', { simple: true })).toBe(60_000);
    db.close();
  });

  it('a checkpoint that fails with a write error is reported and retried, and the process lives on', async () => {
    // A file-size limit the WAL fits in but the database cannot grow to: the timer's checkpoint
    // fails with SQLITE_FULL/IOERR, not SQLITE_BUSY. Such an error used to escape the timer's
    // callback as an uncaught exception and end the engine's process.
    const file = join(dir, 'full.sqlite');
    HogaDatabase.open(file).close();
    const pages = 256;
    const limitKb = Math.ceil((pages * (PAGE + 24) + 96 * 1024) / 1024);
    expect(statSync(file).size + pages * PAGE).toBeGreaterThan(limitKb * 1024);
    const bundle = await bundleScript(join(import.meta.dirname, 'processes', 'checkpoint-full.ts'));
    const child = spawn(
      'bash',
      ['-c', `ulimit -f ${limitKb} && exec "$0" "$@"`, process.execPath, bundle, file, String(pages)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const out = collectLines(child);
    const code = await exited(child);
    expect(out.stderr()).not.toMatch(/Uncaught|SqliteError/);
    expect(code).toBe(0);
    const report = JSON.parse(out.lines[0] ?? '{}') as {
      alive: boolean;
      rows: number;
      failures: number;
      codes: string[];
      stats: { failures: number };
    };
    expect(report.alive).toBe(true);
    expect(report.stats.failures).toBe(report.failures);
    expect(report.rows).toBe(pages + 1);
    // tried again at each tick, each failure reported
    expect(report.failures).toBeGreaterThan(1);
    expect(report.codes.every((c) => /^SQLITE_(FULL|IOERR)/.test(c))).toBe(true);
    // nothing was lost: without the limit, every row is there
    const again = HogaDatabase.open(file);
    expect(again.connection.prepare('SELECT count(*) FROM filler').pluck().get()).toBe(pages + 1);
    again.close();
  });

  it('refuses an interval that is not a positive number of ms', () => {
    const db = HogaDatabase.open(join(dir, 'bad.sqlite'));
    expect(() => db.deferCheckpoints(0)).toThrow(StoreError);
    expect(() => db.deferCheckpoints(Number.NaN)).toThrow(/expected a positive number of ms, found NaN/);
    db.close();
  });
});

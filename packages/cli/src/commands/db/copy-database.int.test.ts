/**
 * The copy a read command makes of a database it cannot read in place, while another process
 * writes it: the main file and its `-wal` are copied one after the other, and a checkpoint that
 * restarts the WAL between the two (the writer's next commit after a checkpoint that backfilled
 * every frame) left a copy of the main file from before the checkpoint with a WAL of after it:
 * the rows the checkpoint moved into the main file were in neither (before: such a copy was read,
 * rows missing or "database disk image is malformed").
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CopyFile, copyDatabase } from './copy-database.js';
import { limitBuyIntent } from './db-rows.test-helper.js';

let dir: string;
let file: string;
let copy: string;
let writer: HogaDatabase;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-copy-database-'));
  file = join(dir, 'hoga.sqlite');
  copy = join(dir, 'copy.sqlite');
  writer = HogaDatabase.open(file);
  // every commit stays in the WAL until the test checkpoints
  writer.connection.pragma('wal_autocheckpoint = 0');
  for (let i = 0; i < 200; i++)
    writer.orders.recordIntent(limitBuyIntent(`o-${i}`, 'live', 1_764_000_000_000 + i));
});
afterEach(() => {
  writer.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Copies for real; after the main file's copy (the first `times` copies), the writer checkpoints every frame, and commits again: the WAL restarts. */
function checkpointingBetween(times: number): CopyFile {
  let n = 0;
  return (from, to) => {
    copyFileSync(from, to);
    if (from === file && n++ < times) {
      writer.connection.pragma('wal_checkpoint(TRUNCATE)');
      writer.orders.recordIntent(limitBuyIntent(`after-${n}`, 'live', 1_764_100_000_000 + n));
    }
  };
}

/** The copy's client order ids, and its integrity check. */
function readCopy(): { ids: string[]; integrity: unknown } {
  const db = HogaDatabase.open(copy, { migrate: false, readonly: true });
  try {
    return {
      ids: db.orders.list({}).map((o) => o.clientOrderId),
      integrity: db.connection.pragma('integrity_check', { simple: true }),
    };
  } finally {
    db.close();
  }
}

describe('copyDatabase', () => {
  it('copies again when the WAL restarted between the main file and the WAL', () => {
    copyDatabase(file, copy, checkpointingBetween(1));
    const { ids, integrity } = readCopy();
    expect(integrity).toBe('ok');
    // the file of one moment: every order committed before the copy, and the one of after it
    expect(ids).toHaveLength(201);
    expect(ids).toContain('o-0');
    expect(ids).toContain('after-1');
  });

  it('gives up after as many tries, naming the file', () => {
    expect(() => copyDatabase(file, copy, checkpointingBetween(100))).toThrow(
      `${file} changed while it was copied, 5 times`,
    );
    expect(existsSync(file)).toBe(true);
  });
});

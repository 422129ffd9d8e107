/**
 * A database file whose table pages are damaged (bytes overwritten on disk): the file opens, but
 * reading the rows fails. The real `hoga` command must say the file is damaged, with a stable code,
 * not "unexpected error".
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hoga, jsonFailure } from '../../hoga-process.test-helper.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-damaged-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A store with two orders whose `orders` page then has its cells overwritten. */
function damagedStore(): void {
  const db = HogaDatabase.open(file);
  for (const id of ['ord-a', 'ord-b']) {
    db.orders.recordIntent({
      clientOrderId: id,
      strategyId: 'sma',
      mode: 'live',
      symbol: '005930',
      market: 'KR',
      currency: 'KRW',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'DAY',
      price: new Decimal('72100'),
      quantity: new Decimal('10'),
      amount: null,
      createdAt: Date.parse('2026-11-23T09:00:00+09:00'),
    });
  }
  const { rootpage } = db.connection
    .prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'orders'")
    .get() as {
    rootpage: number;
  };
  const pageSize = db.connection.pragma('page_size', { simple: true }) as number;
  db.close(); // checkpoints the WAL: the rows are in the file's pages now
  // the cells sit at the end of the page: overwrite them
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(1200, 0xde), 0, 1200, rootpage * pageSize - 1200);
  closeSync(fd);
}

describe('a database file damaged inside a table', () => {
  it('db orders says the file is damaged (code corrupt-database), exit 1, and what to run', async () => {
    damagedStore();
    const text = await hoga(['db', 'orders', '--db', file]);
    expect(text.code).toBe(1);
    expect(text.err).not.toContain('unexpected');
    expect(text.err).toMatch(
      /^hoga: the database file is damaged \(SQLite: database disk image is malformed\)/,
    );
    expect(text.err).toContain('hoga db info');
    const json = await hoga(['db', 'orders', '--db', file, '--json']);
    expect(json.code).toBe(1);
    expect(jsonFailure(json.err)).toMatchObject({ code: 'corrupt-database', exitCode: 1 });
  });
});

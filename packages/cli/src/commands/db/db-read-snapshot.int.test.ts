/**
 * `hoga db` read commands on a database another process is writing (WAL): every read of one command
 * sees one snapshot (before: each statement saw the file as it was then, so a listing and the rows
 * read for it could be of two moments), and a writer holding a write transaction open neither blocks
 * them nor is blocked by them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hoga } from '../../hoga-process.test-helper.js';
import { withFailure } from './db-io.js';
import { withExisting } from './db-listing.js';
import { limitBuyIntent, releaseWriter, writerHoldingTransaction } from './db-rows.test-helper.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-snapshot-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('hoga db read commands on a file being written', () => {
  it('read one snapshot from the first read to the end of the command', () => {
    const writer = HogaDatabase.open(file);
    const errors: string[] = [];
    const io = withFailure({ out: () => {}, err: (t) => errors.push(t), fail: () => {} });
    const seen: string[][] = [];
    try {
      writer.orders.recordIntent(limitBuyIntent('before-1'));
      withExisting({ db: file }, io, (db) => {
        seen.push(db.orders.list({}).map((o) => o.clientOrderId));
        writer.orders.recordIntent(limitBuyIntent('meanwhile-1'));
        writer.fills.record({
          orderId: writer.orders.get('meanwhile-1')?.id ?? 0,
          brokerOrderId: null,
          symbol: '005930',
          side: 'BUY',
          quantity: new Decimal('10'),
          price: new Decimal('72100'),
          commission: new Decimal('0'),
          commissionCurrency: 'KRW',
          tax: null,
          filledAt: 1_764_000_000_001,
          cumulativeQuantity: new Decimal('10'),
        });
        seen.push(db.orders.list({}).map((o) => o.clientOrderId));
        seen.push(db.fills.list({}).map((f) => f.symbol));
      });
    } finally {
      writer.close();
    }
    expect(errors).toEqual([]);
    expect(seen).toEqual([['before-1'], ['before-1'], []]);
  });

  it('answer while a writer holds a write transaction open, and the writer commits after', async () => {
    const writer = writerHoldingTransaction(file);
    try {
      const orders = await hoga(['db', 'orders', '--db', file, '--json']);
      expect(orders.err).toBe('');
      expect(orders.code).toBe(0);
      expect(JSON.parse(orders.out).map((o: { clientOrderId: string }) => o.clientOrderId)).toEqual([
        'committed-1',
      ]);
      const info = await hoga(['db', 'info', '--db', file, '--json']);
      expect(info.code).toBe(0);
      expect(JSON.parse(info.out).tables).toEqual(
        expect.arrayContaining([
          { name: 'strategy_state', rows: 0 },
          { name: 'orders', rows: 1 },
        ]),
      );
      writer.connection.exec('COMMIT');
      expect(writer.connection.prepare('SELECT count(*) AS n FROM strategy_state').get()).toEqual({ n: 1 });
    } finally {
      releaseWriter(writer);
    }
  });
});

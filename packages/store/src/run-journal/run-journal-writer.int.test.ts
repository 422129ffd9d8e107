/**
 * The run journal writer on real files: its worker thread commits the summaries and trades a run's
 * records fold into, exactly as the calling thread would; a write that fails (a trade of a run with
 * no stored row, refused by the foreign key) ends in a `write-failed` StoreError and stops the
 * writer; an in-memory database is written in place.
 */
import { Decimal } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp } from '../../test/support.js';
import { HogaDatabase } from '../hoga-database.js';
import { RunRepository } from '../repositories/run-repository.js';
import { StoreError } from '../store-error.js';
import type { OrderSummary } from './run-journal-sink.js';
import { RunJournalWriter } from './run-journal-writer.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

const T = Date.parse('2026-11-23T09:00:00+09:00');

/** Three orders: one filled in two slices, one rejected, one still open at the flush. */
function writeOrders(writer: RunJournalWriter): void {
  writer.order(true, 'a', 'sma', T, '005930', 'BUY', 'LIMIT', '70000', '10', null);
  writer.event('OrderAccepted', 'a', 'sma', T, T + 1);
  writer.filled(
    'OrderPartiallyFilled',
    'a',
    'sma',
    T + 60_000,
    T + 60_001,
    '005930',
    'BUY',
    '4',
    '70000',
    'KRW',
    '42',
    '0',
  );
  writer.order(true, 'b', 'sma', T + 1, 'AAPL', 'BUY', 'MARKET', null, null, '100.5');
  writer.reason('OrderRejected', 'b', 'sma', T + 2, T + 3, 'insufficient-buying-power: no USD');
  writer.filled(
    'OrderFilled',
    'a',
    'sma',
    T + 120_000,
    T + 120_001,
    '005930',
    'BUY',
    '6',
    '69900',
    'KRW',
    '62',
    '0',
  );
  writer.order(true, 'c', null, T + 5, '005930', 'SELL', 'MARKET', null, '3', null);
  writer.event('OrderAccepted', 'c', null, T + 5, T + 6);
  writer.flush();
}

const summaryA: OrderSummary = {
  clientOrderId: 'a',
  strategyId: 'sma',
  symbol: '005930',
  side: 'BUY',
  orderType: 'LIMIT',
  price: '70000',
  quantity: '10',
  amount: null,
  last: 'OrderFilled',
  events: [
    ['OrderSubmitted', T],
    ['OrderAccepted', T],
    ['OrderPartiallyFilled', T + 60_000],
    ['OrderFilled', T + 120_000],
  ],
  fills: [
    [T + 60_000, '4', '70000', '42', '0'],
    [T + 120_000, '6', '69900', '62', '0'],
  ],
  reason: null,
};

function journal(database: HogaDatabase): unknown[][] {
  return database.connection
    .prepare(
      'SELECT type, mode, strategy_id, client_order_id, ts_event, ts_init, payload FROM journal ORDER BY seq',
    )
    .raw()
    .all() as unknown[][];
}

describe('RunJournalWriter', () => {
  it('folds records into one summary per order and one trade per fill, committed by its worker thread', async () => {
    const runs = new RunRepository(db.connection);
    runs.start({
      runId: 'r',
      kind: 'backtest',
      strategyPath: null,
      strategyName: 'sma',
      params: {},
      startedAt: 0,
    });
    // a batch of a few records: several messages to the thread
    const writer = RunJournalWriter.open(db, { mode: 'backtest', runId: 'r', batchValues: 16 });
    expect(writer.threaded).toBe(true);
    writeOrders(writer);
    await writer.close();
    expect(writer.error).toBeNull();

    const rows = journal(db);
    expect(rows.map((r) => r.slice(0, 6))).toEqual([
      ['OrderSummary', 'backtest', 'sma', 'b', T + 2, T + 3],
      ['OrderSummary', 'backtest', 'sma', 'a', T + 120_000, T + 120_001],
      ['OrderSummary', 'backtest', null, 'c', T + 5, T + 5],
    ]);
    expect(JSON.parse(rows[1]?.[6] as string)).toEqual(summaryA);
    expect(rows[1]?.[6]).toBe(JSON.stringify(summaryA));
    expect(JSON.parse(rows[0]?.[6] as string)).toMatchObject({
      orderType: 'MARKET',
      amount: '100.5',
      last: 'OrderRejected',
      reason: 'insufficient-buying-power: no USD',
    });
    expect(JSON.parse(rows[2]?.[6] as string)).toMatchObject({ last: 'OrderAccepted', quantity: '3' });
    expect(
      runs
        .trades('r')
        .map((t) => [t.time, t.strategyId, t.symbol, t.side, t.quantity, t.price, t.commission]),
    ).toEqual([
      [T + 60_000, 'sma', '005930', 'BUY', new Decimal(4), new Decimal(70000), new Decimal(42)],
      [T + 120_000, 'sma', '005930', 'BUY', new Decimal(6), new Decimal(69900), new Decimal(62)],
    ]);
  });

  it('keeps what a denied order asked for, with its denial as its only event (an intent record, not a submission)', async () => {
    const writer = RunJournalWriter.open(db, { mode: 'backtest' });
    expect(writer.threaded).toBe(true);
    writer.order(false, 'd', 'sma', T + 7, '000660', 'SELL', 'LIMIT', 150_000, 2, null);
    writer.reason('OrderDenied', 'd', 'sma', T + 7, T + 8, 'max-order-value: too big');
    // an intent left alone (no denial followed) is still journalled at the flush, with no event
    writer.order(false, 'e', null, T + 9, 'AAPL', 'BUY', 'MARKET', null, null, '100.5');
    writer.flush();
    await writer.close();
    const rows = journal(db);
    expect(rows.map((r) => r.slice(0, 6))).toEqual([
      ['OrderSummary', 'backtest', 'sma', 'd', T + 7, T + 8],
      ['OrderSummary', 'backtest', null, 'e', 0, 0],
    ]);
    const denied: OrderSummary = {
      clientOrderId: 'd',
      strategyId: 'sma',
      symbol: '000660',
      side: 'SELL',
      orderType: 'LIMIT',
      price: '150000',
      quantity: '2',
      amount: null,
      last: 'OrderDenied',
      events: [['OrderDenied', T + 7]],
      fills: [],
      reason: 'max-order-value: too big',
    };
    expect(rows[0]?.[6]).toBe(JSON.stringify(denied));
    expect(JSON.parse(rows[1]?.[6] as string)).toMatchObject({
      symbol: 'AAPL',
      amount: '100.5',
      last: '',
      events: [],
    });
  });

  it('adds no second summary for what comes of an order after it ended: a refused cancel or modify, a denial', async () => {
    const writer = RunJournalWriter.open(db, { mode: 'backtest', batchValues: 16 });
    expect(writer.threaded).toBe(true);
    writer.order(true, 'f', 'sma', T, '005930', 'BUY', 'LIMIT', '56000', '1', null);
    writer.event('OrderAccepted', 'f', 'sma', T, T);
    writer.reason('OrderCanceled', 'f', 'sma', T + 1, T + 1, null);
    // a later hook cancels it again, modifies it, and its second cancel is denied
    writer.event('OrderCancelRequested', 'f', 'sma', T + 2, T + 2);
    writer.event('OrderCancelRejected', 'f', 'sma', T + 2, T + 2);
    writer.event('OrderModifyRejected', 'f', 'sma', T + 3, T + 3);
    writer.modified('f', 'sma', T + 3, T + 3, '57000', null);
    writer.reason('OrderDenied', 'f', 'sma', T + 4, T + 4, 'order-closed: f was canceled');
    writer.flush();
    await writer.close();
    const rows = journal(db);
    expect(rows.map((r) => r.slice(0, 6))).toEqual([['OrderSummary', 'backtest', 'sma', 'f', T + 1, T + 1]]);
    expect(JSON.parse(rows[0]?.[6] as string)).toMatchObject({
      symbol: '005930',
      price: '56000',
      last: 'OrderCanceled',
      events: [
        ['OrderSubmitted', T],
        ['OrderAccepted', T],
        ['OrderCanceled', T + 1],
      ],
    });
  });

  it("keeps an open order's last state through a refused modify or cancel (its events list them; its state stays)", async () => {
    const writer = RunJournalWriter.open(db, { mode: 'backtest', batchValues: 16 });
    writer.order(true, 'g', 'sma', T, 'AAPL', 'BUY', 'LIMIT', '180', '2', null);
    writer.event('OrderAccepted', 'g', 'sma', T, T);
    writer.event('OrderModifyRejected', 'g', 'sma', T + 1, T + 1);
    writer.event('OrderCancelRejected', 'g', 'sma', T + 2, T + 2);
    writer.flush();
    await writer.close();
    const rows = journal(db);
    // before: last was 'OrderModifyRejected', then 'OrderCancelRejected': replies, not states
    expect(JSON.parse(rows[0]?.[6] as string)).toMatchObject({
      last: 'OrderAccepted',
      events: [
        ['OrderSubmitted', T],
        ['OrderAccepted', T],
        ['OrderModifyRejected', T + 1],
        ['OrderCancelRejected', T + 2],
      ],
    });
  });

  it("writes a run id with quotes in it as it is (the thread's statements carry it as an SQL literal)", async () => {
    const runId = "it's'); DROP TABLE runs; --";
    new RunRepository(db.connection).start({
      runId,
      kind: 'backtest',
      strategyPath: null,
      strategyName: 'sma',
      params: {},
      startedAt: 0,
    });
    const writer = RunJournalWriter.open(db, { mode: 'backtest', runId, batchValues: 16 });
    expect(writer.threaded).toBe(true);
    writeOrders(writer);
    await writer.close();
    expect(writer.error).toBeNull();
    const runs = new RunRepository(db.connection);
    expect(runs.trades(runId).map((t) => t.quantity.toFixed())).toEqual(['4', '6']);
    expect(runs.list().map((r) => r.runId)).toEqual([runId]);
    expect(journal(db).map((r) => r[3])).toEqual(['b', 'a', 'c']);
  });

  it('writes the same rows on the calling thread (an in-memory database), and none of the trades without a run', async () => {
    const memory = HogaDatabase.open(':memory:');
    try {
      const writer = RunJournalWriter.open(memory, { mode: 'backtest', batchValues: 16 });
      expect(writer.threaded).toBe(false);
      writeOrders(writer);
      await writer.close();
      const rows = journal(memory);
      expect(rows.map((r) => r[3])).toEqual(['b', 'a', 'c']);
      expect(rows[1]?.[6]).toBe(JSON.stringify(summaryA));
      expect(memory.connection.prepare('SELECT count(*) FROM run_trades').pluck().get()).toBe(0);
    } finally {
      memory.close();
    }
  });

  it('rejects close with a write-failed StoreError when a batch cannot be written, and drops what follows', async () => {
    // no `runs` row for run 'ghost': the trade breaks the foreign key, the batch rolls back
    const writer = RunJournalWriter.open(db, { mode: 'backtest', runId: 'ghost', batchValues: 1 });
    writer.order(true, 'a', 'sma', T, '005930', 'BUY', 'MARKET', null, '1', null);
    writer.filled('OrderFilled', 'a', 'sma', T + 1, T + 1, '005930', 'BUY', '1', '70000', 'KRW', '10', '0');
    writer.order(true, 'b', 'sma', T + 2, '005930', 'BUY', 'MARKET', null, '1', null);
    writer.event('OrderCanceled', 'b', 'sma', T + 3, T + 3);
    const closed = writer.close();
    await expect(closed).rejects.toThrow(StoreError);
    await expect(closed).rejects.toMatchObject({ code: 'write-failed', message: /FOREIGN KEY/ });
    expect(writer.error?.code).toBe('write-failed');
    expect(journal(db)).toEqual([]);
  });
});

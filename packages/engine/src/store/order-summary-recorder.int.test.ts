import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BrokerOrderId,
  type ClientOrderId,
  createOrderIntent,
  Decimal,
  type Fill,
  instrumentOf,
  Money,
  type OrderEvent,
  type OrderIntent,
  type StrategyId,
} from '@hoga/core';
import { HogaDatabase, RunJournalWriter, RunRepository } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OrderSummary, OrderSummaryRecorder } from './order-summary-recorder.js';

const T = Date.parse('2026-11-23T09:00:00+09:00');
let dir: string;
let db: HogaDatabase;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-summary-'));
  db = HogaDatabase.open(join(dir, 'hoga.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const base = (id: string, ts: number, strategyId: string | null = 'sma') => ({
  eventId: `e-${id}-${ts}`,
  clientOrderId: id as ClientOrderId,
  ...(strategyId === null ? {} : { strategyId: strategyId as StrategyId }),
  tsEvent: ts,
  tsInit: ts + 1,
});
const submitted = (intent: OrderIntent, ts: number, strategyId: string | null = 'sma'): OrderEvent => ({
  ...base(intent.clientOrderId, ts, strategyId),
  type: 'OrderSubmitted',
  intent,
});
const accepted = (id: string, ts: number): OrderEvent => ({
  ...base(id, ts),
  type: 'OrderAccepted',
  brokerOrderId: `b-${id}` as BrokerOrderId,
});
const filled = (
  id: string,
  ts: number,
  fill: { symbol: string; side: 'BUY' | 'SELL'; q: string; p: string; c: string; tax?: string },
  partial = false,
): OrderEvent => {
  const f: Fill = {
    fillId: `f-${id}-${ts}`,
    clientOrderId: id as ClientOrderId,
    brokerOrderId: `b-${id}` as BrokerOrderId,
    symbol: fill.symbol,
    side: fill.side,
    quantity: new Decimal(fill.q),
    price: new Decimal(fill.p),
    commission: Money.of(new Decimal(fill.c), 'KRW'),
    ...(fill.tax === undefined ? {} : { tax: Money.of(new Decimal(fill.tax), 'KRW') }),
    cumulativeQuantity: new Decimal(fill.q),
    tsEvent: ts,
  };
  return { ...base(id, ts), type: partial ? 'OrderPartiallyFilled' : 'OrderFilled', fill: f };
};
const market = (id: string, symbol: string, quantity: number | string, side: 'BUY' | 'SELL' = 'BUY') =>
  createOrderIntent({
    clientOrderId: id as ClientOrderId,
    instrument: instrumentOf(symbol),
    side,
    sizing: 'QUANTITY',
    orderType: 'MARKET',
    quantity: new Decimal(quantity),
  });

interface Row {
  type: string;
  mode: string;
  strategy_id: string | null;
  client_order_id: string;
  ts_event: number;
  ts_init: number;
  payload: string;
}
const rows = (): Row[] =>
  db.connection
    .prepare(
      'SELECT type, mode, strategy_id, client_order_id, ts_event, ts_init, payload FROM journal ORDER BY seq',
    )
    .all() as Row[];

/** A summary with its keys in the recorder's order (the text compared is JSON's). */
const summary = ({
  clientOrderId,
  ...s
}: Partial<OrderSummary> & Pick<OrderSummary, 'clientOrderId'>): OrderSummary => ({
  clientOrderId,
  strategyId: 'sma',
  symbol: '',
  side: '',
  orderType: '',
  price: null,
  quantity: null,
  amount: null,
  last: '',
  events: [],
  fills: [],
  reason: null,
  ...s,
});

describe('OrderSummaryRecorder', () => {
  it('journals one summary per order as it closes and each fill as a trade of the stored run, from the writer thread in batches, payloads exactly as JSON writes them', async () => {
    // 700 orders at about 300 a batch: two batches sent as orders close (256-row INSERTs and single
    // rows), the rest at the flush; the writer thread commits them
    const runs = new RunRepository(db.connection);
    runs.start({
      runId: 'r1',
      kind: 'backtest',
      strategyPath: null,
      strategyName: 'sma',
      params: {},
      startedAt: 0,
    });
    const writer = RunJournalWriter.open(db, { mode: 'backtest', runId: 'r1', batchValues: 300 * 29 });
    expect(writer.threaded).toBe(true);
    const recorder = new OrderSummaryRecorder(writer);
    const expected: { row: Omit<Row, 'payload'>; payload: OrderSummary }[] = [];
    for (let i = 0; i < 700; i++) {
      const id = `o-${i}`;
      const symbol = i % 2 === 0 ? '005930' : 'AAPL';
      const side = i % 3 === 0 ? 'SELL' : 'BUY';
      const t = T + i * 60_000;
      const fill = {
        symbol,
        side,
        q: `${i + 1}`,
        p: `${70_000 + i}.5`,
        c: `${i}`,
        tax: i % 3 === 0 ? '0.25' : '0',
      } as const;
      recorder.record(submitted(market(id, symbol, i + 1, side), t));
      recorder.record(accepted(id, t));
      recorder.record(filled(id, t + 60_000, fill));
      expected.push({
        row: {
          type: 'OrderSummary',
          mode: 'backtest',
          strategy_id: 'sma',
          client_order_id: id,
          ts_event: t + 60_000,
          ts_init: t + 60_001,
        },
        payload: summary({
          clientOrderId: id,
          symbol,
          side,
          orderType: 'MARKET',
          quantity: `${i + 1}`,
          last: 'OrderFilled',
          events: [
            ['OrderSubmitted', t],
            ['OrderAccepted', t],
            ['OrderFilled', t + 60_000],
          ],
          fills: [[t + 60_000, fill.q, fill.p, fill.c, fill.tax]],
        }),
      });
    }
    recorder.flush();
    await writer.close();
    const stored = rows();
    expect(stored.map(({ payload: _, ...row }) => row)).toEqual(expected.map((e) => e.row));
    expect(
      runs
        .trades('r1')
        .map((t) => [t.time, t.symbol, t.side, t.quantity.toFixed(), t.price.toFixed(), t.tax.toFixed()]),
    ).toEqual(
      expected.map((e) => {
        const [time, q, p, , tax] = e.payload.fills[0] as OrderSummary['fills'][number];
        return [time, e.payload.symbol, e.payload.side, q, p, tax];
      }),
    );
    expect(stored.map((r) => r.payload)).toEqual(expected.map((e) => JSON.stringify(e.payload)));
    expect(db.journal.readFrom(1, 1_000).map((e) => e.payload)).toEqual(expected.map((e) => e.payload));
  });

  it('keeps every kind of event: limit, modify, partial fills, cancel, amount, denial, rejection, and orders still open at the flush', async () => {
    const writer = RunJournalWriter.open(db, { mode: 'paper', thread: false });
    expect(writer.threaded).toBe(false);
    const recorder = new OrderSummaryRecorder(writer);
    const limit = createOrderIntent({
      clientOrderId: 'lim' as ClientOrderId,
      instrument: instrumentOf('005930'),
      side: 'BUY',
      sizing: 'QUANTITY',
      orderType: 'LIMIT',
      quantity: new Decimal(10),
      price: new Decimal(70_000),
    });
    const amount = createOrderIntent({
      clientOrderId: 'amt' as ClientOrderId,
      instrument: instrumentOf('AAPL'),
      side: 'BUY',
      sizing: 'AMOUNT',
      orderType: 'MARKET',
      amount: new Decimal('100.5'),
    });
    recorder.record(submitted(limit, T));
    recorder.record(submitted(amount, T + 1, null));
    recorder.record(submitted(market('den', '005930', 1), T + 2));
    recorder.record({
      ...base('den', T + 2),
      type: 'OrderDenied',
      code: 'max-order-value',
      reason: 'too "big"\n',
    });
    recorder.record(submitted(market('rej', '005930', 1), T + 3));
    recorder.record({ ...base('rej', T + 4), type: 'OrderRejected', reason: 'market closed' });
    recorder.record(accepted('lim', T + 5));
    recorder.record({
      ...base('lim', T + 6),
      type: 'OrderModified',
      brokerOrderId: 'b2' as BrokerOrderId,
      price: new Decimal('69900'),
      quantity: new Decimal(8),
    });
    recorder.record(
      filled('lim', T + 7, { symbol: '005930', side: 'BUY', q: '3', p: '69900', c: '0.5' }, true),
    );
    recorder.record({ ...base('lim', T + 8), type: 'OrderCanceled', reason: 'session-end' });
    recorder.record(accepted('amt', T + 9));
    recorder.record(submitted(market('open', '005930', 2, 'SELL'), T + 10));
    recorder.record(accepted('open', T + 11));
    recorder.flush();
    recorder.flush();
    await writer.close();

    const stored = rows();
    expect(stored.map((r) => [r.mode, r.strategy_id, r.client_order_id, r.ts_event, r.ts_init])).toEqual([
      ['paper', 'sma', 'den', T + 2, T + 3],
      ['paper', 'sma', 'rej', T + 4, T + 5],
      ['paper', 'sma', 'lim', T + 8, T + 9],
      ['paper', null, 'amt', T + 9, T + 9],
      ['paper', 'sma', 'open', T + 11, T + 11],
    ]);
    const payloads = [
      summary({
        clientOrderId: 'den',
        symbol: '005930',
        side: 'BUY',
        orderType: 'MARKET',
        quantity: '1',
        last: 'OrderDenied',
        events: [
          ['OrderSubmitted', T + 2],
          ['OrderDenied', T + 2],
        ],
        reason: 'max-order-value: too "big"\n',
      }),
      summary({
        clientOrderId: 'rej',
        symbol: '005930',
        side: 'BUY',
        orderType: 'MARKET',
        quantity: '1',
        last: 'OrderRejected',
        events: [
          ['OrderSubmitted', T + 3],
          ['OrderRejected', T + 4],
        ],
        reason: 'market closed',
      }),
      summary({
        clientOrderId: 'lim',
        symbol: '005930',
        side: 'BUY',
        orderType: 'LIMIT',
        price: '69900',
        quantity: '8',
        last: 'OrderCanceled',
        events: [
          ['OrderSubmitted', T],
          ['OrderAccepted', T + 5],
          ['OrderModified', T + 6],
          ['OrderPartiallyFilled', T + 7],
          ['OrderCanceled', T + 8],
        ],
        fills: [[T + 7, '3', '69900', '0.5', '0']],
        reason: 'session-end',
      }),
      summary({
        clientOrderId: 'amt',
        strategyId: null,
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'MARKET',
        amount: '100.5',
        last: 'OrderAccepted',
        events: [
          ['OrderSubmitted', T + 1],
          ['OrderAccepted', T + 9],
        ],
      }),
      summary({
        clientOrderId: 'open',
        symbol: '005930',
        side: 'SELL',
        orderType: 'MARKET',
        quantity: '2',
        last: 'OrderAccepted',
        events: [
          ['OrderSubmitted', T + 10],
          ['OrderAccepted', T + 11],
        ],
      }),
    ];
    expect(stored.map((r) => r.payload)).toEqual(payloads.map((p) => JSON.stringify(p)));
    expect(new Set(stored.map((r) => r.type))).toEqual(new Set(['OrderSummary']));
  });
});

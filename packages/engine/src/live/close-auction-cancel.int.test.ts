/**
 * A US limit order at the close (`CLS`) whose limit the closing price misses is cancelled at the
 * close, and paper and live say it the same way: `OrderCanceled` with reason `close`, stamped at the
 * close. Before, paper said reason `close` and live reason `broker` (the broker reports the order
 * `CANCELED` with `canceledAt` at the close, as for a cancel asked for in the app). Over the simulator
 * on 127.0.0.1.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** 16:00 New York on Monday 2026-11-23: the regular close. */
const CLOSE = Date.parse('2026-11-23T16:00:00-05:00');

describe('a CLS order its closing price misses', () => {
  it.each(['paper', 'live'] as const)(
    '%s: ends OrderCanceled, reason close, at the close',
    async (mode) => {
      // four minutes before the close, at forty times real speed (the close 6 s away)
      const s = await startSimulatedBroker(closers, { start: '2026-11-23T15:56:00-05:00', speed: 40 });
      const [quote] = await s.client.getPrices(['AAPL']);
      const stingy = (quote?.lastPrice ?? new Decimal(0)).times(0.8).toDecimalPlaces(2);
      const ids: string[] = [];
      class Stingy extends Strategy {
        override onStart(): void {
          ids.push(
            this.ctx.submit({ symbol: 'AAPL', side: 'BUY', quantity: 2, price: stingy, timeInForce: 'CLS' }),
          );
        }
      }
      const db = openTempDb(closers, `hoga-cls-cancel-${mode}-`, s.clock);
      const { handle, events } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `cls-cancel-${mode}`,
          mode,
          symbols: ['AAPL'],
          cashKrw: new Decimal(0),
          cashUsd: new Decimal(10_000),
          strategies: [{ strategyClass: Stingy }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
      );
      closers.add(() => handle.stop());
      const ended = (e: OrderEvent) =>
        e.clientOrderId === ids[0] && (e.type === 'OrderCanceled' || e.type === 'OrderExpired');
      await until(() => events.some(ended), 90_000);
      const end = events.find(ended);
      expect(end).toMatchObject({ type: 'OrderCanceled', reason: 'close', tsEvent: CLOSE });
      expect(db.orders.get(ids[0] ?? '')?.state).toBe('CANCELED');
    },
    150_000,
  );
});

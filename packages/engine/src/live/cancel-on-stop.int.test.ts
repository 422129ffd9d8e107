/**
 * `--cancel-on-stop` (`LiveRunHandle.cancelOpenOrders`) cancels as a strategy's own cancel does:
 * through the risk module's broker rules, in paper as in live. A US limit order at the close (`CLS`)
 * cannot be cancelled in the last 10 minutes before the close (422 `cancel-restricted`): the broker
 * keeps it, and paper keeps it too; the count says what was cancelled and what still works. Over the
 * simulator on 127.0.0.1.
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe('cancelOpenOrders', () => {
  it.each(['paper', 'live'] as const)(
    '%s: leaves a CLS order in the last 10 minutes before the close working (cancel-restricted) and counts only the cancelled one',
    async (mode) => {
      // 15:52 New York: inside the CLS freeze (15:50–16:00), real speed
      const s = await startSimulatedBroker(closers, { start: '2026-11-23T15:52:00-05:00', speed: 1 });
      const [quote] = await s.client.getPrices(['AAPL']);
      const low = (quote?.lastPrice ?? new Decimal(100)).times(0.8).toDecimalPlaces(2);
      const ids: string[] = [];
      class RestTwo extends Strategy {
        override onStart(): void {
          ids.push(
            this.ctx.submit({ symbol: 'AAPL', side: 'BUY', quantity: 1, price: low, timeInForce: 'CLS' }),
          );
          ids.push(this.ctx.buy('AAPL', 1, low));
        }
      }
      const db = openTempDb(closers, `hoga-cancel-on-stop-${mode}-`, s.clock);
      const { handle, events } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `cancel-on-stop-${mode}`,
          mode,
          symbols: ['AAPL'],
          cashKrw: new Decimal(0),
          cashUsd: new Decimal(10_000),
          strategies: [{ strategyClass: RestTwo }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
      );
      closers.add(() => handle.stop());
      const [cls = '', day = ''] = ids;
      await until(
        () => ids.every((id) => events.some((e) => e.clientOrderId === id && e.type === 'OrderAccepted')),
        20_000,
      );

      const result = await handle.cancelOpenOrders();

      expect(result).toEqual({ open: 2, canceled: 1, stillOpen: [cls], unstored: [] });
      expect(events.find((e) => e.clientOrderId === cls && e.type === 'OrderCancelRejected')).toMatchObject({
        code: 'cancel-restricted',
      });
      expect(events.some((e) => e.clientOrderId === cls && e.type === 'OrderCanceled')).toBe(false);
      expect(events.some((e) => e.clientOrderId === day && e.type === 'OrderCanceled')).toBe(true);
      if (mode === 'live') {
        const open = (await s.client.listOrders({ status: 'OPEN' })).orders;
        expect(open.map((o) => [o.symbol, o.timeInForce])).toEqual([['AAPL', 'CLS']]);
      }
    },
    60_000,
  );
});

/**
 * A cancel of an order already cancelled gets one code, `already-canceled`, whether the venue (or
 * the broker) answers a second cancel sent in the same hook or the runtime refuses one of an order
 * it knows CANCELED (before, the latter was `order-closed`). Paper and live over the simulator on
 * 127.0.0.1.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  openTempDb,
  startSimulatedBroker,
  startTestRun,
  until,
} from '../live/live-run.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe('a cancel of an order already cancelled', () => {
  it.each(['paper', 'live'] as const)(
    '%s: is refused already-canceled in the same hook and after (before: order-closed after)',
    async (mode) => {
      const s = await startSimulatedBroker(closers, { speed: 1 });
      const [quote] = await s.client.getPrices(['005930']);
      const low = (quote?.lastPrice ?? new Decimal(60_000)).times(0.8).div(100).floor().times(100);
      let id = '';
      class CancelsThrice extends Strategy {
        override onStart(): void {
          id = this.ctx.buy('005930', 1, low);
        }
        override onOrderEvent(event: OrderEvent): void {
          if (event.type === 'OrderAccepted') {
            this.ctx.cancel(id as never);
            this.ctx.cancel(id as never);
          }
          if (event.type === 'OrderCanceled') this.ctx.cancel(id as never);
        }
      }
      const db = openTempDb(closers, `hoga-cancel-twice-${mode}-`, s.clock);
      const { handle, events } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `cancel-twice-${mode}`,
          mode,
          symbols: ['005930'],
          cashKrw: new Decimal(10_000_000),
          cashUsd: new Decimal(0),
          strategies: [{ strategyClass: CancelsThrice }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
      );
      closers.add(() => handle.stop());
      const rejections = () =>
        events.filter((e) => e.clientOrderId === id && e.type === 'OrderCancelRejected');
      await until(() => rejections().length >= 2, 30_000);
      expect(events.filter((e) => e.clientOrderId === id && e.type === 'OrderCanceled')).toHaveLength(1);
      const [sameHook, after] = rejections().map((e) => ('code' in e ? e.code : undefined));
      // live: the broker may still be processing the first cancel when the second reaches it
      expect(sameHook).toEqual(
        mode === 'paper' ? 'already-canceled' : expect.stringMatching(/^already-(canceled|processing)$/),
      );
      expect(after).toBe('already-canceled');
      // paper: neither reached the venue, its risk gate judging the broker's rules against the order
      // as the first cancel left it (docs/strategies.md said the same-hook one was sent); live, an
      // `already-processing` is the gate's too
      const sent = rejections().map((e) => ('sent' in e ? e.sent : undefined));
      if (mode === 'paper' || sameHook === 'already-processing') expect(sent).toEqual([false, false]);
    },
    60_000,
  );
});

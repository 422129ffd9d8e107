/**
 * A US amount order under $1 is denied in paper as it is live, by the risk module before it is
 * sent (`risk-amount-below-minimum`): the broker would take it and its record show REJECTED. Before,
 * paper filled it (0.002649 NVDA for $0.50, commission 0) while the same order live was rejected;
 * then both sent it and saw it rejected (`broker-rejected`). Over the simulator on 127.0.0.1.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys NVDA for 50 cents, then for a dollar. */
class Pennies extends Strategy {
  override onStart(): void {
    this.ctx.buyAmount('NVDA', '0.5');
    this.ctx.buyAmount('NVDA', '1');
  }
}

const ended = (e: OrderEvent) =>
  e.type === 'OrderFilled' || e.type === 'OrderRejected' || e.type === 'OrderDenied';

describe('a US amount order under $1', () => {
  it.each(['live', 'paper'] as const)(
    '%s: is denied before it is sent (risk-amount-below-minimum); one of a dollar fills',
    async (mode) => {
      // 11:00 New York: the amount-order window is open
      const s = await startSimulatedBroker(closers, { start: '2026-11-23T11:00:00-05:00', speed: 1 });
      const db = openTempDb(closers, `hoga-min-amount-${mode}-`, s.clock);
      const { handle, events } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `min-amount-${mode}`,
          mode,
          symbols: ['NVDA'],
          cashKrw: new Decimal(0),
          cashUsd: new Decimal(1_000),
          strategies: [{ strategyClass: Pennies }],
        },
        { pollIntervalMs: 200, streamIntervals: { orderbook: 200 } },
      );
      closers.add(() => handle.stop());
      await until(() => events.filter(ended).length === 2, 20_000);
      expect(events.find((e) => e.type === 'OrderDenied')).toMatchObject({
        code: 'risk-amount-below-minimum',
      });
      expect(events.filter((e) => e.type === 'OrderRejected')).toEqual([]);
      expect(events.filter((e) => e.type === 'OrderFilled')).toHaveLength(1);
      expect(s.sim.counters().ordersCreated).toBe(mode === 'live' ? 1 : 0);
    },
    60_000,
  );
});

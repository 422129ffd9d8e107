/**
 * `ctx.regularSession` in paper and live answers from the broker's market calendar: a special
 * session the broker announces that the broker model's static table does not know (Tuesday
 * 2026-11-24 declared 10:00–15:00, a day of the usual 09:00–15:30 in the table) is the session a
 * strategy is told, so an opening-range strategy measures its range from the broker's open. Over
 * the simulator on 127.0.0.1 (its clock at ×60), told the special session at its start (its start
 * option `calendar`, as `hoga sim --calendar` does).
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { RegularSession } from '../runtime/market-order-hours.js';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** What the strategy was told, once a minute of the engine clock. */
const told: (RegularSession | null | undefined)[] = [];

/** Asks `ctx.regularSession('005930')` once a minute (a timer: it needs no bar). */
class AsksSession extends Strategy {
  override onStart(): void {
    this.ctx.setTimer('ask', { at: this.ctx.now() + 1_000, every: 60_000 });
  }
  override onTimer(): void {
    told.push(this.ctx.regularSession('005930'));
  }
}

describe('ctx.regularSession in paper and live: the broker calendar', () => {
  it.each(['paper', 'live'] as const)(
    "%s: a special session the broker announces (10:00–15:00), not the static table's 09:00–15:30",
    async (mode) => {
      told.length = 0;
      const s = await startSimulatedBroker(closers, {
        speed: 60,
        rateLimit: false,
        start: '2026-11-24T09:30:00+09:00',
        calendar: { specialSessions: [{ market: 'KR', date: '2026-11-24', open: '10:00', close: '15:00' }] },
      });
      const db = openTempDb(closers, 'hoga-regular-session-', s.clock);
      const { handle } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `session-${mode}`,
          mode,
          symbols: ['005930'],
          cashKrw: new Decimal(10_000_000),
          strategies: [{ strategyClass: AsksSession }],
        },
        { pollIntervalMs: 200 },
      );
      closers.add(() => handle.stop());
      await until(() => told.some((t) => t !== undefined), 60_000);
      expect(told.find((t) => t !== undefined)).toEqual({
        date: '2026-11-24',
        open: Date.parse('2026-11-24T10:00:00+09:00'),
        close: Date.parse('2026-11-24T15:00:00+09:00'),
      });
    },
  );
});

/**
 * `ctx.marketOrderAllowed` in paper and live answers from the broker's market calendar, the one
 * the risk module judges orders by: a closure the broker announces that the broker model's static
 * table does not know (Monday 2026-11-23, a weekday it holds open) answers false, as the risk
 * module refuses a market order then (`order-hours-closed`). Before, it answered true by the static
 * table, and a strategy that asked before ordering sent a market order the risk module denied.
 *
 * Over the simulator on 127.0.0.1 (its clock at × 60), told the closure as a holiday (its start
 * option `calendar`): its KR calendar answers the day's hours null, as a broker announcing the
 * closure would, and it takes no order that day. A run without the closure answers true and its market
 * order is accepted (the answer is not simply false). A run after 2027, whose dates the simulator
 * gives no calendar for (400 `unsupported-date`), answers false: the risk module denies every order
 * then (`risk-market-data-missing`), which the static table, open every weekday, did not know.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import {
  Closers,
  KR_OPEN,
  openTempDb,
  startSimulatedBroker,
  startTestRun,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** The weekday the broker closes: Monday of {@link KR_OPEN}, open in the broker model's table. */
const CLOSED_DAY = '2026-11-23';

/** What the strategy of a run saw: its answers, one a minute of the engine clock. */
const answers: boolean[] = [];

/**
 * Asks `ctx.marketOrderAllowed('005930')` once a minute (a timer: a closed market hands over no
 * bars) and buys one share at market on the first answer of true, as `sma-crossover.ts` does.
 */
class AsksFirst extends Strategy {
  private bought = false;
  override onStart(): void {
    this.ctx.setTimer('ask', { at: this.ctx.now() + 1_000, every: 60_000 });
  }
  override onTimer(): void {
    const allowed = this.ctx.marketOrderAllowed('005930');
    answers.push(allowed);
    if (allowed && !this.bought) {
      this.bought = true;
      this.ctx.buy('005930', 1);
    }
  }
}

/**
 * Runs {@link AsksFirst} in `mode` on 005930 from `start` (default {@link KR_OPEN}) until it has
 * answered 3 times.
 */
async function runAsking(
  mode: 'paper' | 'live',
  closing: boolean,
  start = KR_OPEN,
): Promise<readonly OrderEvent[]> {
  answers.length = 0;
  const s = await startSimulatedBroker(closers, {
    speed: 60,
    rateLimit: false,
    start,
    ...(closing ? { calendar: { holidays: [{ market: 'KR', date: CLOSED_DAY }] } } : {}),
  });
  const db = openTempDb(closers, 'hoga-market-order-calendar-', s.clock);
  const { handle, events } = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: `closure-${mode}`,
      mode,
      symbols: ['005930'],
      cashKrw: new Decimal(10_000_000),
      strategies: [{ strategyClass: AsksFirst }],
    },
    { pollIntervalMs: 200 },
  );
  closers.add(() => handle.stop());
  await until(() => answers.length >= 3, 60_000);
  // the market order placed on an answer of true: accepted or denied
  if (answers.includes(true))
    await until(() => events.some((e) => e.type === 'OrderAccepted' || e.type === 'OrderDenied'));
  return events;
}

describe('ctx.marketOrderAllowed in paper and live: the broker calendar the risk module reads', () => {
  it.each(['paper', 'live'] as const)(
    '%s: a weekday the broker closes (unknown to the static table) answers false; no market order is denied',
    async (mode) => {
      const events = await runAsking(mode, true);
      expect(answers.slice(0, 3)).toEqual([false, false, false]);
      const denied = events.flatMap((e) => (e.type === 'OrderDenied' ? [`${e.code}: ${e.reason}`] : []));
      expect(denied).toEqual([]);
    },
  );

  it('paper, after 2027 (the broker gives no calendar for the date): answers false, as the risk module denies then', async () => {
    // Tuesday 2028-01-04 10:00 KST: a regular session by the static table, which knows no day
    // after 2027; the simulator answers its calendar 400 unsupported-date
    const events = await runAsking('paper', false, '2028-01-04T10:00:00+09:00');
    expect(answers.slice(0, 3)).toEqual([false, false, false]);
    expect(events.filter((e) => e.type === 'OrderDenied')).toEqual([]);
  });

  it('paper: the same hours with the broker open answer true, and the market order is accepted', async () => {
    const events = await runAsking('paper', false);
    expect(answers[0]).toBe(true);
    expect(events.map((e) => e.type)).toContain('OrderAccepted');
    expect(events.map((e) => e.type)).not.toContain('OrderDenied');
  });
});

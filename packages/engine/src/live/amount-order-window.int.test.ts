/**
 * `ctx.amountOrderAllowed` in paper and live, over the simulator on 127.0.0.1 (its clock at × 60):
 * it answers by the broker's calendar, as the risk module judges an amount order by it. Around the
 * window's end (an hour before the US regular close, 15:00 New York) a strategy asks once a minute
 * and places a $100 buy of AAPL whatever the answer: each one placed on a true answer is accepted,
 * each one placed on a false answer is denied `amount-order-outside-regular-hours` before it is
 * sent, and the answers turn from true to false at 15:00.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Tuesday 2026-11-24, 14:55:40 New York: the first answer at 14:56:30, three and a half minutes before the window closes at 15:00. */
const START = '2026-11-24T14:55:40-05:00';
/** The window's end that day: 15:00 New York. */
const WINDOW_END = Date.parse('2026-11-24T15:00:00-05:00');

/** Each answer, when it was given (engine clock) and the client order id of the buy placed on it. */
const asked: { readonly allowed: boolean; readonly at: number; readonly id: string }[] = [];

/**
 * Asks once a minute, half-way through each minute (a timer), and buys $100 of AAPL on every
 * answer. Half a minute from 15:00 either way: at × 60 a real millisecond is 60 engine ones, and
 * an order placed on an answer asked a moment before 15:00 may be judged after it.
 */
class AsksEachMinute extends Strategy {
  override onStart(): void {
    const at = Math.ceil(this.ctx.now() / 60_000) * 60_000 + 30_000;
    this.ctx.setTimer('ask', { at, every: 60_000 });
  }
  override onTimer(): void {
    const allowed = this.ctx.amountOrderAllowed('AAPL');
    asked.push({ allowed, at: this.ctx.now(), id: this.ctx.buyAmount('AAPL', 100) });
  }
}

describe('ctx.amountOrderAllowed in paper and live: the window the risk module judges by', () => {
  it.each(['paper', 'live'] as const)(
    '%s: true until 15:00 New York, each buy then accepted; false from 15:00, each buy then denied before it is sent',
    async (mode) => {
      asked.length = 0;
      const s = await startSimulatedBroker(closers, { speed: 60, rateLimit: false, start: START });
      const db = openTempDb(closers, 'hoga-amount-order-window-', s.clock);
      const { handle, events } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `amount-window-${mode}`,
          mode,
          symbols: ['AAPL'],
          cashKrw: new Decimal(0),
          cashUsd: new Decimal(10_000),
          strategies: [{ strategyClass: AsksEachMinute }],
        },
        { pollIntervalMs: 200 },
      );
      closers.add(() => handle.stop());
      // answers on both sides of 15:00 (the run's start-up takes engine minutes at × 60)
      await until(() => asked.filter((a) => a.at >= WINDOW_END).length >= 2, 60_000);
      const outcome = (id: string): OrderEvent | undefined =>
        events.find(
          (e) => e.clientOrderId === id && (e.type === 'OrderAccepted' || e.type === 'OrderDenied'),
        );
      await until(() => asked.every((a) => outcome(a.id) !== undefined));
      const answers = [...asked];
      expect(answers.filter((a) => a.allowed).length).toBeGreaterThanOrEqual(1);
      for (const a of answers) {
        expect(a.allowed).toBe(a.at < WINDOW_END);
        const e = outcome(a.id);
        if (a.allowed) expect(e?.type).toBe('OrderAccepted');
        else expect(e?.type === 'OrderDenied' ? e.code : e?.type).toBe('amount-order-outside-regular-hours');
      }
      // a denied one was never sent: no OrderSubmitted for it
      const denied = answers.filter((a) => !a.allowed).map((a) => a.id);
      expect(events.filter((e) => e.type === 'OrderSubmitted' && denied.includes(e.clientOrderId))).toEqual(
        [],
      );
    },
  );
});

/**
 * A strategy cancelling its resting KR limit order twice before the first cancel is answered (two
 * `ctx.cancel` in one hook), live (the simulator over HTTP on 127.0.0.1 is the broker) and on
 * paper, with the risk module off (the second cancel reaches the broker) and on (it refuses the
 * second cancel unsent). The order must stay `PENDING_CANCEL` as the strategy sees it until the
 * first cancel's own answer: the second's refusal does not make it working again. Before, live, the
 * second `OrderCancelRequested` did not apply (a warning "order event does not apply to the order
 * state"), and the second cancel's refusal showed the order `ACCEPTED` until its `OrderCanceled`
 * came: a strategy cancelling the orders it sees still working cancelled it again. Likewise a
 * modify given in the same hook after a cancel (sent once the cancel is taken, before it is done):
 * the order stays `PENDING_CANCEL` (before, live, its request and its refusal did not apply).
 * (A second modify is sent only once the first is answered: the runtime waits for it.)
 */
import { type Bar, type ClientOrderId, createLogger, Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy, type StrategyClass } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/**
 * A live or paper run of `strategyClass` on 005930 against a fresh simulator (its clock at 30×),
 * with the warnings it logs collected.
 */
async function startRun(
  name: string,
  mode: 'live' | 'paper',
  risk: { enabled: false } | undefined,
  strategyClass: StrategyClass,
) {
  const { clock, client } = await startSimulatedBroker(closers, { speed: 30 });
  const db = openTempDb(closers, `hoga-${mode}-${name}-`, clock);
  const warnings: string[] = [];
  const logger = createLogger({
    level: 'warn',
    destination: { write: (line: string) => void warnings.push((JSON.parse(line) as { msg: string }).msg) },
  });
  const run = await startTestRun(
    { client, clock, db },
    {
      runId: `${name}-${mode}`,
      mode,
      symbols: ['005930'],
      cashKrw: new Decimal(1_000_000),
      strategies: [{ strategyClass }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, risk, logger },
  );
  return { run, warnings };
}

/**
 * Rests a buy of 2 at 5 % under the close; once it is accepted, cancels it twice in one hook. Then,
 * as a strategy tidying up would, cancels it again whenever it sees it working (at most 3 times).
 */
class CancelTwice extends Strategy {
  /** Each event heard, with the order's state as `ctx.order` shows it then: `type [code] -> state`. */
  static seen: string[] = [];
  /** How many times it cancelled the order. */
  static cancels = 0;
  private id: ClientOrderId | undefined;

  override onBar(bar: Bar): void {
    if (bar.symbol !== '005930') return;
    if (this.id === undefined) {
      this.id = this.ctx.buy(bar.symbol, 2, Math.floor((bar.close * 0.95) / 100) * 100);
      return;
    }
    if (CancelTwice.cancels === 0 && this.state() === 'ACCEPTED') {
      this.cancel();
      this.cancel();
    }
  }

  override onOrderEvent(event: OrderEvent): void {
    const code = 'code' in event && event.code !== undefined ? ` ${event.code}` : '';
    CancelTwice.seen.push(`${event.type}${code} -> ${this.state()}`);
    // an order seen working after it was cancelled is cancelled again (a tidying strategy)
    if (CancelTwice.cancels > 0 && CancelTwice.cancels < 5 && this.state() === 'ACCEPTED') this.cancel();
  }

  private cancel(): void {
    CancelTwice.cancels++;
    this.ctx.cancel(this.id as ClientOrderId);
  }

  private state(): string {
    return this.id === undefined ? '-' : (this.ctx.order(this.id)?.state ?? 'unknown');
  }
}

for (const [label, risk] of [
  ['risk module off', { enabled: false }],
  ['risk module on', undefined],
] as const) {
  describe(`a strategy cancelling its order twice before the first cancel is answered (${label})`, () => {
    for (const mode of ['live', 'paper'] as const) {
      it(`${mode}: the order stays PENDING_CANCEL until it is CANCELED, cancelled twice only`, async () => {
        CancelTwice.seen = [];
        CancelTwice.cancels = 0;
        const { run, warnings } = await startRun('cancel-twice', mode, risk, CancelTwice);
        try {
          await until(() => CancelTwice.seen.some((e) => e.startsWith('OrderCanceled')));
          // the second cancel's answer too (live, with the risk module off, it may come after the first's)
          await until(() => CancelTwice.seen.some((e) => e.startsWith('OrderCancelRejected')));
        } finally {
          await run.handle.stop();
        }
        const canceledAt = CancelTwice.seen.findIndex((e) => e.startsWith('OrderCanceled'));
        const cancelRequested = CancelTwice.seen.indexOf('OrderCancelRequested -> PENDING_CANCEL');
        expect(cancelRequested).toBeGreaterThan(-1);
        // every event before the cancel's end, from the first request on, shows the order pending
        for (const e of CancelTwice.seen.slice(cancelRequested, canceledAt))
          expect(e).toMatch(/ -> PENDING_CANCEL$/);
        expect(CancelTwice.seen[canceledAt]).toBe('OrderCanceled -> CANCELED');
        // a refusal after the order ended leaves it CANCELED
        for (const e of CancelTwice.seen.slice(canceledAt)) expect(e).toMatch(/ -> CANCELED$/);
        // live with the risk module off, both cancels reach the broker
        if (mode === 'live' && risk !== undefined)
          expect(CancelTwice.seen.filter((e) => e.startsWith('OrderCancelRequested'))).toHaveLength(2);
        // nothing cancelled a third time: the strategy never saw its order working again
        expect(CancelTwice.cancels).toBe(2);
        expect(warnings.filter((w) => w.includes('does not apply'))).toEqual([]);
      }, 90_000);
    }
  });
}

/**
 * Rests a buy of 2 at 5 % under the close; once it is accepted, cancels it and then raises its
 * price in one hook (the modify goes out once the cancel is taken, before it is done).
 */
class CancelThenModify extends Strategy {
  /** Each event heard, with the order's state as `ctx.order` shows it then: `type [code] -> state`. */
  static seen: string[] = [];
  private id: ClientOrderId | undefined;
  private changed = false;

  override onBar(bar: Bar): void {
    if (bar.symbol !== '005930') return;
    if (this.id === undefined) {
      this.id = this.ctx.buy(bar.symbol, 2, Math.floor((bar.close * 0.95) / 100) * 100);
      return;
    }
    if (!this.changed && this.ctx.order(this.id)?.state === 'ACCEPTED') {
      this.changed = true;
      this.ctx.cancel(this.id);
      this.ctx.modify(this.id, { price: Math.floor((bar.close * 0.96) / 100) * 100 });
    }
  }

  override onOrderEvent(event: OrderEvent): void {
    const code = 'code' in event && event.code !== undefined ? ` ${event.code}` : '';
    const o = this.id === undefined ? undefined : this.ctx.order(this.id);
    CancelThenModify.seen.push(`${event.type}${code} -> ${o?.state ?? 'unknown'}`);
  }
}

for (const [label, risk] of [
  ['risk module off', { enabled: false }],
  ['risk module on', undefined],
] as const) {
  describe(`a strategy modifying its order while its cancel is pending (${label})`, () => {
    for (const mode of ['live', 'paper'] as const) {
      it(`${mode}: the order stays PENDING_CANCEL until it is CANCELED`, async () => {
        CancelThenModify.seen = [];
        const { run, warnings } = await startRun('cancel-modify', mode, risk, CancelThenModify);
        const heard = (prefix: string) => CancelThenModify.seen.some((e) => e.startsWith(prefix));
        try {
          await until(() => heard('OrderCanceled') && heard('OrderModifyRejected'));
        } finally {
          await run.handle.stop();
        }
        const seen = CancelThenModify.seen;
        const requested = seen.indexOf('OrderCancelRequested -> PENDING_CANCEL');
        const canceledAt = seen.findIndex((e) => e.startsWith('OrderCanceled'));
        expect(requested).toBeGreaterThan(-1);
        for (const e of seen.slice(requested, canceledAt)) expect(e).toMatch(/ -> PENDING_CANCEL$/);
        expect(seen[canceledAt]).toBe('OrderCanceled -> CANCELED');
        for (const e of seen.slice(canceledAt)) expect(e).toMatch(/ -> CANCELED$/);
        expect(warnings.filter((w) => w.includes('does not apply'))).toEqual([]);
      }, 90_000);
    }
  });
}

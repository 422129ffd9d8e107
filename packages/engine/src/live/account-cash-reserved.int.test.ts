/**
 * `ctx.account.cash` is what the account can spend, the broker's cash buying power (its cash less
 * what open buys hold back), in paper as in live, and it follows a resting limit buy through its
 * acceptance and its fill as the broker's figure does. Before: paper showed the ledger's cash, the
 * resting buy's reservation not taken off; live took it off only at its next read of the broker
 * (every 10 s), and once that read had it, the buy's fill took its cost off again: `onFill` saw the
 * account short by the order's reservation until the read after. Over the simulator on 127.0.0.1.
 */
import { type Bar, Decimal, type Fill, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrategySpec } from '../runtime/engine-runtime.js';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Rests a limit buy of 2 005930 3 % under its first bar; records the account's KRW as it goes. */
class RestsAndWatches extends Strategy {
  static seen: [string, Decimal][] = [];
  static fill: Fill | null = null;
  static limit: Decimal | null = null;
  private placed = false;
  private note(tag: string): void {
    RestsAndWatches.seen.push([tag, this.ctx.account.cash('KRW')]);
  }
  override onStart(): void {
    this.note('start');
  }
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    RestsAndWatches.limit = new Decimal(Math.floor((bar.close * 0.97) / 100) * 100);
    this.ctx.buy(bar.symbol, 2, RestsAndWatches.limit);
  }
  override onOrderEvent(event: OrderEvent): void {
    if (event.type === 'OrderAccepted') this.note('accepted');
  }
  override onFill(fill: Fill): void {
    RestsAndWatches.fill = fill;
    this.note('fill');
  }
}

describe('ctx.account.cash with a resting buy', () => {
  it.each(['paper', 'live'] as const)(
    '%s: less the reservation while it rests, less its cost once filled',
    async (mode) => {
      RestsAndWatches.seen = [];
      RestsAndWatches.fill = null;
      const s = await startSimulatedBroker(closers, { speed: 30 });
      const db = openTempDb(closers, `hoga-account-reserved-${mode}-`, s.clock);
      const { handle } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `reserved-${mode}`,
          mode,
          symbols: ['005930'],
          cashKrw: new Decimal(1_000_000),
          strategies: [{ strategyClass: RestsAndWatches }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
      );
      closers.add(() => handle.stop());
      await until(() => RestsAndWatches.seen.some(([tag]) => tag === 'accepted'), 60_000);
      // live reads the broker's account every 10 s: one read while the order rests
      await new Promise((r) => setTimeout(r, 11_000));
      const limit = RestsAndWatches.limit as Decimal;
      s.sim.setPrice('005930', limit.minus(1_000));
      await until(() => RestsAndWatches.fill !== null, 60_000);

      const cash = (tag: string) => RestsAndWatches.seen.find(([t]) => t === tag)?.[1] as Decimal;
      // 2 at the limit plus the commission (0.015 %) on it, rounded up: the broker's reservation
      const reserved = limit.times(2).times(1.00015).ceil();
      expect(cash('start').minus(cash('accepted')).toFixed()).toBe(reserved.toFixed());
      const fill = RestsAndWatches.fill as unknown as Fill;
      const cost = fill.quantity.times(fill.price).plus(fill.commission.amount);
      expect(cash('fill').toFixed()).toBe(cash('start').minus(cost).toFixed());
      if (mode === 'live')
        expect((await s.client.getBuyingPower('KRW')).cashBuyingPower.toFixed()).toBe(cash('fill').toFixed());
    },
    120_000,
  );
});

/** Places nothing; records the account's KRW at each fill. */
class WatchesFills extends Strategy {
  static atFill: Decimal[] = [];
  override onFill(): void {
    WatchesFills.atFill.push(this.ctx.account.cash('KRW'));
  }
}

describe('ctx.account.cash with a buy an earlier live run left resting', () => {
  it("live: its fill takes off its cost, not its cost and the reservation the start's read had off", async () => {
    RestsAndWatches.seen = [];
    RestsAndWatches.fill = null;
    WatchesFills.atFill = [];
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-account-reserved-restart-', s.clock);
    const run = (strategyClass: StrategySpec['strategyClass']) =>
      startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: 'reserved-restart',
          mode: 'live',
          symbols: ['005930'],
          cashKrw: new Decimal(1_000_000),
          strategies: [{ strategyClass, id: 'RestsAndWatches' }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
      );
    const first = await run(RestsAndWatches);
    await until(() => RestsAndWatches.seen.some(([tag]) => tag === 'accepted'), 60_000);
    await first.handle.stop(); // the buy rests at the broker
    const second = await run(WatchesFills);
    closers.add(() => second.handle.stop());
    s.sim.setPrice('005930', (RestsAndWatches.limit as Decimal).minus(1_000));
    await until(() => WatchesFills.atFill.length > 0, 60_000);
    expect(WatchesFills.atFill[0]?.toFixed()).toBe(
      (await s.client.getBuyingPower('KRW')).cashBuyingPower.toFixed(),
    );
  }, 120_000);
});

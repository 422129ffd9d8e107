/**
 * Two strategies share a live run's cash (over the simulator, HTTP, a real SQLite file); one buys
 * at market a symbol it subscribed to (`subscribePrices`) outside the run's universe. Its buys must
 * fit in its own cash, as its limit buys and its market buys of a universe symbol do. Before: only
 * the universe's bars marked a last price, so the market buy of 035420 had no price to be judged
 * by and was never held to the strategy's cash: with 500,000 KRW of its own it bought 035420 (about
 * 240,000 KRW a share) four times, its cash went to about -460,000 KRW (the other strategy's share
 * spent), and nothing was denied. Now a price tick marks its symbol's last price. A market buy of
 * a symbol no price is known of at all (neither the universe's nor subscribed) is denied: before,
 * it went through unjudged and 100 of 035420 filled on the account's buying power.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { PriceTick } from '../strategy/market-events.js';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys 1 035420 at market on a price tick whenever it has no open order, four times in all. */
class BuysSubscribed extends Strategy {
  static placed = 0;
  static cash: Decimal[] = [];
  override onStart(): void {
    this.ctx.subscribePrices('035420');
  }
  override onPrice(tick: PriceTick): void {
    BuysSubscribed.cash.push(this.ctx.cash('KRW'));
    if (BuysSubscribed.placed >= 4 || this.ctx.openOrders().length > 0) return;
    BuysSubscribed.placed++;
    this.ctx.buy(tick.symbol, 1);
  }
}

/**
 * Buys 100 of 035420 at market in `onStart`, neither among the run's symbols nor subscribed: no
 * price of it is known to hold the buy at.
 */
class BuysUnpriced extends Strategy {
  override onStart(): void {
    this.ctx.buy('035420', 100);
  }
}

/** Does nothing: its share of the cash is what the other one must not spend. */
class Idle extends Strategy {}

/**
 * A live run on 005930 with 1,000,000 KRW shared by `buyer` and an idle strategy, over a simulator
 * at ×20 (the quote of 035420 moves, a price tick, every second or so rather than every 10–20 s).
 */
async function runBuyerBesideIdle(runId: string, buyer: typeof BuysSubscribed | typeof BuysUnpriced) {
  const broker = await startSimulatedBroker(closers, { speed: 20, control: true, rateLimit: false });
  const db = openTempDb(closers, `hoga-${runId}-`, broker.clock);
  const run = await startTestRun(
    { ...broker, db },
    {
      runId,
      mode: 'live',
      symbols: ['005930'],
      cashKrw: new Decimal(1_000_000),
      strategies: [
        { strategyClass: buyer, id: 'buyer' },
        { strategyClass: Idle, id: 'idle' },
      ],
    },
    { pollIntervalMs: 200 },
  );
  closers.add(() => run.handle.stop());
  return { broker, ...run };
}

describe('a market buy of a subscribed symbol outside the universe, several strategies', () => {
  it('is held to its strategy’s own cash', async () => {
    const { broker, handle, events } = await runBuyerBesideIdle('cash-sub', BuysSubscribed);
    const ended = (e: OrderEvent): boolean => e.type === 'OrderFilled' || e.type === 'OrderDenied';
    await until(() => BuysSubscribed.placed >= 4 && events.filter(ended).length >= 4, 90_000);
    await handle.stop();
    const denied = events.filter((e) => e.type === 'OrderDenied');
    // 500,000 KRW of its own buys two shares of about 240,000 KRW, not a third
    expect(denied.map((e) => (e.type === 'OrderDenied' ? e.code : ''))).toEqual([
      'risk-strategy-cash',
      'risk-strategy-cash',
    ]);
    expect(events.filter((e) => e.type === 'OrderFilled')).toHaveLength(2);
    // each valued at the day's upper limit, what the broker holds a KR market buy at, with the
    // commission (0.015 %, rounded up) on top: before, at the last price, and a fill above it took
    // the strategy's cash below zero by the difference
    const { upperLimitPrice } = await broker.client.getPriceLimits('035420');
    const upper = new Decimal(upperLimitPrice ?? NaN);
    const needed = upper.plus(upper.times('0.00015').ceil()).toNumber().toLocaleString('en-US');
    for (const e of denied)
      expect(e.type === 'OrderDenied' && e.reason).toContain(`the buy needs ${needed} KRW`);
    expect(BuysSubscribed.cash.every((c) => c.gte(0))).toBe(true);
  }, 120_000);

  it('of a symbol with no price known at all is denied, not placed unjudged', async () => {
    // before: the budget could not value it and let it through; the account's buying power
    // took the 100 (about 24,000,000 KRW) with 500,000 KRW of the strategy's own
    const { broker, handle, events } = await runBuyerBesideIdle('cash-unpriced', BuysUnpriced);
    const ended = (e: OrderEvent): boolean =>
      e.type === 'OrderDenied' || e.type === 'OrderAccepted' || e.type === 'OrderRejected';
    await until(() => events.some(ended), 60_000);
    await handle.stop();
    const [end] = events.filter(ended);
    expect(end?.type === 'OrderDenied' && [end.code, end.reason]).toEqual([
      'risk-strategy-cash',
      expect.stringContaining('no price of 035420 is known'),
    ]);
    expect(broker.sim.counters().ordersCreated).toBe(0);
  }, 120_000);
});

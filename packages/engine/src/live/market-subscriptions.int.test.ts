/**
 * What a strategy subscribes to in paper and live runs reaches its hooks, from the connector's
 * streams over the simulator: prices (`onPrice`), order books (`onOrderbook`), trades (`onTrade`)
 * and the bars of a symbol outside the run's universe (`onBar`), each only to the strategy that
 * asked, a subscription made later (in `onBar`) too. Before, they were recorded and never delivered.
 * A price polled again unchanged reaches `onPrice` once; before, every poll handed the same tick
 * over again. A subscription to a symbol the broker does not know ends at its first refused poll,
 * said once naming the strategy and the call; before, its stream was polled on, each 404 a
 * warning (twice a second for prices) for the rest of the run.
 */
import type { Bar } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketTrade, OrderbookSnapshot, PriceTick } from '../strategy/market-events.js';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Subscribes to prices and the book of 005930 at start, to 000660's bars and trades on its first bar. */
class Listens extends Strategy {
  static prices: PriceTick[] = [];
  static books: OrderbookSnapshot[] = [];
  static trades: MarketTrade[] = [];
  static bars: Bar[] = [];
  override onStart(): void {
    this.ctx.subscribePrices('005930');
    this.ctx.subscribeOrderbook('005930');
  }
  override onBar(bar: Bar): void {
    Listens.bars.push(bar);
    if (Listens.bars.length === 1) {
      this.ctx.subscribeBars('000660');
      this.ctx.subscribeTrades('000660');
    }
  }
  override onPrice(tick: PriceTick): void {
    Listens.prices.push(tick);
  }
  override onOrderbook(book: OrderbookSnapshot): void {
    Listens.books.push(book);
  }
  override onTrade(trade: MarketTrade): void {
    Listens.trades.push(trade);
  }
}

/** Subscribes to nothing: it must get none of the above but the universe's bars. */
class Quiet extends Strategy {
  static others = 0;
  static bars: string[] = [];
  override onBar(bar: Bar): void {
    Quiet.bars.push(bar.symbol);
  }
  override onPrice(): void {
    Quiet.others++;
  }
  override onOrderbook(): void {
    Quiet.others++;
  }
  override onTrade(): void {
    Quiet.others++;
  }
}

/** Records the prices of 005930 and 000660. */
class Ticks extends Strategy {
  static ticks: PriceTick[] = [];
  override onStart(): void {
    this.ctx.subscribePrices('005930');
    this.ctx.subscribePrices('000660');
  }
  override onPrice(tick: PriceTick): void {
    Ticks.ticks.push(tick);
  }
}

/** The ticks of `symbol` in `ticks`, each as `tsEvent price`. */
function ticksOf(ticks: readonly PriceTick[], symbol: string): string[] {
  return ticks.filter((t) => t.symbol === symbol).map((t) => `${t.tsEvent} ${t.price.toFixed()}`);
}

describe('market data subscriptions in paper and live runs', () => {
  it('hands a strategy each price once however often it is polled, and a changed price again', async () => {
    // at speed 1 the simulated market trades every few seconds, prices are polled about ten times a second
    const s = await startSimulatedBroker(closers, { speed: 1 });
    const db = openTempDb(closers, 'hoga-ticks-', s.clock);
    Ticks.ticks = [];
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-ticks',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Ticks }],
      },
      { streamIntervals: { candles1m: 300 } },
    );
    let changed = '';
    let polls = 0;
    try {
      await until(
        () => ticksOf(Ticks.ticks, '005930').length > 0 && ticksOf(Ticks.ticks, '000660').length > 0,
      );
      const before = s.sim.counters().requestsByGroup.MARKET_DATA ?? 0;
      await until(() => (s.sim.counters().requestsByGroup.MARKET_DATA ?? 0) - before >= 40);
      polls = (s.sim.counters().requestsByGroup.MARKET_DATA ?? 0) - before;
      const last = Ticks.ticks.filter((t) => t.symbol === '005930').at(-1)?.price ?? new Decimal(0);
      changed = last.plus(1_000).toFixed();
      s.sim.setPrice('005930', changed);
      await until(() => Ticks.ticks.some((t) => t.symbol === '005930' && t.price.eq(changed)), 10_000);
    } finally {
      await handle.stop();
    }
    expect(polls).toBeGreaterThanOrEqual(40);
    for (const symbol of ['005930', '000660']) {
      const seen = ticksOf(Ticks.ticks, symbol);
      const repeats = seen.filter((t, i) => i > 0 && t === seen[i - 1]);
      expect(repeats, `${symbol}: ${seen.join(' | ')}`).toEqual([]);
    }
    // the changed price arrived once, as the last tick of its symbol
    const after = ticksOf(Ticks.ticks, '005930');
    expect(after.filter((t) => t.endsWith(` ${changed}`))).toHaveLength(1);
    expect(after.at(-1)?.endsWith(` ${changed}`)).toBe(true);
  }, 90_000);

  it("delivers prices, books, trades and another symbol's bars to the strategy that subscribed, and only to it", async () => {
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-subscriptions-', s.clock);
    Listens.prices = [];
    Listens.books = [];
    Listens.trades = [];
    Listens.bars = [];
    Quiet.others = 0;
    Quiet.bars = [];
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-subscriptions',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Listens }, { strategyClass: Quiet }],
      },
      { streamIntervals: { candles1m: 300, orderbook: 200, prices: 200, trades: 200 } },
    );
    try {
      await until(
        () =>
          Listens.prices.length > 0 &&
          Listens.books.length > 0 &&
          Listens.trades.length > 0 &&
          Listens.bars.some((b) => b.symbol === '000660'),
        60_000,
      );
    } finally {
      await handle.stop();
    }
    const tick = Listens.prices[0];
    expect(tick).toMatchObject({ type: 'PriceUpdated', symbol: '005930' });
    expect(tick?.price.gt(0)).toBe(true);
    const book = Listens.books[0];
    expect(book).toMatchObject({ type: 'OrderbookUpdated', symbol: '005930' });
    expect(book?.bids[0]?.price.lt(book.asks[0]?.price ?? 0)).toBe(true);
    expect(book?.bids[0]?.quantity.gt(0)).toBe(true);
    expect(Listens.trades[0]).toMatchObject({ type: 'TradePrinted', symbol: '000660' });
    expect(Listens.trades[0]?.quantity.gt(0)).toBe(true);
    expect(Quiet.others).toBe(0);
    expect(new Set(Quiet.bars)).toEqual(new Set(['005930']));
  }, 90_000);

  it('ends the subscriptions of a symbol the broker does not know, said once, and goes on with the others', async () => {
    class Mistypes extends Strategy {
      static prices: string[] = [];
      override onStart(): void {
        this.ctx.subscribePrices('ZZZZ');
        this.ctx.subscribeBars('ZZZZ');
        this.ctx.subscribePrices('005930');
      }
      override onPrice(tick: PriceTick): void {
        Mistypes.prices.push(tick.symbol);
      }
    }
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-unknown-symbol-', s.clock);
    const warnings: string[] = [];
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-unknown-symbol',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Mistypes, id: 'm' }],
      },
      {
        streamIntervals: { candles1m: 300, prices: 100 },
        onError: (e, where) => warnings.push(`${where}: ${e instanceof Error ? e.message : String(e)}`),
      },
    );
    let refusedPolls = 0;
    try {
      await until(() => warnings.length >= 2 && Mistypes.prices.length > 0, 30_000);
      const before = s.sim.counters().requestsTotal;
      // two seconds more: the prices of ZZZZ polled every 100 ms would be 20 refusals
      await new Promise((r) => setTimeout(r, 2_000));
      refusedPolls = warnings.length - 2;
      expect(s.sim.counters().requestsTotal).toBeGreaterThan(before);
    } finally {
      await handle.stop();
    }
    expect(warnings.sort()).toEqual([
      'subscriptions: strategy m subscribed to ZZZZ (ctx.subscribeBars), which the broker does not know (stock-not-found): its data will not come',
      'subscriptions: strategy m subscribed to ZZZZ (ctx.subscribePrices), which the broker does not know (stock-not-found): its data will not come',
    ]);
    expect(refusedPolls).toBe(0);
    expect(new Set(Mistypes.prices)).toEqual(new Set(['005930']));
  }, 60_000);
});

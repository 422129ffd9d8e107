/**
 * `ctx.unsubscribePrices` and `ctx.unsubscribeOrderbook` in a paper run over the simulator: the
 * strategy gets no more of the symbol's data, and the polls stop once no strategy wants it (a
 * strategy rotating through symbols would otherwise keep polling every symbol it ever watched, in
 * the market-data group's 10 requests a second), while another strategy's subscriptions go on.
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PriceTick } from '../strategy/market-events.js';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** The calls of the broker's price and book reads so far. */
const calls = { prices: [] as string[][], books: [] as string[] };

/** Watches 000660's price and book; ends both at its first price. */
class Leaves extends Strategy {
  static ticks: PriceTick[] = [];
  static books = 0;
  /** How many book reads of 000660 had been made when it unsubscribed. */
  static booksAtEnd = -1;
  override onStart(): void {
    this.ctx.subscribePrices('000660');
    this.ctx.subscribeOrderbook('000660');
  }
  override onPrice(tick: PriceTick): void {
    Leaves.ticks.push(tick);
    if (Leaves.ticks.length === 1) {
      this.ctx.unsubscribePrices('000660');
      this.ctx.unsubscribeOrderbook('000660');
      Leaves.booksAtEnd = calls.books.filter((s) => s === '000660').length;
    }
  }
  override onOrderbook(): void {
    Leaves.books++;
  }
}

/** Watches 035420's price all along. */
class Stays extends Strategy {
  static ticks: PriceTick[] = [];
  override onStart(): void {
    this.ctx.subscribePrices('035420');
  }
  override onPrice(tick: PriceTick): void {
    Stays.ticks.push(tick);
  }
}

describe('ending a subscription in a paper run', () => {
  it('stops the data for the strategy and the polls of what no strategy wants; the others go on', async () => {
    calls.prices = [];
    calls.books = [];
    Leaves.ticks = [];
    Leaves.books = 0;
    Leaves.booksAtEnd = -1;
    Stays.ticks = [];
    // 10:00 KST: KR in its regular session
    const s = await startSimulatedBroker(closers, { speed: 1 });
    const db = openTempDb(closers, 'hoga-unsubscribe-', s.clock);
    const getPrices = s.client.getPrices.bind(s.client);
    vi.spyOn(s.client, 'getPrices').mockImplementation((symbols, options) => {
      calls.prices.push([...symbols]);
      return getPrices(symbols, options);
    });
    const getOrderbook = s.client.getOrderbook.bind(s.client);
    vi.spyOn(s.client, 'getOrderbook').mockImplementation((symbol, options) => {
      calls.books.push(symbol);
      return getOrderbook(symbol, options);
    });
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'unsubscribe',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Leaves }, { strategyClass: Stays }],
      },
    );
    closers.add(() => handle.stop());
    await until(() => Leaves.booksAtEnd >= 0 && Stays.ticks.length > 0);
    // both prices move from here on, five times: each new price of 035420 must reach Stays
    for (let i = 1; i <= 5; i++) {
      const last = Stays.ticks.at(-1)?.price ?? new Decimal(0);
      const next = last.plus(1_000 * i);
      s.sim.setPrice('000660', new Decimal(200_000).plus(1_000 * i).toFixed());
      s.sim.setPrice('035420', next.toFixed());
      await until(() => Stays.ticks.some((t) => t.price.eq(next)), 20_000);
    }
    // Leaves got the one price it took, and nothing after its unsubscribe
    expect(Leaves.ticks.map((t) => t.symbol)).toEqual(['000660']);
    const booksAfter = calls.books.filter((symbol) => symbol === '000660').length - Leaves.booksAtEnd;
    // a read already under way when it ended may finish; none is started later
    expect(booksAfter).toBeLessThanOrEqual(1);
    // the last price polls read 035420 alone
    expect(calls.prices.slice(-3)).toEqual([['035420'], ['035420'], ['035420']]);
    expect(Stays.ticks.length).toBeGreaterThanOrEqual(6);
  }, 120_000);
});

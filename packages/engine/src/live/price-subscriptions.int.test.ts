/**
 * The prices strategies subscribe to in paper and live are read together: one `GET /prices` per
 * market (up to 200 symbols) for all of them, as the spec's `symbols` list allows. Before, each
 * subscribed symbol had a poll of its own, one request per symbol: 200 subscribed prices took 200
 * requests of the market-data group's 10 a second, each price refreshed about every 20 s, where
 * one request carries them all. A symbol the broker does not know among them still ends only its
 * own subscription (said once), not the prices of the others. Over the simulator on 127.0.0.1.
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PriceTick } from '../strategy/market-events.js';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

const WATCHED = ['000660', '035420', '069500', '035720', '247540', 'AAPL', 'NVDA'];

/** Subscribes to the prices of {@link WATCHED} and of an unknown symbol. */
class Watches extends Strategy {
  static ticks = new Map<string, number>();
  override onStart(): void {
    for (const symbol of WATCHED) this.ctx.subscribePrices(symbol);
    this.ctx.subscribePrices('ZZZZ');
  }
  override onPrice(tick: PriceTick): void {
    Watches.ticks.set(tick.symbol, (Watches.ticks.get(tick.symbol) ?? 0) + 1);
  }
}

describe('price subscriptions of many symbols', () => {
  it('are polled in one request per market, an unknown symbol among them ending only its own', async () => {
    // 10:00 KST: KR in its regular session, the US day market open
    const s = await startSimulatedBroker(closers, { speed: 60 });
    const db = openTempDb(closers, 'hoga-price-subs-', s.clock);
    const calls: string[][] = [];
    const getPrices = s.client.getPrices.bind(s.client);
    vi.spyOn(s.client, 'getPrices').mockImplementation((symbols, options) => {
      calls.push([...symbols]);
      return getPrices(symbols, options);
    });
    const warnings: string[] = [];
    const run = await startTestRun(
      { ...s, db },
      {
        runId: 'price-subs',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Watches }],
      },
      { onError: (e) => warnings.push(e instanceof Error ? e.message : String(e)) },
    );
    closers.add(() => run.handle.stop());
    await until(() => WATCHED.every((symbol) => (Watches.ticks.get(symbol) ?? 0) >= 2), 60_000);
    // the subscriptions' polls carry every watched symbol of their market; none is read alone
    const subscribed = calls.filter((c) => c.some((symbol) => WATCHED.includes(symbol)));
    expect(subscribed.filter((c) => c.length === 1)).toEqual([]);
    const kr = WATCHED.filter((symbol) => /^\d/.test(symbol)).sort();
    const lastKr = subscribed.filter((c) => c.includes('000660')).at(-1);
    expect(lastKr?.filter((symbol) => symbol !== '005930').sort()).toEqual(kr);
    expect(subscribed.filter((c) => c.includes('AAPL')).at(-1)).toEqual(['AAPL', 'NVDA']);
    // the unknown symbol: said once, its own subscription ended
    expect(warnings.filter((w) => w.includes('ZZZZ'))).toHaveLength(1);
    expect(warnings.filter((w) => !w.includes('ZZZZ'))).toEqual([]);
  }, 90_000);
});

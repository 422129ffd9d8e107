/**
 * Paper fills an order only against a book the broker made after the order was placed. Before, a
 * book poll sent before the order and answered after it (a slow network, a broker under load) was
 * matched against it as if new: a market buy placed at 23:31:00 filled at the ask of 23:30:00,
 * a price the market no longer offered.
 */
import { Decimal, type Fill } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** 09:30 New York: the US regular session has just opened. */
const US_OPEN = '2026-11-23T23:30:00+09:00';

/**
 * On start, a buy limit of AAPL far below the market (it keeps paper polling AAPL's book) and a
 * subscription to AAPL's price; once `go` is set, a market buy of 1 AAPL on the next price.
 */
class LateBuy extends Strategy {
  static rest = new Decimal(0);
  static go = false;
  static placedAt: number | null = null;
  static fills: Fill[] = [];
  override onStart(): void {
    this.ctx.subscribePrices('AAPL');
    this.ctx.buy('AAPL', 1, LateBuy.rest);
  }
  override onPrice(): void {
    if (!LateBuy.go || LateBuy.placedAt !== null) return;
    LateBuy.placedAt = this.ctx.clock.nowMs();
    this.ctx.buy('AAPL', 1);
  }
  override onFill(fill: Fill): void {
    LateBuy.fills.push(fill);
  }
}

describe('paper mode and a book answered late', () => {
  it('fills a market buy at the ask of a book made after it, not of one polled before it', async () => {
    const s = await startSimulatedBroker(closers, { start: US_OPEN, speed: 0 });
    const before = await s.client.getOrderbook('AAPL');
    const bid = before.bids[0]?.price;
    if (bid === undefined) throw new Error('AAPL book has no bid');
    LateBuy.rest = bid.div(2).toDecimalPlaces(2, Decimal.ROUND_DOWN);
    LateBuy.go = false;
    LateBuy.placedAt = null;
    LateBuy.fills = [];
    const db = openTempDb(closers, 'hoga-paper-book-age-', s.clock);
    const { handle, events } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'paper-book-age',
        mode: 'paper',
        symbols: ['AAPL'],
        cashKrw: new Decimal(0),
        cashUsd: new Decimal(10_000),
        strategies: [{ strategyClass: LateBuy }],
      },
      { pollIntervalMs: 200, streamIntervals: { orderbook: 100, prices: 100 } },
    );
    closers.add(() => handle.stop());
    await until(() => events.some((e) => e.type === 'OrderAccepted'), 20_000);
    const polls = s.sim.counters().requestsByGroup.MARKET_DATA ?? 0;
    await until(() => (s.sim.counters().requestsByGroup.MARKET_DATA ?? 0) >= polls + 4, 20_000);

    // the next book is made now, at 23:30:00, and its answer held back 3 s; meanwhile both clocks
    // move on ten minutes and the strategy places its market buy on the price of 23:40:00
    s.sim.injectFault({
      kind: 'delay-after-commit',
      path: '/api/v1/orderbook',
      method: 'GET',
      delayMs: 3_000,
      count: 1,
    });
    await until(() => s.sim.control.faults().length === 0, 20_000);
    s.sim.advanceClock(600_000);
    s.clock.advance(600_000);
    LateBuy.go = true;
    await until(() => LateBuy.fills.length > 0, 30_000);

    // the book of 23:40:00 (both clocks stand still): what the broker offered the buy
    const after = await s.client.getOrderbook('AAPL');
    const staleAsk = before.asks[0]?.price.toFixed();
    const ask = after.asks[0]?.price.toFixed();
    // the test means something only if the ask moved in those minutes
    expect(ask).not.toBe(staleAsk);
    expect(LateBuy.placedAt).toBe(after.timestamp.toMillis());
    const fill = LateBuy.fills[0];
    expect(fill?.quantity.toFixed()).toBe('1');
    // before: the ask of 23:30:00
    expect(fill?.price.toFixed()).toBe(ask);
  }, 60_000);
});

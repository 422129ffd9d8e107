/**
 * Paper takes a book level's volume once, as the simulator does: over a simulator whose clock
 * stands still (one book, polled again and again), a market buy that takes the two best ask levels
 * of ZOM and a buy limit at the second level's price, placed together, fill those two levels once
 * between them; the limit gets nothing, on the first poll or on any later one, and the same two
 * orders sent to the broker fill the same. Before, the limit filled from the levels the market
 * order had taken, and again on every poll of the unchanged book.
 */
import { Decimal, type Fill } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** 09:30 New York: the US regular session has just opened. */
const US_OPEN = '2026-11-23T23:30:00+09:00';

/** On start, a market buy of `market` ZOM and a buy limit of `limit` ZOM at `price`. */
class TwoBuys extends Strategy {
  static market = new Decimal(0);
  static limit = new Decimal(0);
  static price = new Decimal(0);
  static fills: Fill[] = [];
  override onStart(): void {
    this.ctx.buy('ZOM', TwoBuys.market);
    this.ctx.buy('ZOM', TwoBuys.limit, TwoBuys.price);
  }
  override onFill(fill: Fill): void {
    TwoBuys.fills.push(fill);
  }
}

const sum = (fills: readonly Fill[]) => fills.reduce((s, f) => s.plus(f.quantity), new Decimal(0));

describe('paper mode and book liquidity', () => {
  it('fills each level of an unchanged book once across orders and polls, as the broker does', async () => {
    const s = await startSimulatedBroker(closers, { start: US_OPEN, speed: 0 });
    const book = await s.client.getOrderbook('ZOM');
    const [l0, l1] = book.asks;
    if (l0 === undefined || l1 === undefined) throw new Error('ZOM book has fewer than two ask levels');
    TwoBuys.market = l0.volume.plus(l1.volume);
    TwoBuys.limit = TwoBuys.market.times(3);
    TwoBuys.price = l1.price;
    TwoBuys.fills = [];
    const db = openTempDb(closers, 'hoga-paper-liquidity-', s.clock);
    const { handle, events } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'paper-liquidity',
        mode: 'paper',
        symbols: ['ZOM'],
        cashKrw: new Decimal(0),
        cashUsd: new Decimal(10_000),
        strategies: [{ strategyClass: TwoBuys }],
      },
      { pollIntervalMs: 200, streamIntervals: { orderbook: 100 } },
    );
    closers.add(() => handle.stop());
    await until(() => events.some((e) => e.type === 'OrderFilled'), 20_000);
    const [market, limit] = [
      ...new Set(events.filter((e) => e.type === 'OrderSubmitted').map((e) => e.clientOrderId)),
    ];
    // a dozen more polls of the same book (the polling stops if the limit fills in full)
    const polls = s.sim.counters().requestsByGroup.MARKET_DATA ?? 0;
    await until(
      () =>
        (s.sim.counters().requestsByGroup.MARKET_DATA ?? 0) >= polls + 12 ||
        events.some((e) => e.type === 'OrderFilled' && e.clientOrderId === limit),
      20_000,
    );
    const paperMarket = TwoBuys.fills.filter((f) => f.clientOrderId === market);
    const paperLimit = TwoBuys.fills.filter((f) => f.clientOrderId === limit);
    expect(sum(paperMarket).toFixed()).toBe(TwoBuys.market.toFixed());
    expect(paperLimit.map((f) => `${f.quantity.toFixed()} @ ${f.price.toFixed()}`)).toEqual([]);
    expect(s.sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);

    // the broker, the same two orders at the same instant
    const direct = await s.client.createOrder({
      symbol: 'ZOM',
      side: 'BUY',
      orderType: 'MARKET',
      quantity: TwoBuys.market,
    });
    const resting = await s.client.createOrder({
      symbol: 'ZOM',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: TwoBuys.limit,
      price: TwoBuys.price,
    });
    const brokerMarket = await s.client.getOrder(direct.orderId);
    const brokerLimit = await s.client.getOrder(resting.orderId);
    expect(brokerMarket.execution.filledQuantity.toFixed()).toBe(sum(paperMarket).toFixed());
    expect(brokerLimit.execution.filledQuantity.toFixed()).toBe(sum(paperLimit).toFixed());
  }, 60_000);
});

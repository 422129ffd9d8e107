/**
 * Paper trades a working order after the regular close only where the broker does (the simulator
 * matches a market order, and any order of a KR stock the alternative exchange does not trade, in
 * `regularMarket` alone: `matching-engine.ts`): an order still working at the close (bigger than
 * the books can fill before it) fills nothing in the after-market, whose books paper keeps polling.
 * Over the simulator on 127.0.0.1 (its clock at ×4 from 20 s before the close), paper runs with the
 * risk module off: a market buy of a US penny stock (ZOM), a marketable limit buy of a KR ETF not
 * on the alternative exchange (069500), and the same at the close of a special session the
 * broker's calendar declares (15:00 KST), which paper follows as the broker does.
 */
import { Decimal, type Fill } from '@hoga/core';
import type { SimulatorOptions } from '@hoga/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** The buy {@link BigBuy} places: a symbol, its size, its limit (none: at market), when (engine ms). */
interface Buy {
  readonly symbol: string;
  readonly quantity: Decimal;
  readonly price: Decimal | undefined;
  readonly at: number;
}

/** Places {@link BigBuy.buy} at its time (a timer), and notes its fills. */
class BigBuy extends Strategy {
  static buy: Buy;
  static fills: Fill[] = [];
  override onStart(): void {
    this.ctx.setTimer('buy', { at: BigBuy.buy.at });
  }
  override onTimer(): void {
    const { symbol, quantity, price } = BigBuy.buy;
    this.ctx.submit({
      symbol,
      side: 'BUY',
      quantity,
      ...(price === undefined ? {} : { price }),
      confirmHighValue: true,
    });
  }
  override onFill(fill: Fill): void {
    BigBuy.fills.push(fill);
  }
}

/**
 * Runs paper from 20 s before `close` (ISO, with offset) with a buy of `symbol` placed `lead` ms
 * before it: `books` of the visible asks' volume, at market or at a limit `ticks` above the best
 * ask; answers the buy and its fills once the clock is 20 s past the close.
 */
async function buyAtTheClose(
  symbol: string,
  close: string,
  o: {
    readonly lead: number;
    readonly books: number;
    readonly limitAboveAsk?: Decimal;
    readonly calendar?: SimulatorOptions['calendar'];
  },
): Promise<{ buy: Buy; fills: Fill[]; closeMs: number }> {
  const closeMs = Date.parse(close);
  const s = await startSimulatedBroker(closers, {
    start: new Date(closeMs - 20_000).toISOString(),
    speed: 4,
    ...(o.calendar === undefined ? {} : { calendar: o.calendar }),
  });
  const book = await s.client.getOrderbook(symbol);
  const visible = book.asks.reduce((sum, l) => sum.plus(l.volume), new Decimal(0));
  const ask = book.asks[0]?.price;
  const price = o.limitAboveAsk === undefined || ask === undefined ? undefined : ask.plus(o.limitAboveAsk);
  // under the broker's 3,000,000,000 KRW an order (KR: at its limit)
  const most = price === undefined ? visible.times(o.books) : new Decimal(2_900_000_000).dividedBy(price);
  BigBuy.buy = {
    symbol,
    quantity: Decimal.min(visible.times(o.books), most).floor(),
    price,
    at: closeMs - o.lead,
  };
  BigBuy.fills = [];
  const db = openTempDb(closers, 'hoga-paper-after-close-', s.clock);
  const { handle } = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: 'paper-after-close',
      mode: 'paper',
      symbols: [symbol],
      cashKrw: new Decimal(10_000_000_000),
      cashUsd: new Decimal(1_000_000),
      strategies: [{ strategyClass: BigBuy }],
    },
    { pollIntervalMs: 200, streamIntervals: { orderbook: 100 }, risk: { enabled: false } },
  );
  closers.add(() => handle.stop());
  // twenty simulated seconds past the close (the after-market's books polled meanwhile)
  await until(() => s.clock.nowMs() > closeMs + 20_000, 40_000);
  expect(s.sim.counters().ordersCreated).toBe(0);
  return { buy: BigBuy.buy, fills: BigBuy.fills, closeMs };
}

/** The fills after the close (none expected), then that the buy traded before it and was still working. */
function expectStoppedAtTheClose({ buy, fills, closeMs }: Awaited<ReturnType<typeof buyAtTheClose>>): void {
  if (process.env.DBG)
    console.log(
      buy.symbol,
      buy.quantity.toFixed(),
      buy.price?.toFixed(),
      fills.map((f) => `${f.quantity} ${f.price} ${new Date(f.tsEvent).toISOString()}`).join('; '),
    );
  // before: the rest filled poll after poll against the after-market's books
  const after = fills.filter((f) => f.tsEvent > closeMs);
  expect(after.map((f) => `${f.quantity} at ${new Date(f.tsEvent).toISOString()}`)).toEqual([]);
  const filled = fills.reduce((sum, f) => sum.plus(f.quantity), new Decimal(0));
  expect(filled.gt(0)).toBe(true);
  expect(filled.lt(buy.quantity)).toBe(true);
}

/**
 * Three 069500 books' worth, or what 2,900,000,000 KRW buys, 2 s before the close, its limit 100 won
 * above the best ask.
 */
const KR_BUY = { lead: 2_000, books: 3, limitAboveAsk: new Decimal(100) } as const;

describe('a paper order working at the close', () => {
  it('fills nothing in the after-market when it is a market order, as the broker', async () => {
    // fifty ZOM books' worth, placed 16 s before 16:00 New York
    const run = await buyAtTheClose('ZOM', '2026-11-23T16:00:00-05:00', { lead: 16_000, books: 50 });
    expectStoppedAtTheClose(run);
  }, 60_000);

  it('fills nothing in the after-market when its KR stock is not on the alternative exchange, as the broker', async () => {
    const run = await buyAtTheClose('069500', '2026-11-23T15:30:00+09:00', KR_BUY);
    expectStoppedAtTheClose(run);
  }, 60_000);

  it("stops at the close of a special session the broker's calendar declares, as the broker", async () => {
    // the broker closes the KR regular session at 15:00 that Monday (the broker model's table: 15:30);
    const run = await buyAtTheClose('069500', '2026-11-23T15:00:00+09:00', {
      ...KR_BUY,
      calendar: { specialSessions: [{ market: 'KR', date: '2026-11-23', open: '09:00', close: '15:00' }] },
    });
    expectStoppedAtTheClose(run);
  }, 60_000);
});

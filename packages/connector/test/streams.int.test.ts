import { Decimal, newClientOrderId, type OrderEvent } from '@hoga/core';
import { firstValueFrom, type Observable, type Subscription, take, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerStreams, type CandleUpdate, type TradeBatch } from '../src/index.js';
import { type SimFixture, startFixture } from './simulator-fixture.js';

let fx: SimFixture;
let streams: BrokerStreams;
const pollErrors: unknown[] = [];

const FAST = { candles1m: 200, candles1d: 500, exchangeRate: 500, calendar: 1000, orders: 100 };

beforeAll(async () => {
  fx = await startFixture({ speed: 60, rateLimit: true });
  streams = new BrokerStreams(fx.client, { intervals: FAST, onError: (e) => pollErrors.push(e) });
});
afterAll(async () => {
  await fx.close();
});

/** Collects a stream's values for `ms`, then unsubscribes. */
function collect<T>(stream: Observable<T>, ms: number): Promise<T[]> {
  const values: T[] = [];
  const sub = stream.subscribe((v) => values.push(v));
  return new Promise((resolve) =>
    setTimeout(() => {
      sub.unsubscribe();
      resolve(values);
    }, ms),
  );
}

/**
 * Collects a stream's values until `enough` holds for them (or `ms` pass), then unsubscribes: a
 * count of polls, not a length of real time (on a loaded machine a poll can take a second or more).
 */
function collectUntil<T>(stream: Observable<T>, enough: (values: T[]) => boolean, ms = 30_000): Promise<T[]> {
  const values: T[] = [];
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sub.unsubscribe();
      resolve(values);
    };
    const timer = setTimeout(done, ms);
    const sub = stream.subscribe((v) => {
      values.push(v);
      if (enough(values)) queueMicrotask(done);
    });
  });
}

/** Waits until `predicate` holds for the events collected so far. */
async function until(
  events: OrderEvent[],
  predicate: (events: OrderEvent[]) => boolean,
  ms = 8000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate(events) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

describe('BrokerStreams', () => {
  describe('.prices$', () => {
    it('polls all symbols in one batch and shares one poller between subscribers', async () => {
      const stream = streams.prices$(['005930', '000660', '035420']);
      const second = streams.prices$(['035420', '005930', '000660']);
      expect(second).toBe(stream);
      const other: Subscription = second.subscribe();
      const [first] = await firstValueFrom(stream.pipe(take(1), toArray()));
      expect(first!.map((p) => p.symbol).sort()).toEqual(['000660', '005930', '035420']);
      expect(streams.polls.activity().jobs).toBe(1);
      other.unsubscribe();
    });
  });

  describe('.orderbook$', () => {
    it('emits refreshed books with asks above bids', async () => {
      // before: the books of 1.2 s, of which 3 were expected (too few polls on a loaded machine)
      const books = await collectUntil(streams.orderbook$('005930'), (b) => b.length >= 3);
      expect(books.length).toBeGreaterThanOrEqual(3);
      for (const book of books) expect(book.asks[0]!.price.gte(book.bids[0]!.price)).toBe(true);
      expect(books.at(-1)!.timestamp > books[0]!.timestamp).toBe(true);
    });
  });

  describe('.trades$', () => {
    it('emits each trade once across overlapping polls, none listed by the first poll', async () => {
      // until a few trades came: only those printed after the first poll do (a count, not a time)
      const batches: TradeBatch[] = await collectUntil(
        streams.trades$('005930'),
        (bs) => bs.flatMap((b) => b.trades).length >= 5,
      );
      const trades = batches.flatMap((b) => b.trades);
      expect(trades.length).toBeGreaterThan(0);
      for (let i = 1; i < trades.length; i++) {
        expect(trades[i]!.timestamp.toMillis()).toBeGreaterThanOrEqual(trades[i - 1]!.timestamp.toMillis());
      }
      const keys = trades.map((t) => `${t.timestamp.toMillis()}|${t.price}|${t.volume}`);
      expect(new Set(keys).size).toBe(keys.length);
    });
  });

  describe('.candles$', () => {
    it('emits each completed 1m candle once and marks the one in progress', async () => {
      // before: the updates of 3.5 s (3.5 simulated minutes), of which 2 completed candles were
      // expected; now until 2 have completed and one in progress after them is seen
      const updates: CandleUpdate[] = await collectUntil(streams.candles$('005930', '1m'), (us) => {
        const done = us.filter((u) => u.complete);
        const first = done[0]?.candle.timestamp.toMillis() ?? Number.POSITIVE_INFINITY;
        return done.length >= 2 && us.some((u) => !u.complete && u.candle.timestamp.toMillis() > first);
      });
      const completed = updates.filter((u) => u.complete).map((u) => u.candle.timestamp.toMillis());
      expect(completed.length).toBeGreaterThanOrEqual(2);
      expect(new Set(completed).size).toBe(completed.length);
      for (let i = 1; i < completed.length; i++) expect(completed[i]! - completed[i - 1]!).toBe(60_000);
      const live = updates.filter((u) => !u.complete);
      expect(live.length).toBeGreaterThan(0);
      for (const u of live) expect(u.candle.timestamp.toMillis()).toBeGreaterThan(completed[0]!);
    });
  });

  describe('.exchangeRate$', () => {
    it('emits the current rate', async () => {
      const rate = await firstValueFrom(streams.exchangeRate$());
      expect(rate.rate.gt(0)).toBe(true);
    });
  });

  describe('.calendar$', () => {
    it('emits the KR calendar around today', async () => {
      const calendar = await firstValueFrom(streams.calendar$('KR'));
      expect(calendar.today.integrated).not.toBeNull();
    });
  });

  describe('.orderUpdates$', () => {
    it('reports acceptance and every fill of a marketable order placed with a clientOrderId', async () => {
      const events: OrderEvent[] = [];
      const sub = streams.orderUpdates$().subscribe((e) => events.push(e));
      await new Promise((r) => setTimeout(r, 400));
      const book = await fx.client.getOrderbook('000660');
      const clientOrderId = newClientOrderId('fill');
      const quantity = new Decimal(3);
      await fx.client.createOrder({
        symbol: '000660',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity,
        price: book.asks[0]!.price,
        clientOrderId,
      });
      await until(events, (es) => es.some((e) => e.type === 'OrderFilled'));
      sub.unsubscribe();
      const mine = events.filter((e) => e.clientOrderId === clientOrderId);
      expect(mine[0]!.type).toBe('OrderAccepted');
      const fills = mine.flatMap((e) =>
        e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled' ? [e.fill] : [],
      );
      expect(fills.reduce((sum, f) => sum.plus(f.quantity), new Decimal(0)).eq(quantity)).toBe(true);
      expect(mine.at(-1)!.type).toBe('OrderFilled');
      for (const fill of fills) expect(fill.price.lte(book.asks[0]!.price.times(1.05))).toBe(true);
    });

    it('reports a modification and a cancel of resting orders', async () => {
      const events: OrderEvent[] = [];
      const sub = streams.orderUpdates$().subscribe((e) => events.push(e));
      await new Promise((r) => setTimeout(r, 400));
      const book = await fx.client.getOrderbook('035420');
      const low = book.bids.at(-1)!.price;
      const clientOrderId = newClientOrderId('rest');
      const created = await fx.client.createOrder({
        symbol: '035420',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: new Decimal(2),
        price: low,
        clientOrderId,
      });
      await until(events, (es) =>
        es.some((e) => e.type === 'OrderAccepted' && e.clientOrderId === clientOrderId),
      );
      const modified = await fx.client.modifyOrder(created.orderId, {
        orderType: 'LIMIT',
        price: low,
        quantity: new Decimal(1),
      });
      await until(events, (es) => es.some((e) => e.type === 'OrderModified'));
      if (modified.kind !== 'acknowledged') throw new Error('modify not acknowledged');
      await fx.client.cancelOrder(modified.orderId);
      await until(events, (es) => es.some((e) => e.type === 'OrderCanceled'));
      sub.unsubscribe();
      const types = events.filter((e) => e.clientOrderId === clientOrderId).map((e) => e.type);
      expect(types).toEqual(['OrderAccepted', 'OrderModified', 'OrderCanceled']);
    });
  });

  it('leaves no job, timer or request behind once every subscription ended', async () => {
    await new Promise((r) => setTimeout(r, 50));
    expect({
      activity: streams.polls.activity(),
      rateLimited: fx.sim.counters().rateLimited,
      rateLimitedByGroup: fx.client.executor.stats.rateLimitedByGroup,
      errors: pollErrors.map(String),
    }).toEqual({
      activity: { jobs: 0, timers: 0, inFlight: 0 },
      rateLimited: 0,
      rateLimitedByGroup: {},
      errors: [],
    });
  });
});

describe('BrokerStreams.dispose', () => {
  it('completes every stream and stops polling', async () => {
    const own = new BrokerStreams(fx.client, { intervals: FAST });
    let completed = 0;
    own.orderbook$('005930').subscribe({ complete: () => completed++ });
    own.prices$(['005930']).subscribe({ complete: () => completed++ });
    await new Promise((r) => setTimeout(r, 300));
    own.dispose();
    expect(completed).toBe(2);
    expect(own.polls.activity()).toEqual({ jobs: 0, timers: 0, inFlight: 0 });
    let late = false;
    own.orderbook$('005930').subscribe({ complete: () => (late = true) });
    expect(late).toBe(true);
  });
});

describe('BrokerStreams while the market is closed', () => {
  it('polls no KR market data on a Sunday unless asked', async () => {
    const closed = await startFixture({ start: '2026-11-22T12:00:00.000+09:00', rateLimit: true });
    try {
      const quiet = new BrokerStreams(closed.client, { intervals: FAST });
      expect(await collect(quiet.orderbook$('005930'), 800)).toEqual([]);
      expect(closed.sim.counters().requestsByGroup.MARKET_DATA ?? 0).toBe(0);
      const eager = new BrokerStreams(closed.client, { intervals: FAST, pollClosedMarkets: true });
      // asked, it polls: its first book comes (before: the books of 0.8 s were expected to hold
      // one; on a loaded machine none had come by then)
      expect((await collectUntil(eager.orderbook$('005930'), (b) => b.length > 0)).length).toBeGreaterThan(0);
    } finally {
      await closed.close();
    }
  });
});

/**
 * A paper run of many symbols against the simulator over real HTTP (its rate limits enforced, its
 * clock running ×60): the risk gate's background reads of every symbol's market data keep the
 * STOCK and MARKET_DATA groups' queues long. An order's own reads (placed on a bar) must go ahead
 * of them, and `stop()` must abort the queued background reads and not deliver the bars still
 * queued, so it ends after what is in flight. And the order books polled are those of the symbols
 * with working orders only, so a market order fills after a few market-data requests, not after
 * a round of every symbol's book. Measured in requests granted by the client's rate limiter, not
 * in time.
 */
import type { BrokerClient } from '@hoga/connector';
import { type Bar, Decimal, RateLimitGroup } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const SPEED = 60;
const EXTRA = 44;
const SYMBOLS = [
  '005930',
  '000660',
  '035420',
  '069500',
  '035720',
  '247540',
  ...Array.from({ length: EXTRA }, (_, i) => String(400_001 + i)),
];
/** The groups of the risk gate's market reads (stock info and warnings; prices and price limits). */
const GROUPS = [RateLimitGroup.STOCK, RateLimitGroup.MARKET_DATA] as const;
/**
 * Requests of those groups granted between an order's bar and its first event: its own reads
 * (instrument and warnings, price, price limits) and what was already in flight or granted in the
 * same instants, never the queue of background reads.
 */
const ORDER_BOUND = 20;
/** Requests of any group granted while `stop()` runs: what was in flight and the bar being handled. */
const STOP_BOUND = 12;

let client: BrokerClient;
const granted = (): number => {
  const counts = client.limiter.grantedCounts();
  return GROUPS.reduce((sum, g) => sum + (counts[g] ?? 0), 0);
};
const queued = (): number => GROUPS.reduce((sum, g) => sum + client.limiter.queueLength(g), 0);
const allGranted = (): number =>
  Object.values(client.limiter.grantedCounts()).reduce((sum, n) => sum + (n ?? 0), 0);

interface Placed {
  readonly grantedAt: number;
  readonly queuedAt: number;
}
const placed = new Map<string, Placed>();
/** Per answered order: requests granted while it waited, and the background queue it found. */
const answered: { granted: number; queued: number }[] = [];

/** A limit buy of one share 10% below the close on every bar (it rests, or the risk gate denies it). */
class BuyEveryBar extends Strategy {
  override onBar(bar: Bar): void {
    const at = { grantedAt: granted(), queuedAt: queued() };
    const id = this.ctx.buy(bar.symbol, 1, Math.floor((bar.close * 0.9) / 100) * 100);
    placed.set(id, at);
  }
}

const closers = new Closers();
afterEach(() => closers.closeAll());

/** The simulator at ×60 with its rate limits and the extra symbols, its client as `client`, a store. */
async function rateLimitedBroker(prefix: string) {
  const broker = await startSimulatedBroker(closers, { speed: SPEED, rateLimit: true, extraSymbols: EXTRA });
  client = broker.client;
  return { broker, db: openTempDb(closers, prefix, broker.clock) };
}

describe('a paper run of many symbols under the rate limits', () => {
  it("answers an order's reads ahead of the background reads, and stops after what is in flight", async () => {
    const { broker, db } = await rateLimitedBroker('hoga-stop-');

    const { handle } = await startTestRun(
      { client, clock: broker.clock, db },
      {
        runId: 't-stop',
        mode: 'paper',
        symbols: SYMBOLS,
        cashKrw: new Decimal(1_000_000_000),
        strategies: [{ strategyClass: BuyEveryBar }],
      },
      {
        // the background refresh every second: its reads are nearly always queued
        risk: { accountInfoMaxAgeMs: 1_000 },
        streamIntervals: { candles1m: 300, orderbook: 200 },
        onEvent: (e) => {
          const at = placed.get(e.clientOrderId);
          if (at === undefined) return;
          placed.delete(e.clientOrderId);
          answered.push({ granted: granted() - at.grantedAt, queued: at.queuedAt });
        },
      },
    );
    let stopped = false;
    closers.add(async () => {
      if (!stopped) await handle.stop();
    });

    // orders placed while many background reads were queued, and more bars waiting behind them
    await until(() => answered.filter((a) => a.queued >= ORDER_BOUND).length >= 5, 90_000);
    const contended = answered.filter((a) => a.queued >= ORDER_BOUND);
    expect(contended.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...answered.map((a) => a.granted))).toBeLessThanOrEqual(ORDER_BOUND);

    expect(queued()).toBeGreaterThan(0);
    const before = allGranted();
    const barsBefore = handle.status().bars;
    await handle.stop();
    stopped = true;
    expect(allGranted() - before).toBeLessThanOrEqual(STOP_BOUND);
    // no background read is left waiting for a token, and at most the bar in hand was delivered
    expect(queued()).toBe(0);
    expect(handle.status().bars - barsBefore).toBeLessThanOrEqual(1);
  }, 150_000);

  it('polls the order book of a symbol with a working order only: a market buy among 50 symbols fills after a few requests', async () => {
    const { broker, db } = await rateLimitedBroker('hoga-books-');
    const LAST = SYMBOLS[SYMBOLS.length - 1] as string;
    const marketData = () => client.limiter.grantedCounts()[RateLimitGroup.MARKET_DATA] ?? 0;
    let atOrder = -1;
    class BuyOnStart extends Strategy {
      override onStart(): void {
        atOrder = marketData();
        this.ctx.buy(LAST, 1);
      }
    }
    const booked = new Set<string>();
    let atFill = -1;
    const { handle } = await startTestRun(
      { client, clock: broker.clock, db },
      {
        runId: 't-books',
        mode: 'paper',
        symbols: SYMBOLS,
        cashKrw: new Decimal(1_000_000_000),
        strategies: [{ strategyClass: BuyOnStart }],
      },
      {
        streamIntervals: { candles1m: 300, orderbook: 200 },
        onBook: (symbol) => booked.add(symbol),
        onEvent: (e) => {
          if (e.type === 'OrderFilled') atFill = marketData();
        },
      },
    );
    closers.add(() => handle.stop());
    await until(() => atFill >= 0, 60_000);
    // the order's own reads (its price, its price limits) and a book or two of its symbol, not a
    // round of 50 books (before: every symbol's book polled from the start, the last one's last)
    expect(atFill - atOrder).toBeLessThanOrEqual(8);
    expect([...booked]).toEqual([LAST]);
  }, 90_000);
});

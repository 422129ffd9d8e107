/**
 * `ctx.account` in a live run counts each fill of the run once, from `onFill` on and at every later
 * look: never twice, never not at all. Before, the account booked a fill on top of the broker's
 * holdings and cash it last read, though that read could already hold it: (1) a resting limit buy
 * holds its cash back at the broker, so a read taken while it rested already had its cash out of
 * the buying power, and the fill took it out again (cash low by the order's cost until the next
 * read); (2) a read taken after the broker filled an order but before the engine's poll reported it
 * already held the fill, and the report booked it again (the holding up by the fill's quantity
 * twice). Over the simulator (HTTP) and a real SQLite file.
 */
import type { BrokerClient } from '@hoga/connector';
import { type Bar, Decimal, type Fill } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/**
 * Real ms between the account's reads in the tests that wait for one (a run's default, 10 s, was
 * most of their time): a read is still taken only once a later order poll confirmed it.
 */
const REFRESH_MS = 2_000;

/**
 * Places limit buys of 2 005930 at 97% and (with `Watcher.second`) 94% of the first bar's close,
 * and records the account (`tag cash held`) at each fill and, once a fill came, every 200 ms.
 */
class Watcher extends Strategy {
  static second = false;
  static seen: string[] = [];
  static fills: Fill[] = [];
  static prices: number[] = [];
  private placed = false;
  private show(tag: string): void {
    const held = this.ctx.account
      .holdings()
      .find((h) => h.symbol === '005930')
      ?.quantity.toFixed();
    Watcher.seen.push(`${tag} ${this.ctx.account.cash('KRW').toFixed()} ${held}`);
  }
  override onStart(): void {
    this.ctx.setTimer('look', { every: 200 });
  }
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    const at = (f: number): number => Math.floor((bar.close * f) / 100) * 100;
    Watcher.prices = Watcher.second ? [at(0.97), at(0.94)] : [at(0.97)];
    for (const p of Watcher.prices) this.ctx.buy('005930', 2, p);
  }
  override onFill(fill: Fill): void {
    Watcher.fills.push(fill);
    this.show(`fill${Watcher.fills.length}`);
  }
  override onTimer(): void {
    if (Watcher.fills.length > 0) this.show(`tick${Watcher.fills.length}`);
  }
}

function reset(second: boolean): void {
  Watcher.second = second;
  Watcher.seen = [];
  Watcher.fills = [];
  Watcher.prices = [];
}

/** Calls of a client's method, counted as they begin and end. */
interface Calls {
  /** How many have begun so far. */
  begun(): number;
  /** Waits until a call numbered above `mark` (begun after `begun()` said `mark`) has answered. */
  endedAfter(mark: number, timeoutMs: number): Promise<void>;
}

/** Counts the calls of `client[method]` whose arguments `counts` (all by default). */
function callsOf<K extends 'getHoldings' | 'getBuyingPower' | 'listOrders'>(
  client: Record<K, (...args: never[]) => Promise<unknown>>,
  method: K,
  counts: (...args: never[]) => boolean = () => true,
): Calls {
  let begun = 0;
  let lastEnded = 0;
  const original = client[method].bind(client);
  client[method] = (async (...args: never[]) => {
    if (!counts(...args)) return original(...args);
    const n = ++begun;
    const r = await original(...args);
    lastEnded = Math.max(lastEnded, n);
    return r;
  }) as (typeof client)[K];
  return {
    begun: () => begun,
    endedAfter: (mark, timeoutMs) => until(() => lastEnded > mark, timeoutMs),
  };
}

/**
 * The account's reads of `reads` and the run's order polls (each begins with a list of the open
 * orders): `oneTaken` waits until a read begun after it was called has answered and a poll begun
 * after that has ended (the read is taken then: see broker-account.ts), with a generous timeout.
 */
function accountReads(client: BrokerClient, reads: 'getHoldings' | 'getBuyingPower') {
  const read = callsOf(client, reads);
  const polls = callsOf(client, 'listOrders', ((q?: { status?: string }) => q?.status === 'OPEN') as never);
  return {
    async oneTaken(): Promise<void> {
      await read.endedAfter(read.begun(), 60_000);
      // the first poll begun after the read ended, then the next one's begun and ended: the first's
      // end (and what it confirms) came before
      await polls.endedAfter(polls.begun() + 1, 60_000);
    },
  };
}

/** The account as the broker says it now (`cash held`). */
async function brokerSays(client: {
  getBuyingPower(c: 'KRW'): Promise<{ cashBuyingPower: Decimal }>;
  getHoldings(): Promise<{ items: readonly { symbol: string; quantity: Decimal }[] }>;
}): Promise<string> {
  const cash = (await client.getBuyingPower('KRW')).cashBuyingPower.toFixed();
  const held = (await client.getHoldings()).items.find((h) => h.symbol === '005930')?.quantity.toFixed();
  return `${cash} ${held}`;
}

describe('ctx.account counts each fill of a live run once', () => {
  it('a resting buy read by the account before it fills: its cash is not taken twice', async () => {
    reset(false);
    const s = await startSimulatedBroker(closers, { speed: 1, control: true, rateLimit: false });
    const db = openTempDb(closers, 'hoga-account-exact-', s.clock);
    // the account's reads of the holdings (the run's client is this one)
    const reads = accountReads(s.client, 'getHoldings');
    const { handle, events } = await startTestRun(
      { ...s, db },
      {
        runId: 'exact-1',
        mode: 'live',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Watcher }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300 }, accountRefreshMs: REFRESH_MS },
    );
    closers.add(() => handle.stop());
    await until(() => events.some((e) => e.type === 'OrderAccepted'), 60_000);
    // a read of the account while the buy rests (every 2 s here): one begun after the order rested
    await reads.oneTaken();
    s.sim.setPrice('005930', String((Watcher.prices[0] as number) - 500));
    await until(() => Watcher.fills.length === 1, 60_000);
    // the account's read after the fill, and a few looks more
    await reads.oneTaken();
    const n = Watcher.seen.length;
    await until(() => Watcher.seen.length > n + 3, 30_000);
    const truth = await brokerSays(s.client);
    expect(truth).toMatch(/ 102$/);
    expect({ truth, wrong: Watcher.seen.filter((x) => !x.endsWith(truth)) }).toEqual({ truth, wrong: [] });
  }, 180_000);

  it('a fill the account read before the poll reported it is not counted twice', async () => {
    reset(true);
    const s = await startSimulatedBroker(closers, { speed: 1, control: true, rateLimit: false });
    const db = openTempDb(closers, 'hoga-account-exact-', s.clock);
    let filled = 0;
    const { handle } = await startTestRun(
      { ...s, db },
      {
        runId: 'exact-2',
        mode: 'live',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Watcher }],
      },
      {
        // a slow poll: the account's read a second after the first fill comes before it
        pollIntervalMs: 3_000,
        streamIntervals: { candles1m: 300 },
        onEvent: (e) => {
          if (e.type !== 'OrderFilled') return;
          filled++;
          // the second buy fills at the broker as soon as the first one is reported
          if (filled === 1) s.sim.setPrice('005930', String((Watcher.prices[1] as number) - 500));
        },
      },
    );
    closers.add(() => handle.stop());
    await until(() => Watcher.prices.length === 2, 60_000);
    const openOrders = async (): Promise<number> =>
      (await s.client.listOrders({ status: 'OPEN' })).orders.length;
    for (let i = 0; i < 600 && (await openOrders()) < 2; i++) await new Promise((r) => setTimeout(r, 100));
    s.sim.setPrice('005930', String((Watcher.prices[0] as number) - 500));
    await until(() => Watcher.fills.length === 2, 90_000);
    const n = Watcher.seen.length;
    // past the reads after the second fill
    await until(() => Watcher.seen.length > n + 15, 30_000);
    const truth = await brokerSays(s.client);
    expect(truth).toMatch(/ 104$/);
    const afterSecond = Watcher.seen.slice(Watcher.seen.findIndex((x) => x.startsWith('fill2')));
    expect(afterSecond.filter((x) => !x.endsWith(truth))).toEqual([]);
    // after the first fill: 102 held, never 104 before the second fill nor 100
    const afterFirst = Watcher.seen.slice(
      0,
      Watcher.seen.findIndex((x) => x.startsWith('fill2')),
    );
    expect(afterFirst.filter((x) => !x.endsWith(' 102'))).toEqual([]);
  }, 180_000);
});

/** Records the account at its fills and at its start (`tag cash held`). */
class Restarted extends Strategy {
  static seen: string[] = [];
  private show(tag: string): void {
    const held = this.ctx.account
      .holdings()
      .find((h) => h.symbol === '005930')
      ?.quantity.toFixed();
    Restarted.seen.push(`${tag} ${this.ctx.account.cash('KRW').toFixed()} ${held}`);
  }
  override onStart(): void {
    this.show('start');
  }
  override onFill(): void {
    this.show('fill');
  }
}

describe('ctx.account after a restart', () => {
  it('a buy that filled while the engine was down counts once (the first read already held it)', async () => {
    reset(false);
    Restarted.seen = [];
    const s = await startSimulatedBroker(closers, { speed: 1, control: true, rateLimit: false });
    const db = openTempDb(closers, 'hoga-account-exact-', s.clock);
    const run = { mode: 'live' as const, symbols: ['005930'], cashKrw: new Decimal(1_000_000) };
    const first = await startTestRun(
      { ...s, db },
      { ...run, runId: 'exact-3a', strategies: [{ strategyClass: Watcher, id: 'buyer' }] },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
    );
    await until(() => first.events.some((e) => e.type === 'OrderAccepted'), 60_000);
    await first.handle.stop();
    // the engine is down: the buy fills at the broker
    s.sim.setPrice('005930', String((Watcher.prices[0] as number) - 500));
    const truth = await brokerSays(s.client);
    expect(truth).toMatch(/ 102$/);
    const second = await startTestRun(
      { ...s, db },
      { ...run, runId: 'exact-3b', strategies: [{ strategyClass: Restarted, id: 'buyer' }] },
      { pollIntervalMs: 200 },
    );
    closers.add(() => second.handle.stop());
    await until(() => Restarted.seen.length >= 2, 60_000);
    expect(Restarted.seen.sort()).toEqual([`fill ${truth}`, `start ${truth}`]);
  }, 180_000);
});

/** Records the account's KRW cash every 200 ms. */
class Looks extends Strategy {
  static cash: string[] = [];
  override onStart(): void {
    this.ctx.setTimer('look', { every: 200 });
  }
  override onTimer(): void {
    Looks.cash.push(this.ctx.account.cash('KRW').toFixed());
  }
}

describe('ctx.account and an order from another channel', () => {
  it("a resting buy placed elsewhere: its held-back cash is taken once, and its fill's cost once", async () => {
    Looks.cash = [];
    const s = await startSimulatedBroker(closers, { speed: 1, control: true, rateLimit: false });
    const db = openTempDb(closers, 'hoga-account-exact-', s.clock);
    // the account's reads of the cash (the run's client is this one)
    const reads = accountReads(s.client, 'getBuyingPower');
    const alerts: string[] = [];
    const { handle, events } = await startTestRun(
      { ...s, db },
      {
        runId: 'exact-ext',
        mode: 'live',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Looks }],
      },
      { pollIntervalMs: 300, accountRefreshMs: REFRESH_MS, onAlert: (a) => alerts.push(a.type) },
    );
    closers.add(() => handle.stop());
    await until(() => Looks.cash.length > 0, 60_000);
    const before = (await s.client.getBuyingPower('KRW')).cashBuyingPower;
    // a limit buy of 3 000660 placed elsewhere, resting well below the market
    const price = new Decimal(130_000);
    await s.client.createOrder({
      symbol: '000660',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: new Decimal(3),
      price,
    });
    const resting = (await s.client.getBuyingPower('KRW')).cashBuyingPower;
    await until(() => alerts.includes('ExternalOrderAdopted'), 60_000);
    // past the account's next read (every 2 s here), taken, of the cash the order holds back, and a
    // second of looks more
    const n = Looks.cash.length;
    await reads.oneTaken();
    const k = Looks.cash.length;
    await until(() => Looks.cash.length > k + 5, 60_000);
    const whileResting = [...new Set(Looks.cash.slice(n))];
    expect(whileResting.filter((c) => c !== resting.toFixed() && c !== before.toFixed())).toEqual([]);
    expect(Looks.cash.at(-1)).toBe(resting.toFixed());
    s.sim.setPrice('000660', '129000');
    await until(() => events.some((e) => e.type === 'OrderFilled'), 60_000);
    const filled = (await s.client.getBuyingPower('KRW')).cashBuyingPower;
    const m = Looks.cash.length;
    // past the account's read after the fill, and a second of looks more
    await reads.oneTaken();
    const j = Looks.cash.length;
    await until(() => Looks.cash.length > j + 5, 60_000);
    expect([...new Set(Looks.cash.slice(m))].filter((c) => c !== filled.toFixed())).toEqual([]);
  }, 180_000);
});

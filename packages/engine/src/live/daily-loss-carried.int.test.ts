/**
 * The daily loss limit counts today's loss, not the loss a position carried from an earlier day
 * has made since it was bought. A paper run buys 100 shares of 005930 at 70,000 KRW on Monday; the
 * price falls to 58,000 by Monday's close (the position is 1,200,000 KRW under its cost, past the
 * default 1,000,000 KRW daily limit of a strategy), and a second run on the same store sells the
 * shares on Tuesday. Before, the kill switch tripped on Tuesday's first price, halted the strategy
 * and denied its sell: the strategy could not leave a losing position on any later day. A loss made
 * on Tuesday itself still trips it, also for a strategy that places no order in the run (before, the
 * kill switch watched only the strategies that had ordered since the process started), and also
 * when the engine starts after the day began: today's loss counts from Monday's last price, read
 * from the broker's minute candles (before, from the engine's first price, so what the position lost
 * before the engine started went uncounted).
 */
import { type Bar, Decimal, type Fill, type OrderEvent } from '@hoga/core';
import { HogaDatabase, RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrategyClass } from '../strategy/strategy.js';
import { Strategy } from '../strategy/strategy.js';
import {
  Closers,
  type SimulatedBroker,
  startSimulatedBroker,
  startTestRun,
  tempDbFile,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys 100 shares at market on its first bar when flat; sells them all at market when it holds them. */
class InThenOut extends Strategy {
  private sent = false;
  override onBar(bar: Bar): void {
    if (this.sent || bar.symbol !== '005930') return;
    this.sent = true;
    const held = this.ctx.position('005930')?.quantity;
    if (held === undefined || held.isZero()) this.ctx.buy('005930', 100);
    else this.ctx.sell('005930', held);
  }
}

/** Places nothing. */
class Idle extends Strategy {}

/** The trading-state changes in the journal of the store `file`, as `strategy to source`. */
function stateChanges(file: string): string[] {
  const db = HogaDatabase.open(file);
  try {
    return db.journal
      .readFrom(1)
      .filter((e) => e.type === 'TradingStateChanged')
      .map((e) => {
        const p = e.payload as { to?: unknown; source?: unknown };
        return `${e.strategyId} ${p.to} ${p.source}`;
      });
  } finally {
    db.close();
  }
}

/** The daily loss limit's halts each stored session of the store `file` counted, by run id. */
function storedHalts(file: string): Record<string, unknown> {
  const db = HogaDatabase.open(file);
  try {
    const runs = new RunRepository(db.connection);
    return Object.fromEntries(
      runs.list().map((r) => [r.runId, (r.stats as { halts?: unknown } | null)?.halts]),
    );
  } finally {
    db.close();
  }
}

/** An earlier time and 005930's price then (at 19:59 KST, the day's last minute candle closes at about it). */
interface Eve {
  readonly at: string;
  readonly price: number;
}

/**
 * A paper run of one strategy (id `InThenOut`) on the store `file`, with a simulator at `start` and
 * 005930 at `price` (with `eve`, the simulator starts at 19:59 KST the evening before with 005930 at
 * `eve.price` and its clock is advanced to `start`); `whileRunning` runs once it started, and the
 * run stops after it. Answers the run's order events.
 */
async function paperDay(
  file: string,
  start: string,
  price: number,
  strategyClass: StrategyClass,
  whileRunning: (events: readonly OrderEvent[], broker: SimulatedBroker) => Promise<void>,
  eve?: Eve,
): Promise<readonly OrderEvent[]> {
  const startMs = Date.parse(start);
  const broker = await startSimulatedBroker(closers, {
    speed: 30,
    start: eve?.at ?? start,
    prepare: (sim) => {
      if (eve !== undefined) {
        sim.setPrice('005930', new Decimal(eve.price));
        sim.advanceClock(startMs - sim.now().toMillis());
      }
      sim.setPrice('005930', new Decimal(price));
    },
  });
  const db = HogaDatabase.open(file, { clock: broker.clock });
  closers.add(() => db.close());
  const run = await startTestRun(
    { ...broker, db },
    {
      runId: 't-carried',
      mode: 'paper',
      symbols: ['005930'],
      cashKrw: new Decimal(20_000_000),
      strategies: [{ strategyClass, id: 'InThenOut' }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
  );
  try {
    await whileRunning(run.events, broker);
  } finally {
    await run.handle.stop();
    db.close();
  }
  return run.events;
}

const filledOrDenied = (events: readonly OrderEvent[]) =>
  until(() => events.some((e) => e.type === 'OrderFilled' || e.type === 'OrderDenied'));

/** The first fill among `events`; throws naming the denial or saying there was none. */
function fillOf(events: readonly OrderEvent[]): Fill {
  const first = events.find((e) => e.type === 'OrderFilled' || e.type === 'OrderDenied');
  if (first?.type === 'OrderFilled') return first.fill;
  throw new Error(first?.type === 'OrderDenied' ? `denied ${first.code}: ${first.reason}` : 'no fill');
}

const MONDAY = '2026-11-23T10:00:00+09:00';
const TUESDAY = '2026-11-24T10:00:00+09:00';
/** Monday evening: 005930's last minute candle of Monday closes at about the price set then. */
const MONDAY_EVE = '2026-11-23T19:59:00+09:00';

describe('the daily loss limit of a position carried from an earlier day', () => {
  it('paper: Tuesday counts Tuesday, and the strategy may sell what it bought on Monday', async () => {
    const file = tempDbFile('hoga-daily-loss-carried-');
    const monday = await paperDay(file, MONDAY, 70_000, InThenOut, filledOrDenied);
    const bought = monday.find((e) => e.type === 'OrderFilled');
    expect(bought?.type === 'OrderFilled' && bought.fill.side).toBe('BUY');

    // Monday closes at 58,000 (1,200,000 KRW lost on Monday); Tuesday is at 58,000 too
    const tuesday = await paperDay(file, TUESDAY, 58_000, InThenOut, filledOrDenied, {
      at: MONDAY_EVE,
      price: 58_000,
    });
    const outcome = tuesday.find((e) => e.type === 'OrderFilled' || e.type === 'OrderDenied');
    // before: denied, the kill switch tripped by a loss made before today
    expect(outcome?.type === 'OrderDenied' ? `denied ${outcome.reason}` : outcome?.type).toBe('OrderFilled');
    expect(outcome?.type === 'OrderFilled' && outcome.fill.side).toBe('SELL');
    expect(outcome?.type === 'OrderFilled' && outcome.fill.quantity.toFixed()).toBe('100');
    expect(stateChanges(file)).toEqual([]);
  }, 120_000);

  it('paper: a loss made on Tuesday by the position carried from Monday trips the kill switch', async () => {
    const file = tempDbFile('hoga-daily-loss-carried-');
    await paperDay(file, MONDAY, 70_000, InThenOut, filledOrDenied);
    // Tuesday opens at Monday's close, then falls 12,000 won: 1,200,000 KRW lost today
    await paperDay(
      file,
      TUESDAY,
      70_000,
      Idle,
      async (_events, { sim }) => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(stateChanges(file)).toEqual([]);
        sim.setPrice('005930', new Decimal(58_000));
        // before: never (a strategy that placed no order in this run was not watched)
        await until(() => stateChanges(file).length > 0, 30_000);
      },
      { at: MONDAY_EVE, price: 70_000 },
    );
    expect(stateChanges(file)).toEqual(['InThenOut HALTED daily-loss']);
    // the stored sessions count the halt, as a backtest's stored run does (before, `risk halts -`)
    expect(storedHalts(file)).toEqual({ 't-carried': {}, 't-carried-2': { 'strategy:InThenOut': 1 } });
  }, 120_000);

  it("paper: an engine started during Tuesday counts the carried position from Monday's last price", async () => {
    const file = tempDbFile('hoga-daily-loss-carried-');
    await paperDay(file, MONDAY, 70_000, InThenOut, filledOrDenied);
    // Monday closes at 70,000; the price is 58,000 when the engine starts on Tuesday at 10:00:
    // 1,200,000 KRW lost today, though the engine never sees a price above 58,000
    await paperDay(
      file,
      TUESDAY,
      58_000,
      Idle,
      // before: never (today's loss counted from the engine's first price, 58,000)
      () => until(() => stateChanges(file).length > 0, 30_000),
      { at: MONDAY_EVE, price: 70_000 },
    );
    expect(stateChanges(file)).toEqual(['InThenOut HALTED daily-loss']);
  }, 120_000);

  it('paper: a loss realised before a restart on the same day still counts after it', async () => {
    const file = tempDbFile('hoga-daily-loss-restart-');
    // Monday: buys 100 at about 70,000; a second run sells them at about 64,000 (some 600,000 KRW
    // lost), a third buys 100 again, and the price falls until today's loss is 1,200,000 KRW: what
    // the third run's position lost alone stays under the 1,000,000 KRW limit. The simulator's
    // prices move on from where they are set, so the loss is reckoned from the fills themselves.
    const first = fillOf(await paperDay(file, MONDAY, 70_000, InThenOut, filledOrDenied));
    const second = fillOf(
      await paperDay(file, '2026-11-23T10:10:00+09:00', 64_000, InThenOut, filledOrDenied),
    );
    expect(`${first.side} ${first.quantity.toFixed()}, ${second.side} ${second.quantity.toFixed()}`).toBe(
      'BUY 100, SELL 100',
    );
    const realised = second.price.minus(first.price).times(100);
    expect(realised.lessThan(-300_000), `realised ${realised.toFixed()}`).toBe(true);
    await paperDay(file, '2026-11-23T10:20:00+09:00', 64_000, InThenOut, async (events, { sim }) => {
      await filledOrDenied(events);
      const third = fillOf(events);
      expect(`${third.side} ${third.quantity.toFixed()}`).toBe('BUY 100');
      expect(stateChanges(file)).toEqual([]);
      // the position alone loses 1,200,000 less what was realised (at most 900,000 KRW)
      sim.setPrice('005930', third.price.minus(realised.plus(1_200_000).dividedBy(100)));
      // before: never (a restarted run counted today's loss from its own start)
      await until(() => stateChanges(file).length > 0, 30_000);
    });
    expect(stateChanges(file)).toEqual(['InThenOut HALTED daily-loss']);
  }, 120_000);
});

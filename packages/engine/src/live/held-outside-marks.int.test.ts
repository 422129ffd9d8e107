/**
 * A position a paper or live session carries in a symbol outside its `--symbols` (bought by an
 * earlier session that traded it) is valued at the broker's last price: read after the run's own
 * symbols' at the start and every few seconds, not only by a bar, a tick or a fill of it, which
 * this session may never have. Before, such a position was valued at its average price all
 * session long: `onStart` saw an unrealized PnL of 0 with the price 3,000 KRW above the fill, and
 * the equity curve counted it at cost; and the risk module read no price of it, so the daily loss
 * limits counted none of its moves. A symbol the broker no longer lists keeps its average price,
 * said once and not asked of the broker again, and fails nothing else (before, the read of every
 * held symbol failed with it); a read that fails for a while is said once a run, and the position
 * is priced again when the reads come back. Over the simulator on 127.0.0.1 and SQLite files, two
 * sessions on one file.
 */
import { Decimal } from '@hoga/core';
import type { SimulatorHandle } from '@hoga/simulator';
import { HogaDatabase, RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLogger } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy, type StrategyClass } from '../strategy/strategy.js';
import { type BooksRead, carriedPosition, freezeAt, Holds } from './carried-position.test-helper.js';
import {
  Closers,
  type SimulatedBroker,
  startSimulatedBroker,
  startTestRun,
  tempDbFile,
  until,
} from './live-run.test-helper.js';

/** A strategy's daily loss limit of 20,000 KRW. */
const LIMIT = { defaults: { dailyLossLimitKrw: '20000' } };

/** Buys 10 000660 at market at its start. */
class BuysTenOutside extends Strategy {
  override onStart(): void {
    this.ctx.buy('000660', 10);
  }
}

const closers = new Closers();
afterEach(() => closers.closeAll());

/**
 * Counts the market reads the second session's client sends naming 999990 (`unlisted`) and 000660
 * (`listed`): the real client, its requests still sent over HTTP.
 */
function countAsked(s: SimulatedBroker, asked: { unlisted: number; listed: number }): void {
  const client = s.client as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['getPrices', 'getStocks', 'getStockWarnings', 'getPriceLimits']) {
    const real = (client[name] as (...args: unknown[]) => unknown).bind(s.client);
    client[name] = (...args: unknown[]) => {
      const named = JSON.stringify(args[0]);
      if (named.includes('999990')) asked.unlisted++;
      if (named.includes('000660')) asked.listed++;
      return real(...args);
    };
  }
}

describe("a position outside the run's symbols, carried from an earlier session", () => {
  it.each(['paper', 'live'] as const)(
    "%s: is valued at the broker's last price, read at the start",
    async (mode) => {
      // the first session (symbols 005930) bought 000660; the market then stops 3,000 KRW above the fill
      const { s, db, bought, second } = await carriedPosition(closers, mode, '000660', (sim, _db, fill) =>
        freezeAt(sim, '000660', fill.price.plus(3_000)),
      );
      const price = bought.price.toNumber() + 3_000;
      const atStart = Holds.atStart as BooksRead | null;
      if (atStart === null) throw new Error('onStart did not run');
      expect(atStart.shares).toBe('10');
      expect(atStart.unrealized).toBe('30000');
      expect(atStart.equity).toBe(atStart.cash + 10 * price);

      // the stop's equity point a second after the start's (the engine clock alone moves)
      s.clock.advance(1_000);
      await second.handle.stop();
      const equity = new RunRepository(db.connection).equity('second');
      expect(equity.length).toBe(2);
      for (const point of equity) expect(point.equity).toBe(atStart.cash + 10 * price);
    },
    60_000,
  );

  it('paper: a held symbol the broker no longer lists keeps its average price, said once, and the others are read all the same', async () => {
    const { logger, records } = recordingLogger();
    const asked = { unlisted: 0, listed: 0 };
    await carriedPosition(
      closers,
      'paper',
      '000660',
      (s, db, fill) => {
        // the stored position in 035420 becomes one in a symbol the broker does not list (delisted since)
        db.connection.prepare("UPDATE fills SET symbol = '999990' WHERE symbol = '035420'").run();
        db.connection.prepare("UPDATE orders SET symbol = '999990' WHERE symbol = '035420'").run();
        freezeAt(s, '000660', fill.price.plus(3_000));
        countAsked(s, asked);
      },
      { logger, risk: { accountInfoMaxAgeMs: 1_000 } },
      { alsoBought: ['035420'] },
    );
    // 000660 is priced (before: its read failed with 999990's, in one request, and it counted 0);
    // 999990, with no price, counts none
    expect(Holds.atStart).toMatchObject({ shares: '10', unrealized: '30000' });
    // the reads every second: said once
    await new Promise((r) => setTimeout(r, 2_500));
    const said = records.filter((r) => String(r.msg).includes('999990'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: 40, symbols: ['999990'] });
    expect(String(said[0]?.msg)).toMatch(
      /the broker does not list it: that position keeps its last known price$/,
    );
    // and not asked of the broker again: the requests naming it stop once it was said (a second
    // refresh may have been under way then), while the reads of 000660 go on every second
    const askedThen = { unlisted: asked.unlisted, listed: asked.listed };
    await new Promise((r) => setTimeout(r, 2_500));
    expect(asked.unlisted).toBe(askedThen.unlisted);
    expect(asked.listed).toBeGreaterThan(askedThen.listed);
  }, 60_000);

  it('paper: a held symbol whose read fails for a while is said once a run, and priced again once the reads come back', async () => {
    const { logger, records } = recordingLogger();
    let price = new Decimal(0);
    const { s, db, bought, second } = await carriedPosition(
      closers,
      'paper',
      '000660',
      (s, _db, fill) => {
        price = fill.price.plus(3_000);
        freezeAt(s, '000660', price);
        // the broker answers 500 `maintenance` to 000660's warnings (read with its instrument
        // before its price; a path of 000660 alone: the run's 005930 is read as ever): every read
        // of the held symbol's price fails until the fault is gone
        s.sim.injectFault({ kind: 'maintenance', path: '/api/v1/stocks/000660/warnings' });
      },
      { logger, risk: { accountInfoMaxAgeMs: 1_000 } },
      // each failed read said at once (the connector's retries would take some 15 s a read)
      { maxRetries: 0 },
    );
    // not priced at the start: at its cost
    expect(Holds.atStart).toMatchObject({ shares: '10', unrealized: '0' });
    const failures = () => records.filter((r) => String(r.msg).includes('000660 (held outside'));
    // the reads every second fail alike: said once
    await until(() => failures().length > 0, 15_000);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(failures()).toHaveLength(1);
    expect(failures()[0]).toMatchObject({ level: 40, symbols: ['000660'] });
    expect(String(failures()[0]?.msg)).toMatch(
      /could not be read: those positions keep their last known prices$/,
    );
    // the reads come back: the next ones price the position (the stop's equity point counts it)
    s.sim.clearFaults();
    await new Promise((r) => setTimeout(r, 2_500));
    const cash = (Holds.atStart as BooksRead).cash;
    // the stop's equity point a second after the start's (the engine clock alone moves)
    s.clock.advance(1_000);
    await second.handle.stop();
    const equity = new RunRepository(db.connection).equity('second');
    expect(equity.map((p) => p.equity)).toEqual([
      cash + 10 * bought.price.toNumber(),
      cash + 10 * price.toNumber(),
    ]);
    expect(failures()).toHaveLength(1);
  }, 60_000);

  it.each(['paper', 'live'] as const)(
    "%s: today's fall of that position trips the strategy's daily loss limit",
    async (mode) => {
      // 10 shares 3,000 KRW under their fill of today: 30,000 KRW lost today, past a 20,000 limit
      const { db, second } = await carriedPosition(
        closers,
        mode,
        '000660',
        (sim, _db, fill) => freezeAt(sim, '000660', fill.price.minus(3_000)),
        { risk: LIMIT },
      );
      const halts = () =>
        db.journal
          .readFrom(1)
          .filter((e) => e.type === 'TradingStateChanged')
          .map((e) => {
            const p = e.payload as { to?: unknown; source?: unknown };
            return `${e.strategyId} ${p.to} ${p.source}`;
          });
      // before: never (the risk book had no price of 000660: its position counted no PnL today)
      await until(() => halts().length > 0, 15_000);
      expect(halts()).toEqual(['h HALTED daily-loss']);
      await second.handle.stop();
    },
    60_000,
  );

  it("paper: an engine started on Tuesday counts that position's loss today from Monday's last price", async () => {
    const file = tempDbFile('hoga-held-carried-');
    const day = async (
      start: string,
      prepare: (sim: SimulatorHandle) => void,
      strategyClass: StrategyClass,
    ) => {
      const s = await startSimulatedBroker(closers, { speed: 30, start, prepare });
      const db = HogaDatabase.open(file, { clock: s.clock });
      closers.add(() => db.close());
      return startTestRun(
        { ...s, db },
        {
          runId: 'carried',
          mode: 'paper',
          symbols: ['005930'],
          cashKrw: new Decimal(10_000_000),
          strategies: [{ strategyClass, id: 'h' }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, risk: LIMIT },
      );
    };
    // Monday: 10 000660 bought (not a symbol of the run)
    const monday = await day(
      '2026-11-23T10:00:00+09:00',
      (sim) => sim.setPrice('000660', new Decimal(200_000)),
      BuysTenOutside,
    );
    await until(() => monday.events.some((e) => e.type === 'OrderFilled'));
    await monday.handle.stop();
    // Monday closes at about 200,000; Tuesday's engine starts at 10:00 with 000660 at 180,000:
    // some 200,000 KRW lost today, though the engine never sees a price above about 180,000
    const tuesday = await day(
      '2026-11-23T19:59:00+09:00',
      (sim) => {
        sim.setPrice('000660', new Decimal(200_000));
        sim.advanceClock(Date.parse('2026-11-24T10:00:00+09:00') - sim.now().toMillis());
        sim.setPrice('000660', new Decimal(180_000));
      },
      Holds,
    );
    const halts = () => {
      const db = HogaDatabase.open(file);
      try {
        return db.journal
          .readFrom(1)
          .filter((e) => e.type === 'TradingStateChanged')
          .map((e) => `${e.strategyId} ${(e.payload as { to?: unknown }).to}`);
      } finally {
        db.close();
      }
    };
    // before: never (today's loss counted from the engine's first price of 000660)
    await until(() => halts().length > 0, 15_000);
    expect(halts()).toEqual(['h HALTED']);
    await tuesday.handle.stop();
  }, 60_000);
});

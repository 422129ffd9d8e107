/**
 * A paper or live session that starts with a position its earlier sessions bought values it at the
 * broker's last price read at the start, not at its average price: the session's first equity
 * point, `ctx.equity` and `ctx.unrealizedPnl` in `onStart`. And a candle that closed before that
 * read does not put its older close back. Before, the run's last prices were empty until its first
 * bar or fill: `onStart` read an unrealized PnL of 0 for 10 shares bought at 55,000 and now at
 * 57,000, and the session's equity curve began at the average price, so the 20,000 KRW its
 * earlier session had gained counted as this session's return. Over the simulator on 127.0.0.1
 * and a SQLite file, two sessions on one file, the simulator's clock stopped between them.
 */
import { Decimal, type Fill } from '@hoga/core';
import { RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy, type StrategyClass } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys 10 005930 at market at its start. */
class BuysTen extends Strategy {
  static fills: Fill[] = [];
  override onStart(): void {
    this.ctx.buy('005930', 10);
  }
  override onFill(fill: Fill): void {
    BuysTen.fills.push(fill);
  }
}

/** What a strategy read of its books. */
interface Read {
  readonly unrealized: string;
  readonly equity: number;
  readonly cash: number;
  readonly shares: string | undefined;
}

/** Places nothing; reads its books at the start and at each bar. */
class Holds extends Strategy {
  static atStart: Read | null = null;
  static atBars: Read[] = [];
  private read(): Read {
    return {
      unrealized: this.ctx.unrealizedPnl('KRW').toString(),
      equity: this.ctx.equity(),
      cash: this.ctx.cash('KRW').toNumber(),
      shares: this.ctx.position('005930')?.quantity.toString(),
    };
  }
  override onStart(): void {
    Holds.atStart = this.read();
  }
  override onBar(): void {
    Holds.atBars.push(this.read());
  }
}

describe('a position restored at the start of a session', () => {
  it.each(['paper', 'live'] as const)(
    "%s: is valued at the broker's last price read at the start, not at its average price",
    async (mode) => {
      BuysTen.fills = [];
      Holds.atStart = null;
      Holds.atBars = [];
      const s = await startSimulatedBroker(closers, { start: '2026-11-24T10:00:00+09:00', speed: 1 });
      const db = openTempDb(closers, `hoga-restored-marks-${mode}-`, s.clock);
      const session = (runId: string, strategyClass: StrategyClass) =>
        startTestRun(
          { client: s.client, clock: s.clock, db },
          {
            runId,
            mode,
            symbols: ['005930'],
            cashKrw: new Decimal(10_000_000),
            strategies: [{ strategyClass, id: 'h' }],
          },
          { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
        );

      const first = await session('first', BuysTen);
      try {
        await until(() => BuysTen.fills.length > 0 && first.events.some((e) => e.type === 'OrderFilled'));
      } finally {
        await first.handle.stop();
      }
      const bought = BuysTen.fills[0];
      if (bought === undefined) throw new Error('no fill');
      expect(bought.quantity.toString()).toBe('10');

      // the market stops, 2,000 KRW above the fill: the price every read finds from now on
      s.sim.setSpeed(0);
      s.clock.setSpeed(0);
      const now = bought.price.plus(2_000);
      s.sim.setPrice('005930', now);

      const second = await session('second', Holds);
      closers.add(() => second.handle.stop());
      const atStart = Holds.atStart as Read | null;
      if (atStart === null) throw new Error('onStart did not run');
      expect(atStart.shares).toBe('10');
      expect(atStart.unrealized).toBe('20000');
      expect(atStart.equity).toBe(atStart.cash + 10 * now.toNumber());

      // the candles the run reads closed before the price was read: they do not value it again
      await new Promise((r) => setTimeout(r, 1_500));
      // the stop's equity point a second after the start's (the engine clock alone moves)
      s.clock.advance(1_000);
      await second.handle.stop();
      const equity = new RunRepository(db.connection).equity('second');
      expect(equity.length).toBe(2);
      for (const point of equity) expect(point.equity).toBe(atStart.cash + 10 * now.toNumber());
      for (const read of Holds.atBars) expect(read.unrealized).toBe('20000');
    },
    60_000,
  );
});

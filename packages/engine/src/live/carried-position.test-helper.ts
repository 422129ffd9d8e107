/**
 * Test helper: two sessions of one strategy id on one SQLite file over the simulator, the first
 * buying a position the second carries (see `restored-position-marks.int.test.ts`,
 * `held-outside-marks.int.test.ts`).
 */
import { Decimal, type Fill } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import { Strategy, type StrategyClass } from '../strategy/strategy.js';
import {
  type Closers,
  openTempDb,
  type SimulatedBroker,
  type StartedRun,
  startSimulatedBroker,
  startTestRun,
  until,
} from './live-run.test-helper.js';

/** What a strategy read of its books. */
export interface BooksRead {
  readonly unrealized: string;
  readonly equity: number;
  readonly cash: number;
  /** Its position's quantity in the symbol read, if any. */
  readonly shares: string | undefined;
}

/** Places nothing; reads its books, with its position in {@link Holds.symbol}, at its start and at each bar. */
export class Holds extends Strategy {
  static symbol = '005930';
  static atStart: BooksRead | null = null;
  static atBars: BooksRead[] = [];
  private read(): BooksRead {
    return {
      unrealized: this.ctx.unrealizedPnl('KRW').toString(),
      equity: this.ctx.equity(),
      cash: this.ctx.cash('KRW').toNumber(),
      shares: this.ctx.position(Holds.symbol)?.quantity.toString(),
    };
  }
  override onStart(): void {
    Holds.atStart = this.read();
  }
  override onBar(): void {
    Holds.atBars.push(this.read());
  }
}

/** The two sessions: the simulator, the file, the first session's fill(s) and the second session. */
export interface CarriedPosition {
  readonly s: SimulatedBroker;
  readonly db: HogaDatabase;
  /** The fill of the first symbol bought. */
  readonly bought: Fill;
  readonly second: StartedRun;
}

/**
 * Session `first` (strategy id `h`, symbols 005930, 10,000,000 KRW) buys 10 of `symbol` (and of
 * each of `alsoBought`) at market at its start and stops once filled; `between` runs then (the
 * simulator and the file at hand, the fill of `symbol`); session `second` then runs {@link Holds}
 * under the same id, its books read in `symbol`. The second session is stopped by `closers` unless the test stops it.
 */
export async function carriedPosition(
  closers: Closers,
  mode: 'paper' | 'live',
  symbol: string,
  between: (s: SimulatedBroker, db: HogaDatabase, bought: Fill) => void,
  secondOptions: Parameters<typeof startTestRun>[2] = {},
  more: {
    /** Other symbols the first session buys 10 of too. */
    readonly alsoBought?: readonly string[];
    /** The client's retries of a failed request (default: the connector's). */
    readonly maxRetries?: number;
  } = {},
): Promise<CarriedPosition> {
  const alsoBought = more.alsoBought ?? [];
  Holds.symbol = symbol;
  Holds.atStart = null;
  Holds.atBars = [];
  const fills: Fill[] = [];
  class BuysTen extends Strategy {
    override onStart(): void {
      for (const each of [symbol, ...alsoBought]) this.ctx.buy(each, 10);
    }
    override onFill(fill: Fill): void {
      fills.push(fill);
    }
  }
  const s = await startSimulatedBroker(closers, {
    start: '2026-11-24T10:00:00+09:00',
    speed: 1,
    ...(more.maxRetries === undefined ? {} : { maxRetries: more.maxRetries }),
  });
  const db = openTempDb(closers, `hoga-carried-${mode}-`, s.clock);
  const options = { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } };
  const session = (runId: string, strategyClass: StrategyClass, more = {}) =>
    startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId,
        mode,
        symbols: ['005930'],
        cashKrw: new Decimal(10_000_000),
        strategies: [{ strategyClass, id: 'h' }],
      },
      { ...options, ...more },
    );
  const first = await session('first', BuysTen);
  try {
    const orders = 1 + alsoBought.length;
    await until(
      () => fills.length >= orders && first.events.filter((e) => e.type === 'OrderFilled').length >= orders,
    );
  } finally {
    await first.handle.stop();
  }
  const bought = fills.find((f) => f.symbol === symbol);
  if (bought === undefined) throw new Error('no fill');
  between(s, db, bought);
  const second = await session('second', Holds, secondOptions);
  closers.add(() => second.handle.stop());
  return { s, db, bought, second };
}

/** Stops the market at `price` of `symbol`: the price every read finds from then on. */
export function freezeAt(s: SimulatedBroker, symbol: string, price: Decimal): void {
  s.sim.setSpeed(0);
  s.clock.setSpeed(0);
  s.sim.setPrice(symbol, price);
}

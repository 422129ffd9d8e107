/**
 * A backtest stored as it runs, on a real database file with the journal's worker thread: the run's
 * row, its trades (as the outcome has them), its equity curve, statistics and status, and one
 * journal summary per order; a run whose strategy throws is stored `failed` with the reason; a run
 * id already stored stops the backtest before any hook with nothing more written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bar, createLogger, Decimal } from '@hoga/core';
import { HogaDatabase, type OrderSummary, RunRepository, StoreError } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BarFeed } from '../market-data/bar-feed.js';
import { FixedFxRates } from '../portfolio/fx-rates.js';
import { Strategy, type StrategyClass } from '../strategy/strategy.js';
import { minuteBars, T0, tradeRow } from './backtest-fixture.test-helper.js';
import { type BacktestOutcome, runBacktest } from './run-backtest.js';

let dir: string;
let db: HogaDatabase;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-bt-store-'));
  db = HogaDatabase.open(join(dir, 'hoga.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Buys 10 on even bars and sells them on odd ones: an order on every bar. */
class EveryBar extends Strategy {
  n = 0;
  started = false;
  override onStart(): void {
    this.started = true;
  }
  override onBar(bar: Bar): void {
    this.n++;
    if (this.n === 40) throw new Error(`boom at ${bar.close}`);
    if (this.ctx.openOrders(bar.symbol).length > 0) return;
    const position = this.ctx.position(bar.symbol);
    if (position === undefined) this.ctx.buy(bar.symbol, 10);
    else this.ctx.sell(bar.symbol, position.quantity);
  }
}

/** {@link EveryBar} that stops trading before it would throw. */
class Lasting extends EveryBar {
  override onBar(bar: Bar): void {
    if (this.n < 39) super.onBar(bar);
  }
}

const closes = Array.from({ length: 30 }, (_, i) => 70_000 + (i % 7) * 100);
const bars = [
  ...minuteBars('005930', closes),
  ...minuteBars(
    '000660',
    closes.map((c) => c * 2),
  ),
];

function backtest(
  runId: string,
  strategyClass: StrategyClass,
  ended: number[] = [],
  more: { readonly feed?: BarFeed; readonly signal?: AbortSignal } = {},
): Promise<BacktestOutcome> {
  return runBacktest({
    settings: {
      runId,
      mode: 'backtest',
      symbols: ['000660', '005930'],
      interval: '1m',
      cash: { KRW: new Decimal(100_000_000), USD: new Decimal(0) },
    },
    strategies: [{ strategyClass }],
    startMs: T0,
    db,
    logger: createLogger({ level: 'silent' }),
    fx: new FixedFxRates(1400),
    openStream: async () => (more.feed ?? BarFeed.fromBars(bars, T0)).stream(),
    signal: more.signal,
    record: {
      strategyPath: 'strategies/every-bar.ts',
      strategyName: strategyClass.name,
      params: { symbols: ['000660', '005930'] },
      startedAt: 1_000,
      endedAt: () => {
        ended.push(2_000);
        return 2_000;
      },
    },
  });
}

describe('runBacktest with a record', () => {
  it('stores the run with its trades as they filled, its equity curve and statistics, and a summary per order', async () => {
    const outcome = await backtest('run-ok', Lasting);
    expect(outcome.status).toBe('completed');
    expect(outcome.trades.length).toBeGreaterThan(20);
    const runs = new RunRepository(db.connection);
    const stored = runs.get('run-ok');
    expect(stored).toMatchObject({
      kind: 'backtest',
      status: 'completed',
      strategyName: 'Lasting',
      startedAt: 1_000,
      endedAt: 2_000,
    });
    expect(stored?.stats).toMatchObject({ bars: 60, failure: null, trades: outcome.stats.trades });
    expect(runs.trades('run-ok').map(tradeRow)).toEqual(outcome.trades.map(tradeRow));
    expect(runs.equity('run-ok')).toEqual(outcome.equity.map((p) => ({ time: p.time, equity: p.equity })));
    const orders = new Set(outcome.trades.map((t) => t.clientOrderId));
    const journal = db.journal.readFrom(1, 1_000);
    expect(journal.every((e) => e.type === 'OrderSummary' && e.mode === 'backtest')).toBe(true);
    expect(new Set(journal.map((e) => e.clientOrderId))).toEqual(orders);
  });

  it('journals a denied order with what it asked for: symbol, side, type, size and the denial, and no submission', async () => {
    /** On the run's first bar (000660's), buys one share of it and a limit of two shares of ZZZZ (no bars: denied). */
    class Outside extends Strategy {
      n = 0;
      override onBar(bar: Bar): void {
        if (++this.n !== 1) return;
        this.ctx.buy(bar.symbol, 1);
        this.ctx.buy('ZZZZ', 2, 1_234);
      }
    }
    const outcome = await backtest('run-denied', Outside);
    expect(outcome.status).toBe('completed');
    const summaries = db.journal.readFrom(1, 1_000).map((e) => e.payload as OrderSummary);
    const denied = summaries.filter((s) => s.last === 'OrderDenied');
    expect(denied).toHaveLength(1);
    // before: symbol '', side '', orderType '' and no size (only the denial's event and reason)
    expect(denied[0]).toMatchObject({
      strategyId: 'Outside',
      symbol: 'ZZZZ',
      side: 'BUY',
      orderType: 'LIMIT',
      price: '1234',
      quantity: '2',
      amount: null,
      events: [['OrderDenied', T0]],
      fills: [],
      reason: expect.stringMatching(/^no-market-data: ZZZZ has no bars in this backtest/),
    });
    expect(summaries.filter((s) => s.last === 'OrderFilled').map((s) => s.symbol)).toEqual(['000660']);
  });

  it('stores a run whose strategy threw as failed, with the reason and the trades made before', async () => {
    const outcome = await backtest('run-failed', EveryBar);
    expect(outcome.status).toBe('failed');
    const stored = new RunRepository(db.connection).get('run-failed');
    expect(stored?.status).toBe('failed');
    expect(stored?.stats).toMatchObject({ failure: outcome.failure?.message });
    expect(new RunRepository(db.connection).trades('run-failed')).toHaveLength(outcome.trades.length);
  });

  it('stores a run whose rows could not be written as failed, with the write error, and throws it', async () => {
    // every journal row refused, as a full disk would (the writer thread's batch rolls back)
    db.connection.exec(
      "CREATE TRIGGER no_journal BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'simulated full disk'); END",
    );
    const run = backtest('run-unwritten', Lasting);
    await expect(run).rejects.toThrow(StoreError);
    await expect(run).rejects.toMatchObject({ code: 'write-failed', message: /simulated full disk/ });
    const stored = new RunRepository(db.connection).get('run-unwritten');
    expect(stored?.status).toBe('failed');
    expect(stored?.stats).toMatchObject({ failure: expect.stringMatching(/simulated full disk/) });
    expect(db.journal.readFrom(1, 10_000)).toEqual([]);
  });

  it('stops at an abort (Ctrl-C) between bars, even with a strategy that never awaits: onStop runs, the run is stored as stopped with what it did', async () => {
    // 2 × 200,000 one-minute bars; the strategy trades every 1,000th bar and, on its first bar, asks
    // for an abort from a timer: a timer fires only when the loop gives the event loop a turn
    const n = 200_000;
    const series = ['000660', '005930'].map((symbol, k) => {
      const ts = Float64Array.from({ length: n }, (_, i) => T0 + i * 60_000);
      const close = Float64Array.from({ length: n }, (_, i) => 70_000 * (k + 1) + (i % 50) * 100);
      const volume = new Float64Array(n).fill(1_000_000);
      return {
        symbol,
        interval: '1m' as const,
        columns: { ts, closeTime: ts, open: close, high: close, low: close, close, volume, length: n },
      };
    });
    const abort = new AbortController();
    const stops: number[] = [];
    class Interrupted extends Strategy {
      n = 0;
      override onBar(bar: Bar): void {
        if (++this.n === 1) setTimeout(() => abort.abort(), 0);
        if (this.n % 1_000 !== 0 || this.ctx.openOrders(bar.symbol).length > 0) return;
        const position = this.ctx.position(bar.symbol);
        if (position === undefined) this.ctx.buy(bar.symbol, 1);
        else this.ctx.sell(bar.symbol, position.quantity);
      }
      override onStop(): void {
        stops.push(this.n);
      }
    }
    const outcome = await backtest('run-interrupted', Interrupted, [], {
      feed: BarFeed.fromSeries(series, T0),
      signal: abort.signal,
    });
    expect(outcome.status).toBe('stopped');
    expect(outcome.failure).toBeNull();
    expect(outcome.bars).toBeGreaterThan(0);
    expect(outcome.bars).toBeLessThan(50_000);
    expect(stops).toEqual([outcome.bars]);
    const runs = new RunRepository(db.connection);
    expect(runs.get('run-interrupted')).toMatchObject({ status: 'stopped', endedAt: 2_000 });
    expect(runs.get('run-interrupted')?.stats).toMatchObject({ bars: outcome.bars, failure: null });
    expect(runs.trades('run-interrupted').map(tradeRow)).toEqual(outcome.trades.map(tradeRow));
    expect(runs.equity('run-interrupted')).toEqual(
      outcome.equity.map((p) => ({ time: p.time, equity: p.equity })),
    );
    // the last equity point is the last bar's, not the end of the bars the run did not reach
    expect(outcome.equity.at(-1)?.time).toBeLessThan(T0 + n * 60_000);
  });

  it('stops before any hook when the run id is already stored, writing nothing more', async () => {
    await backtest('run-twice', EveryBar);
    const journalRows = db.journal.readFrom(1, 10_000).length;
    const started: boolean[] = [];
    class Second extends EveryBar {
      override onStart(): void {
        started.push(true);
      }
    }
    await expect(backtest('run-twice', Second)).rejects.toThrow(StoreError);
    expect(started).toEqual([]);
    expect(db.journal.readFrom(1, 10_000)).toHaveLength(journalRows);
  });
});

/**
 * A live or paper session appends each fill of its strategies to its stored run as it is routed;
 * the statistics at its stop are taken from the stored fills, so a session left running for weeks
 * does not also hold every fill in memory (before, each was kept in a list until the stop). Only
 * the fills the store refused are kept, and the statistics still count them, in the order routed.
 * A real SQLite file.
 */
import { createLogger, Decimal, type Fill, type OrderEvent } from '@hoga/core';
import { RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Portfolio } from '../portfolio/portfolio.js';
import type { EngineRuntime } from '../runtime/engine-runtime.js';
import type { RunSettings } from '../runtime/tokens.js';
import { Closers, openTempDb } from './live-run.test-helper.js';
import { SessionRecord } from './session-record.js';

const closers = new Closers();
afterEach(() => {
  vi.restoreAllMocks();
  closers.closeAll();
});

const T0 = Date.parse('2026-11-23T10:00:00+09:00');
const ZERO = new Decimal(0);

/** A session of strategy `s1` on 005930 whose fills are routed by `route`. */
function session(runId: string) {
  const db = openTempDb(closers, 'hoga-session-trades-');
  let listener: ((fill: Fill, event: OrderEvent) => void) | undefined;
  const runtime = {
    hosts: [{ strategyId: 's1', config: {} }],
    failure: null,
    onFillRouted: (l: (fill: Fill, event: OrderEvent) => void) => {
      listener = l;
    },
  } as unknown as EngineRuntime;
  const totals = { cash: ZERO, realizedPnl: ZERO, commissions: ZERO, taxes: ZERO };
  const curve: { time: number; equity: number }[] = [];
  const portfolio = {
    recordEquity: (at?: number) => curve.push({ time: at ?? T0, equity: 1_000_000 }),
    equityCurve: () => curve,
    strategies: () => ['s1'],
    book: () => ({ totals: () => totals }),
    unrealizedPnl: () => ZERO,
  } as unknown as Portfolio;
  const settings = { runId, mode: 'paper', symbols: ['005930'], interval: '1m' } as unknown as RunSettings;
  const record = new SessionRecord({
    settings,
    strategies: [],
    db,
    runtime,
    portfolio,
    now: () => T0,
    logger: createLogger({ level: 'silent' }),
  });
  closers.add(() => record.stopDayCheck());
  let n = 0;
  /** Routes a fill of `s1`: buys at 100, sells at `price`. */
  const route = (side: 'BUY' | 'SELL', price: number): void => {
    n++;
    const fill = {
      fillId: `f${n}`,
      symbol: '005930',
      side,
      quantity: new Decimal(1),
      price: new Decimal(price),
      commission: { amount: new Decimal(1), currency: 'KRW' },
      tsEvent: T0 + n,
    } as unknown as Fill;
    listener?.(fill, { strategyId: 's1' } as unknown as OrderEvent);
  };
  const stats = () =>
    new RunRepository(db.connection).get(runId)?.stats as
      | { trades: number; roundTrips: number; wins: number; commissions: Record<string, string> }
      | undefined;
  return { record, route, stats };
}

describe("a session's fills", () => {
  it('are not held in memory while the store takes them; the statistics count them all', () => {
    const { record, route, stats } = session('kept-none');
    for (let i = 0; i < 300; i++) {
      route('BUY', 100);
      route('SELL', i % 3 === 0 ? 90 : 110);
    }
    expect(record.keptTrades).toBe(0);
    record.finish();
    expect(stats()).toMatchObject({ trades: 600, roundTrips: 300, wins: 200, commissions: { KRW: '600' } });
  });

  it('keeps those the store refused, and counts them in the order routed', () => {
    const { record, route, stats } = session('kept-refused');
    const append = RunRepository.prototype.appendTrades;
    let calls = 0;
    vi.spyOn(RunRepository.prototype, 'appendTrades').mockImplementation(function (
      this: RunRepository,
      ...a
    ) {
      calls++;
      // the 2nd and 3rd fills (a sell, then a buy) are refused
      if (calls === 2 || calls === 3) throw new Error('SQLITE_BUSY: database is locked');
      return append.apply(this, a);
    });
    route('BUY', 100);
    route('SELL', 110);
    route('BUY', 100);
    route('SELL', 90);
    expect(record.keptTrades).toBe(2);
    record.finish();
    // in the order routed: a win (100 → 110), then a loss (100 → 90)
    expect(stats()).toMatchObject({ trades: 4, roundTrips: 2, wins: 1 });
  });
});

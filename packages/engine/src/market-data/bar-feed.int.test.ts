/**
 * The bars a backtest reads from the candle cache, over a real SQLite file: `BarFeed.fromStore`
 * (the run's bars with their warm-up), `priorDailyBars` (each symbol's last daily candle closed by
 * the run's start, never one that closes after it) and `priorCloseTargets` (the range its download
 * covers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { CandleBarReader, HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BarFeed } from './bar-feed.js';
import { priorCloseTargets } from './candle-downloader.js';
import { priorDailyBars } from './prior-bars.js';

let dir: string;
let db: HogaDatabase;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-feed-'));
  db = HogaDatabase.open(join(dir, 'hoga.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const day = (date: string) => Date.parse(`${date}T00:00:00+09:00`);
const dates = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-23'];
const store = (symbol: string, closeOf: (i: number) => number) => {
  db.candles.store(
    { symbol, interval: '1d', adjusted: true },
    { start: day('2026-11-01'), end: day('2026-12-01') },
    dates.map((d, i) => {
      const c = new Decimal(closeOf(i));
      return { ts: day(d), open: c, high: c, low: c, close: c, volume: new Decimal(1000) };
    }),
  );
};

describe('BarFeed.fromStore', () => {
  it('reads each symbol from the cache with its warm-up bars and delivers them merged by close time', () => {
    store('005930', (i) => 70_000 + i * 100);
    store('AAPL', (i) => 190 + i);
    const feed = BarFeed.fromStore(new CandleBarReader(db.connection), {
      symbols: ['AAPL', '005930'],
      interval: '1d',
      fromTs: day('2026-11-19'),
      toTs: day('2026-11-24'),
      warmupBars: 2,
    });
    const seen = (c: ReturnType<BarFeed['cursor']>) => {
      const out: string[] = [];
      while (c.next()) out.push(`${c.current.symbol}:${c.current.close}`);
      return out;
    };
    // Warm-up: the two bars before 11-19 of each symbol (US 11-18 closes at 06:00 KST on 11-19).
    expect(seen(feed.warmup())).toEqual(['005930:70100', 'AAPL:191', '005930:70200', 'AAPL:192']);
    expect(seen(feed.main())).toEqual([
      '005930:70300',
      'AAPL:193',
      '005930:70400',
      'AAPL:194',
      '005930:70500',
      'AAPL:195',
    ]);
  });

  it('gives a symbol without cached bars an empty series, and warm-up shorter than asked when the cache has less', () => {
    store('005930', (i) => 70_000 + i * 100);
    const feed = BarFeed.fromStore(new CandleBarReader(db.connection), {
      symbols: ['005930', '000660'],
      interval: '1d',
      fromTs: day('2026-11-17'),
      toTs: day('2026-11-18'),
      warmupBars: 5,
    });
    expect(feed.series.map((s) => [s.symbol, s.columns.length])).toEqual([
      ['000660', 0],
      ['005930', 2],
    ]);
  });
});

describe('priorDailyBars', () => {
  beforeEach(() => {
    store('005930', (i) => 70_000 + i * 100);
    store('AAPL', (i) => 190 + i);
  });
  const read = (atMs: number, symbols = ['005930', 'AAPL', '000660']) =>
    priorDailyBars(new CandleBarReader(db.connection), symbols, atMs).map((b) => [
      b.symbol,
      new Date(b.ts).toISOString(),
      b.close,
    ]);

  it("gives each symbol's last daily candle closed by the start, and leaves out one with none cached", () => {
    // a KR day's start: 11-18's KR candle closed at 15:30 KST; AAPL's of 11-18 (New York) closes at
    // 06:00 KST on 11-19, after the start: its 11-17 candle is the last it closed
    expect(read(day('2026-11-19'))).toEqual([
      ['005930', '2026-11-17T15:00:00.000Z', 70_200],
      ['AAPL', '2026-11-16T15:00:00.000Z', 191],
    ]);
  });

  it('leaves the day of a start during its session to the day before (its candle closes later)', () => {
    const at = Date.parse('2026-11-19T10:00:00+09:00');
    expect(read(at, ['005930'])).toEqual([['005930', '2026-11-17T15:00:00.000Z', 70_200]]);
    // at its close, the day's own candle is the last price: 16:30 on 2026-11-19, the CSAT day
    // (the KRX opens an hour late and closes an hour late)
    expect(read(Date.parse('2026-11-19T15:30:00+09:00'), ['005930'])).toEqual([
      ['005930', '2026-11-17T15:00:00.000Z', 70_200],
    ]);
    expect(read(Date.parse('2026-11-19T16:30:00+09:00'), ['005930'])).toEqual([
      ['005930', '2026-11-18T15:00:00.000Z', 70_300],
    ]);
  });

  it('gives nothing before the first cached candle closed', () => {
    expect(read(day('2026-11-16'))).toEqual([]);
  });
});

describe('priorCloseTargets', () => {
  it('covers the twelve calendar days before the first trading date of --from, for each symbol', () => {
    const targets = priorCloseTargets(['005930', 'AAPL'], '2026-11-19');
    expect(targets).toEqual([
      { symbol: '005930', range: { start: day('2026-11-07'), end: day('2026-11-19') } },
      { symbol: 'AAPL', range: { start: day('2026-11-07'), end: day('2026-11-19') } },
    ]);
    // a date-time: the first daily candle closing at or after it (its day's, before 15:30)
    expect(priorCloseTargets(['005930'], '2026-11-18T10:00:00+09:00')[0]?.range.end).toBe(day('2026-11-18'));
    expect(priorCloseTargets(['005930'], '2026-11-18T16:00:00+09:00')[0]?.range.end).toBe(day('2026-11-19'));
  });
});

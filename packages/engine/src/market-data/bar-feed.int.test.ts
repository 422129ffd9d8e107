import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { CandleBarReader, HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BarFeed } from './bar-feed.js';

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

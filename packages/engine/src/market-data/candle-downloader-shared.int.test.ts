/**
 * A download of several symbols beside another process filling the same file (a second `hoga data
 * download`, a backtest filling its gaps): a symbol the other one has downloaded by the time this
 * one reaches it is not asked again. Before, the gaps of every symbol were looked up once, before
 * the first request, and a symbol filled meanwhile was downloaded a second time, spending the
 * chart group's rate budget (shared by both processes at the broker) on candles already cached.
 * Simulator over HTTP, two connections to one real SQLite file.
 */
import { describe, expect, it } from 'vitest';
import { candleDownloadSetup } from './candle-download.test-helper.js';
import { downloadTargets } from './candle-downloader.js';
import { type DownloadProgress, progressLine } from './download-progress.js';

const { open, downloader } = candleDownloadSetup('hoga-dl-shared-');
const ALL = { start: 0, end: Number.MAX_SAFE_INTEGER };

describe('CandleDownloader beside another process filling the same file', () => {
  it('does not download again a symbol the other one filled before this one reached it', async () => {
    const aapl = { symbol: 'AAPL', interval: '1d', adjusted: true } as const;
    const targets = downloadTargets(['005930', 'AAPL'], '1d', '2026-01-02', '2026-11-20');
    const aaplTarget = targets[1] as (typeof targets)[number];
    // what the other process stores: AAPL's range, as the broker serves it
    const source = open('source.sqlite');
    await downloader(source).ensure('1d', [aaplTarget]);

    const file = 'shared.sqlite';
    const mine = open(file);
    const other = open(file);
    const events: DownloadProgress[] = [];
    const summary = await downloader(mine, (e) => {
      events.push(e);
      // the other process finishes AAPL while this one downloads 005930
      if (e.type === 'PageStored' && e.symbol === '005930' && e.pages === 1) {
        other.candles.store(aapl, aaplTarget.range, source.candles.get(aapl, ALL));
      }
    }).ensure('1d', targets);

    const completed = events.filter((e) => e.type === 'SymbolCompleted');
    expect(completed.map((e) => progressLine(e, '1d'))).toEqual([
      expect.stringMatching(/^005930 1d: downloaded \d+ candles in 2 pages$/),
      'AAPL 1d: cached',
    ]);
    expect(summary.pages).toBe(2);
    expect(summary.cachedSymbols).toEqual(['AAPL']);
    expect(mine.candles.get(aapl, ALL)).toEqual(source.candles.get(aapl, ALL));
  });
});

/**
 * A cached series extended backwards (a backtest's `--from` moved earlier) after a corporate action
 * the broker has adjusted its history for since: the new, older candles come on the new basis, the
 * cached newer ones are on the old one. Before, only a gap filled forwards was checked (its last
 * page reaches below it into cached candles), so the cache kept both bases side by side: a fake
 * price jump where the old cache began, which a backtest traded on. Simulator over HTTP, real
 * SQLite files.
 */
import type { HogaDatabase } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import { candleDownloadSetup } from './candle-download.test-helper.js';
import { type CandleDownloader, downloadTargets } from './candle-downloader.js';
import { type DownloadProgress, progressLine } from './download-progress.js';

const files = candleDownloadSetup('hoga-dl-back-');
const { open } = files;
function downloader(db: HogaDatabase, events: DownloadProgress[] = []): CandleDownloader {
  return files.downloader(db, (e) => events.push(e));
}
/** Doubles every cached price of a series: the cache on the basis before a 2:1 split. */
function onOldBasis(db: HogaDatabase, symbol: string, interval: string): void {
  db.connection
    .prepare(
      `UPDATE candles SET open = CAST(open AS INTEGER) * 2, high = CAST(high AS INTEGER) * 2,
         low = CAST(low AS INTEGER) * 2, close = CAST(close AS INTEGER) * 2
       WHERE symbol = ? AND interval = ?`,
    )
    .run(symbol, interval);
}
const ALL = { start: 0, end: Number.MAX_SAFE_INTEGER };

describe('CandleDownloader extending a cached series backwards', () => {
  it('downloads the series again when its cached candles no longer match the broker’s adjusted prices', async () => {
    const dailyKey = { symbol: '005930', interval: '1d', adjusted: true } as const;
    const november = downloadTargets(['005930'], '1d', '2026-11-02', '2026-11-20');
    const extended = downloadTargets(['005930'], '1d', '2026-10-01', '2026-11-20');
    const fresh = open('fresh.sqlite');
    await downloader(fresh).ensure('1d', extended);
    const broker = fresh.candles.get(dailyKey, ALL);

    const db = open('readjusted.sqlite');
    await downloader(db).ensure('1d', november);
    onOldBasis(db, '005930', '1d');
    const events: DownloadProgress[] = [];
    await downloader(db, events).ensure('1d', extended);
    // before: October on the new basis next to November doubled, a fake jump at Nov 2
    expect(db.candles.get(dailyKey, ALL)).toEqual(broker);
    expect(db.candles.coverage(dailyKey)).toEqual(fresh.candles.coverage(dailyKey));
    const done = events.at(-1) as DownloadProgress;
    expect(done).toMatchObject({ type: 'SymbolCompleted', refreshed: true });
    expect(progressLine(done, '1d')).toMatch(/no longer matched the broker's adjusted prices/);
  });

  it('keeps the cached candles and asks no more pages than for the new day alone when they match (minute candles too)', async () => {
    const minuteKey = { symbol: '005930', interval: '1m', adjusted: true } as const;
    const db = open('matching.sqlite');
    await downloader(db).ensure('1m', downloadTargets(['005930'], '1m', '2026-11-24', '2026-11-24'));
    const kept = db.candles.get(minuteKey, ALL);
    const events: DownloadProgress[] = [];
    const summary = await downloader(db, events).ensure(
      '1m',
      downloadTargets(['005930'], '1m', '2026-11-23', '2026-11-24'),
    );
    const fresh = open('fresh-minutes.sqlite');
    const freshSummary = await downloader(fresh).ensure(
      '1m',
      downloadTargets(['005930'], '1m', '2026-11-23', '2026-11-23'),
    );
    expect(summary.pages).toBe(freshSummary.pages);
    expect(events.at(-1)).not.toHaveProperty('refreshed');
    expect(db.candles.get(minuteKey, ALL)).toEqual([...fresh.candles.get(minuteKey, ALL), ...kept]);
  });
});

/**
 * A corporate action re-adjusts every earlier price of the symbol, its minute candles as well as its
 * daily ones. Before, only the series whose gap showed it was downloaded again: the other interval's
 * cached candles stayed on the old basis, and a backtest reading both (a daily signal, minute fills)
 * saw a daily close half the minute closes of the same day; a later minute backtest inside the
 * cached range asked nothing and never found out.
 */
describe('CandleDownloader finding a symbol re-adjusted', () => {
  it('drops the cached candles of its other interval too, so they are downloaded again when asked', async () => {
    const dailyKey = { symbol: '005930', interval: '1d', adjusted: true } as const;
    const minuteKey = { symbol: '005930', interval: '1m', adjusted: true } as const;
    const day = downloadTargets(['005930'], '1m', '2026-10-30', '2026-10-30');
    const fresh = open('fresh-both.sqlite');
    await downloader(fresh).ensure('1m', day);
    const brokerMinutes = fresh.candles.get(minuteKey, ALL);

    const db = open('both.sqlite');
    await downloader(db).ensure('1d', downloadTargets(['005930'], '1d', '2026-10-01', '2026-10-30'));
    await downloader(db).ensure('1m', day);
    onOldBasis(db, '005930', '1d');
    onOldBasis(db, '005930', '1m');
    const events: DownloadProgress[] = [];
    await downloader(db, events).ensure('1d', downloadTargets(['005930'], '1d', '2026-10-01', '2026-11-20'));
    expect(events.at(-1)).toMatchObject({ type: 'SymbolCompleted', refreshed: true });
    expect(db.candles.coverage(dailyKey)).toHaveLength(1);
    expect(db.candles.coverage(minuteKey)).toEqual([]);
    await downloader(db).ensure('1m', day);
    expect(db.candles.get(minuteKey, ALL)).toEqual(brokerMinutes);
  });
});

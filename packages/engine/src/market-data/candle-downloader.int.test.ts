import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient, candlePages, MemoryTokenCache } from '@hoga/connector';
import { VirtualClock } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CandleDownloader, downloadTargets } from './candle-downloader.js';
import {
  type DownloadProgress,
  downloadedShare,
  type PageStored,
  progressLine,
} from './download-progress.js';

const NOW = '2026-11-25T12:00:00.000+09:00';
let sim: SimulatorHandle;
let dir: string;
let clients: BrokerClient[] = [];
const dbs: HogaDatabase[] = [];

beforeAll(async () => {
  // Rate limits on: the downloader must stay inside the chart group's budget on its own.
  sim = await startSimulator({ port: 0, seed: 7, start: NOW, speed: 0, control: true });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-dl-'));
});
afterEach(() => {
  for (const c of clients) c.close();
  clients = [];
  for (const d of dbs.splice(0)) d.close();
  rmSync(dir, { recursive: true, force: true });
});

const clock = () => new VirtualClock(DateTime.fromISO(NOW).toMillis());
function client(): BrokerClient {
  const c = new BrokerClient({
    clock: clock(),
    tokenCache: new MemoryTokenCache(),
    config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
  });
  clients.push(c);
  return c;
}
function open(name: string): HogaDatabase {
  const db = HogaDatabase.open(join(dir, name));
  dbs.push(db);
  return db;
}
function downloader(
  db: HogaDatabase,
  events: DownloadProgress[] = [],
  signal?: AbortSignal,
  onEvent?: (e: DownloadProgress) => void,
) {
  return new CandleDownloader({
    client: client(),
    cache: db.candles,
    clock: clock(),
    onProgress: (e) => {
      events.push(e);
      onEvent?.(e);
    },
    ...(signal === undefined ? {} : { signal }),
  });
}
const chartRequests = () => sim.counters().requestsByGroup.MARKET_DATA_CHART ?? 0;
const key = { symbol: '005930', interval: '1m', adjusted: true } as const;
const TWO_DAYS = downloadTargets(['005930'], '1m', '2026-11-23', '2026-11-24');
const range = (TWO_DAYS[0] as (typeof TWO_DAYS)[number]).range;

describe('CandleDownloader', () => {
  describe('.ensure', () => {
    it('downloads a missing range page by page within the rate budget, exactly the broker’s candles', async () => {
      const db = open('a.sqlite');
      const events: DownloadProgress[] = [];
      const before = sim.counters().rateLimited ?? 0;
      const summary = await downloader(db, events).ensure('1m', TWO_DAYS);
      expect(sim.counters().rateLimited ?? 0).toBe(before); // no 429: the limiter kept the budget

      const expected: number[] = [];
      for await (const c of candlePages(client(), '005930', {
        interval: '1m',
        from: DateTime.fromMillis(range.start),
        to: DateTime.fromMillis(range.end),
      })) {
        expected.unshift(c.timestamp.toMillis());
      }
      const stored = db.candles.get(key, range).map((c) => c.ts);
      expect(stored).toEqual(expected);
      expect(stored.length).toBeGreaterThan(600);
      expect(db.candles.coverage(key)).toEqual([range]);
      expect(summary.candles).toBe(stored.length);
      expect(summary.pages).toBe(Math.ceil(stored.length / 200) + (stored.length % 200 === 0 ? 1 : 0));

      const types = events.map((e) => e.type).filter((t) => t !== 'RateBudgetWaiting');
      expect(types[0]).toBe('SymbolStarted');
      expect(types.at(-1)).toBe('SymbolCompleted');
      expect(types.filter((t) => t === 'PageStored')).toHaveLength(summary.pages);
      const last = events.filter((e) => e.type === 'PageStored').at(-1);
      expect(last).toMatchObject({ symbol: '005930', pages: summary.pages, candles: stored.length });
    });

    it('reports the range covered out of a total known before the first page: it never grows, and ends full', async () => {
      const db = open('progress.sqlite');
      // a day cached already: the download fetches the gaps around it
      await downloader(db).ensure('1m', downloadTargets(['005930'], '1m', '2026-11-19', '2026-11-19'));
      const targets = downloadTargets(['005930', 'AAPL'], '1m', '2026-11-18', '2026-11-20');
      const missing = targets
        .flatMap((t) => db.candles.missing({ ...key, symbol: t.symbol }, t.range))
        .reduce((n, g) => n + (g.end - g.start), 0);
      const events: DownloadProgress[] = [];
      await downloader(db, events).ensure('1m', targets);
      const pages = events.filter((e) => e.type === 'PageStored');
      expect(pages.length).toBeGreaterThan(5);
      expect(new Set(pages.map((p) => p.totalMs))).toEqual(new Set([missing]));
      const covered = pages.map((p) => p.coveredMs);
      expect(covered).toEqual([...covered].sort((a, b) => a - b));
      expect(new Set(covered).size).toBe(covered.length);
      expect(covered.at(-1)).toBe(missing);
      expect(downloadedShare(pages.at(-1) as PageStored)).toBe(1);
      expect(pages.at(-1)?.etaMs).toBe(0);
    });

    it('keeps what it stored when interrupted, and a rerun fetches only the gap', async () => {
      const whole = open('whole.sqlite');
      const full = await downloader(whole).ensure('1m', TWO_DAYS);

      const db = open('resumed.sqlite');
      const abort = new AbortController();
      const interrupted = downloader(db, [], abort.signal, (e) => {
        if (e.type === 'PageStored' && e.pages === 2) abort.abort();
      });
      await expect(interrupted.ensure('1m', TWO_DAYS)).rejects.toThrow();
      const partial = db.candles.coverage(key);
      expect(partial).toHaveLength(1);
      expect(partial[0]?.end).toBe(range.end);
      expect(db.candles.get(key, range)).toHaveLength(400);

      const requestsBefore = chartRequests();
      const refusedBefore = sim.counters().rateLimited ?? 0;
      const rerun = await downloader(db).ensure('1m', TWO_DAYS);
      // Answered requests (a 429 from the simulator's bucket, drained by the runs before, is retried)
      const refused = (sim.counters().rateLimited ?? 0) - refusedBefore;
      expect(chartRequests() - requestsBefore - refused).toBe(full.pages - 2);
      expect(rerun.pages).toBe(full.pages - 2);
      expect(db.candles.coverage(key)).toEqual([range]);
      expect(db.candles.get(key, range)).toEqual(whole.candles.get(key, range));
    });

    it('finishes through a 429 storm longer than the connector’s retries, with exactly the broker’s candles', async () => {
      const whole = open('calm.sqlite');
      await downloader(whole).ensure('1m', TWO_DAYS);
      // Before, the page the connector gave up on (its retries all answered 429) failed the
      // download. One retry (2 answers of 429 in a row, each asking to wait its 1 s Retry-After)
      // and a storm of 3: the connector gives the page up once, as with its default 4 retries and
      // a storm of 7, in 3 s of Retry-After instead of 7.
      const stormy = new BrokerClient({
        clock: clock(),
        tokenCache: new MemoryTokenCache(),
        config: {
          baseUrl: sim.url,
          clientId: 'sim-client',
          clientSecret: 'sim-secret',
          backoffBaseMs: 10,
          backoffMaxMs: 50,
          maxRetries: 1,
        },
      });
      clients.push(stormy);
      const db = open('storm.sqlite');
      const refusedBefore = sim.counters().rateLimited ?? 0;
      sim.injectFault({ kind: 'rate-limit-burst', path: '/api/v1/candles*', count: 3 });
      try {
        await new CandleDownloader({ client: stormy, cache: db.candles, clock: clock() }).ensure(
          '1m',
          TWO_DAYS,
        );
      } finally {
        sim.clearFaults();
      }
      expect((sim.counters().rateLimited ?? 0) - refusedBefore).toBeGreaterThanOrEqual(3);
      expect(db.candles.coverage(key)).toEqual([range]);
      expect(db.candles.get(key, range)).toEqual(whole.candles.get(key, range));
    });

    it('an abort while a page request waits leaves no unhandled rejection (hoga data crashed on Ctrl-C)', async () => {
      const db = open('aborted.sqlite');
      const abort = new AbortController();
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        // the abort lands while the page request is in flight and not yet awaited (the downloader
        // yields once to report a rate-limit wait)
        const interrupted = downloader(db, [], abort.signal, (e) => {
          if (e.type === 'SymbolStarted') setImmediate(() => abort.abort());
        });
        await expect(interrupted.ensure('1m', TWO_DAYS)).rejects.toThrow(/abort/);
        await new Promise((r) => setTimeout(r, 50));
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
      expect(unhandled).toEqual([]);
    });

    it('makes no request for a range already covered', async () => {
      const db = open('c.sqlite');
      await downloader(db).ensure('1m', TWO_DAYS);
      const requestsBefore = chartRequests();
      const events: DownloadProgress[] = [];
      const again = await downloader(db, events).ensure('1m', TWO_DAYS);
      expect(chartRequests()).toBe(requestsBefore);
      expect(again).toEqual({ pages: 0, candles: 0, cachedSymbols: ['005930'] });
      expect(events.at(-1)).toMatchObject({ type: 'SymbolCompleted', cached: true });
    });

    it('never stores the minute still forming: today’s range ends at the last complete minute', async () => {
      const db = open('d.sqlite');
      await downloader(db).ensure('1m', downloadTargets(['005930'], '1m', '2026-11-25', '2026-11-25'));
      // at 12:00:00 the minute ending now counts as complete only 10 s later: 11:59 is the last
      const last = DateTime.fromISO(NOW).toMillis() - 60_000;
      const coverage = db.candles.coverage(key);
      expect(coverage.at(-1)?.end).toBe(last + 1);
      const stamps = db.candles.get(key, { start: 0, end: last + 86_400_000 }).map((c) => c.ts);
      expect(Math.max(...stamps)).toBe(last);
    });

    it('says a range after the last complete candle is not traded yet, not that it is cached', async () => {
      const db = open('f.sqlite');
      const events: DownloadProgress[] = [];
      const requestsBefore = chartRequests();
      const result = await downloader(db, events).ensure(
        '1d',
        downloadTargets(['005930'], '1d', '2026-12-01', '2026-12-04'),
      );
      expect(chartRequests()).toBe(requestsBefore);
      expect(result).toEqual({ pages: 0, candles: 0, cachedSymbols: [] });
      const done = events.at(-1);
      expect(done).toMatchObject({ type: 'SymbolCompleted', cached: false, future: true });
      expect(progressLine(done as DownloadProgress, '1d')).toBe(
        '005930 1d: nothing yet (the range starts after the last complete candle)',
      );
    });

    it('downloads a series again when its cached candles no longer match the broker’s adjusted prices (a corporate action since)', async () => {
      const dailyKey = { symbol: '005930', interval: '1d', adjusted: true } as const;
      const october = downloadTargets(['005930'], '1d', '2026-10-01', '2026-10-30');
      const extended = downloadTargets(['005930'], '1d', '2026-10-01', '2026-11-20');
      const whole = (extended[0] as (typeof extended)[number]).range;
      const fresh = open('fresh.sqlite');
      await downloader(fresh).ensure('1d', extended);
      const broker = fresh.candles.get(dailyKey, whole);

      const db = open('readjusted.sqlite');
      await downloader(db).ensure('1d', october);
      // the cache holds October on the basis before a 2:1 split the broker has adjusted since
      db.connection.exec(
        `UPDATE candles SET open = CAST(open AS INTEGER) * 2, high = CAST(high AS INTEGER) * 2,
           low = CAST(low AS INTEGER) * 2, close = CAST(close AS INTEGER) * 2
         WHERE symbol = '005930' AND interval = '1d'`,
      );
      const events: DownloadProgress[] = [];
      await downloader(db, events).ensure('1d', extended);
      // before: October stayed doubled next to November's candles, a fake price jump at the seam
      expect(db.candles.get(dailyKey, whole)).toEqual(broker);
      expect(db.candles.coverage(dailyKey)).toEqual(fresh.candles.coverage(dailyKey));
      const done = events.at(-1) as DownloadProgress;
      expect(done).toMatchObject({ type: 'SymbolCompleted', refreshed: true });
      expect(progressLine(done, '1d')).toMatch(/no longer matched the broker's adjusted prices/);
    });

    it('keeps a cached series whose candle differs in a price or two only (a late-reported trade), and one that matches', async () => {
      const dailyKey = { symbol: '005930', interval: '1d', adjusted: true } as const;
      const db = open('late-report.sqlite');
      await downloader(db).ensure('1d', downloadTargets(['005930'], '1d', '2026-10-01', '2026-10-30'));
      db.connection.exec(
        `UPDATE candles SET high = CAST(high AS INTEGER) + 100 WHERE symbol = '005930' AND interval = '1d'`,
      );
      const kept = db.candles.get(dailyKey, { start: 0, end: Number.MAX_SAFE_INTEGER });
      const requestsBefore = chartRequests();
      const events: DownloadProgress[] = [];
      const summary = await downloader(db, events).ensure(
        '1d',
        downloadTargets(['005930'], '1d', '2026-10-01', '2026-11-20'),
      );
      expect(summary.pages).toBe(1);
      expect(chartRequests() - requestsBefore).toBeGreaterThanOrEqual(1);
      expect(events.at(-1)).not.toHaveProperty('refreshed');
      const october = db.candles.get(dailyKey, { start: 0, end: (kept.at(-1)?.ts ?? 0) + 1 });
      expect(october).toEqual(kept);
    });

    it('downloads US daily candles by New York trading date (stamped KST midnight)', async () => {
      const db = open('e.sqlite');
      const targets = downloadTargets(['AAPL'], '1d', '2026-11-02', '2026-11-20');
      await downloader(db).ensure('1d', targets);
      const usKey = { symbol: 'AAPL', interval: '1d', adjusted: true };
      const days = db.candles
        .get(usKey, { start: 0, end: Number.MAX_SAFE_INTEGER })
        .map((c) => DateTime.fromMillis(c.ts, { zone: 'Asia/Seoul' }).toFormat('yyyy-MM-dd HH:mm'));
      expect(days[0]).toBe('2026-11-02 00:00');
      expect(days.at(-1)).toBe('2026-11-20 00:00');
      expect(days).toHaveLength(15); // the weekdays of 2026-11-02..20 (the NYSE trades on Veterans Day)
    });
  });
});

/**
 * When a day's candle is complete enough to cache. Its open, high, low and close are the regular
 * session's, but its volume counts every trade of the day (spec, candle rules 7 and 13): the KRX's
 * after-market trades until 20:00 KST, a US trading day runs until 20:00 New York (rule 3). Before,
 * a download after the regular close (15:30 KST, 16:00 New York) stored the day's candle with the
 * volume of that moment, and the cache kept it: a rerun never fetched the day's final volume, and a
 * backtest's fills (a share of the bar's volume) depended on the hour of the download.
 * A day of special hours: the KRX's CSAT day's regular session runs until 16:30 KST, a NYSE early
 * close ends at 13:00 New York; neither moves the end of the day's trading.
 */
describe('CandleDownloader and the day still trading', () => {
  /** The daily candles `ensure` stores at `now` (its simulator and clock both there), as dates. */
  async function dailyDatesAt(now: string, symbol: string, from: string, to: string): Promise<string[]> {
    const daySim = await startSimulator({ port: 0, seed: 7, start: now, speed: 0, control: true });
    const at = new VirtualClock(DateTime.fromISO(now).toMillis());
    const c = new BrokerClient({
      clock: at,
      tokenCache: new MemoryTokenCache(),
      config: { baseUrl: daySim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
    });
    try {
      const db = open(`${symbol}-${now.slice(0, 16).replace(/\D/g, '')}.sqlite`);
      await new CandleDownloader({ client: c, cache: db.candles, clock: at }).ensure(
        '1d',
        downloadTargets([symbol], '1d', from, to),
      );
      return db.candles
        .get({ symbol, interval: '1d', adjusted: true }, { start: 0, end: Number.MAX_SAFE_INTEGER })
        .map((candle) => DateTime.fromMillis(candle.ts, { zone: 'Asia/Seoul' }).toISODate() ?? '');
    } finally {
      c.close();
      await daySim.close();
    }
  }

  it('leaves a KR day out after its 15:30 close while the after-market trades, and stores it after 20:00 KST', async () => {
    const during = await dailyDatesAt('2026-11-25T17:00:00.000+09:00', '005930', '2026-11-23', '2026-11-25');
    expect(during).toEqual(['2026-11-23', '2026-11-24']);
    const after = await dailyDatesAt('2026-11-25T20:05:00.000+09:00', '005930', '2026-11-23', '2026-11-25');
    expect(after).toEqual(['2026-11-23', '2026-11-24', '2026-11-25']);
  });

  it('leaves a US day out after its 16:00 close until its trading day ends at 20:00 New York', async () => {
    const during = await dailyDatesAt('2026-11-24T17:00:00.000-05:00', 'AAPL', '2026-11-23', '2026-11-24');
    expect(during).toEqual(['2026-11-23']);
    const after = await dailyDatesAt('2026-11-24T20:05:00.000-05:00', 'AAPL', '2026-11-23', '2026-11-24');
    expect(after).toEqual(['2026-11-23', '2026-11-24']);
  });

  it('leaves the CSAT day out while the KRX still trades (15:45 KST, and after its 16:30 close), and stores it after 20:00', async () => {
    const during = await dailyDatesAt('2026-11-19T15:45:00.000+09:00', '005930', '2026-11-16', '2026-11-19');
    expect(during).toEqual(['2026-11-16', '2026-11-17', '2026-11-18']);
    const afterClose = await dailyDatesAt(
      '2026-11-19T16:45:00.000+09:00',
      '005930',
      '2026-11-16',
      '2026-11-19',
    );
    expect(afterClose).toEqual(['2026-11-16', '2026-11-17', '2026-11-18']);
    const after = await dailyDatesAt('2026-11-19T20:05:00.000+09:00', '005930', '2026-11-16', '2026-11-19');
    expect(after).toEqual(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19']);
  });

  it('stores a NYSE early close day once its trading day has ended (20:00 New York), not at its 13:00 close', async () => {
    const during = await dailyDatesAt('2026-11-27T13:30:00.000-05:00', 'AAPL', '2026-11-23', '2026-11-27');
    // Thanksgiving (11-26) is a holiday
    expect(during).toEqual(['2026-11-23', '2026-11-24', '2026-11-25']);
    const dates = await dailyDatesAt('2026-11-27T20:05:00.000-05:00', 'AAPL', '2026-11-23', '2026-11-27');
    expect(dates).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-27']);
  });
});

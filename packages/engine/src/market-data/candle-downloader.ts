/**
 * Fills the store's candle cache for symbols × interval × range, downloading only what the cache
 * does not cover yet, page after page through the broker's candle pagination (`before` /
 * `nextBefore`) inside the chart group's rate budget (the connector's limiter; requests at
 * background priority so that a live engine's calls go first).
 *
 * Resumable: every page is stored with the range it proves covered (from its oldest candle up to
 * where the previous page began) in one transaction, so an interrupted download (Ctrl-C, a network
 * error) keeps what it fetched and a rerun asks only for the gap. Candles still forming (the current
 * minute, a day's candle before its trading ends: its volume counts after-hours trades) are never
 * stored.
 *
 * Progress goes to a callback as events (a CLI renders a bar on a TTY and plain lines otherwise, see
 * `download-progress.ts`). Time comes from the injected clock (ETA); nothing reads the wall clock.
 *
 * @module
 */

import { dayOrderExpiry } from '@hoga/broker-model';
import {
  type BrokerClient,
  type Candle,
  type CandlePage,
  RateLimitError,
  RequestPriority,
} from '@hoga/connector';
import {
  BarInterval,
  type Clock,
  dailyCandleStamp,
  Market,
  MINUTE_CANDLE_HISTORY_START,
  marketOfSymbol,
  RateLimitGroup,
} from '@hoga/core';
import type { CachedCandle, CandleCache, TimeRange } from '@hoga/store';
import { DateTime } from 'luxon';
import { cachedAbove, readjusted, readjustedBelow } from './candle-readjustment.js';
import type { DownloadProgress } from './download-progress.js';
import { firstStamp, tradingDateRange } from './trading-dates.js';

const MINUTE_MS = 60_000;
/**
 * How long after its end a candle counts as complete. A clock a few seconds ahead of the broker's
 * (common without time sync), and the broker's moment to close a minute, would otherwise store the
 * broker's candle of a minute still in progress there (spec, candle rule 14) as final, for good.
 */
const CLOSED_AFTER_MS = 10_000;
const DAY_MS = 86_400_000;
/**
 * Times a page the connector gave up on after its retries of 429 (each a round of back-offs) is
 * asked again before the download fails: a 429 storm of this many rounds in a row is an outage.
 */
const MAX_PAGE_REFUSALS = 5;

/** One series to make available. */
export interface CandleDownloadTarget {
  readonly symbol: string;
  /** Candle stamps `start <= ts < end` (see `tradingDateRange`). */
  readonly range: TimeRange;
}

/** Options of {@link CandleDownloader}. */
export interface CandleDownloaderOptions {
  readonly client: BrokerClient;
  readonly cache: CandleCache;
  /** Source of "now" (which candles are complete) and of elapsed time (ETA). */
  readonly clock: Clock;
  /** Candles per request, 1 to 200 (default 200). */
  readonly pageSize?: number;
  /** Corporate-action adjusted series (default true). */
  readonly adjusted?: boolean;
  /** Receives progress events. */
  readonly onProgress?: (event: DownloadProgress) => void;
  /** Stops the download between pages (what was stored stays). */
  readonly signal?: AbortSignal;
}

/** What a download did. */
export interface DownloadSummary {
  /** Requests made. */
  readonly pages: number;
  /** Candles stored. */
  readonly candles: number;
  /** Symbols whose range was already covered. */
  readonly cachedSymbols: readonly string[];
}

/**
 * The targets of `--symbols`, `--interval`, `--from`, `--to` (dates as trading dates of each
 * symbol's market), widened backwards to hold about `warmupBars` bars before the start. Symbols
 * whose range is empty (before the minute history) are left out.
 *
 * @param symbols - the symbols
 * @param interval - `1m` or `1d`
 * @param from - `YYYY-MM-DD` or a date-time with offset
 * @param to - `YYYY-MM-DD` or a date-time with offset (inclusive)
 * @param warmupBars - bars wanted before `from` (estimated in calendar days, generously)
 */
export function downloadTargets(
  symbols: readonly string[],
  interval: BarInterval,
  from: string,
  to: string,
  warmupBars = 0,
): CandleDownloadTarget[] {
  const targets: CandleDownloadTarget[] = [];
  for (const symbol of symbols) {
    const market = marketOfSymbol(symbol);
    const range = tradingDateRange(market, interval, from, to);
    if (range === null) continue;
    const start = warmupBars > 0 ? range.start - warmupDays(interval, warmupBars) * DAY_MS : range.start;
    targets.push({
      symbol,
      range: { start: Math.max(start, historyStart(market, interval)), end: range.end },
    });
  }
  return targets;
}

/**
 * The daily candles a backtest reads its symbols' last prices before its first bar from (see
 * `priorDailyBars`): for each symbol, the calendar days before its first trading date of `from` that
 * hold its last daily candle, with room for weekends and a long holiday (the New Year's, Chuseok's).
 *
 * @param symbols - the run's symbols
 * @param from - the run's `--from`: `YYYY-MM-DD` or a date-time with offset
 */
export function priorCloseTargets(symbols: readonly string[], from: string): CandleDownloadTarget[] {
  const targets: CandleDownloadTarget[] = [];
  for (const symbol of symbols) {
    const first = firstStamp(marketOfSymbol(symbol), BarInterval.DAY, from);
    targets.push({ symbol, range: { start: first - warmupDays(BarInterval.DAY, 1) * DAY_MS, end: first } });
  }
  return targets;
}

/** Calendar days that hold `bars` bars with room for weekends and holidays. */
function warmupDays(interval: BarInterval, bars: number): number {
  return interval === '1d' ? Math.ceil((bars * 7) / 5) + 10 : Math.ceil(bars / 380) * 2 + 4;
}

function historyStart(market: Market, interval: BarInterval): number {
  if (interval !== '1m') return Number.MIN_SAFE_INTEGER;
  const date = MINUTE_CANDLE_HISTORY_START[market];
  return tradingDateRange(market, interval, date, date)?.start ?? Number.MIN_SAFE_INTEGER;
}

/**
 * Candle stamps before this are complete at `now` (the current minute or day is still forming),
 * counting a candle complete 10 s after its end (see `CLOSED_AFTER_MS`).
 * A day's candle counts every trade of the day in its volume (spec, candle rules 7 and 13), so it
 * is complete once the day's trading has ended, not at the regular close: a KR day at 20:00 KST
 * (the after-market's end), a US day when its trading day ends at 20:00 New York (rule 3), when
 * it is no longer today's. Before, a download after the regular close stored the day's volume of
 * that moment, and the cache kept it.
 */
export function completeBefore(market: Market, interval: BarInterval, now: number): number {
  // what the broker has surely closed: this machine's clock may run a little ahead of the broker's
  const at = now - CLOSED_AFTER_MS;
  if (interval === '1m') return Math.floor(at / MINUTE_MS) * MINUTE_MS + 1;
  const today = dailyCandleStamp(market, DateTime.fromMillis(at)).toMillis();
  // a KR day's last trades end with its after-market at 20:00 KST (spec, candle rule 6): when the
  // broker ends its DAY orders
  return market === Market.KR && at >= dayOrderExpiry(Market.KR, today) ? today + 1 : today;
}

/**
 * Ensures the candle cache covers each target, downloading only the missing ranges.
 *
 * @example
 * ```ts
 * const downloader = new CandleDownloader({ client, cache: db.candles, clock: new LiveClock(),
 *   onProgress: (e) => renderer.update(e) });
 * await downloader.ensure('1m', downloadTargets(['005930', 'AAPL'], '1m', '2024-01-02', '2024-03-29'));
 * ```
 */
export class CandleDownloader {
  private readonly pageSize: number;
  private readonly adjusted: boolean;

  /** @param options - see {@link CandleDownloaderOptions} */
  constructor(private readonly options: CandleDownloaderOptions) {
    this.pageSize = options.pageSize ?? 200;
    this.adjusted = options.adjusted ?? true;
  }

  /**
   * Downloads what the cache lacks of each target, one symbol after another.
   *
   * @param interval - `1m` or `1d`
   * @param targets - symbols and their candle-stamp ranges
   * @throws the connector's error of a failed page (what was stored before it stays), or an abort
   */
  async ensure(interval: BarInterval, targets: readonly CandleDownloadTarget[]): Promise<DownloadSummary> {
    const { cache, clock } = this.options;
    const plans = targets.map((t) => {
      const market = marketOfSymbol(t.symbol);
      const end = Math.min(t.range.end, completeBefore(market, interval, clock.nowMs()));
      const key = { symbol: t.symbol, interval, adjusted: this.adjusted };
      // a range starting after the last complete candle has nothing to fetch yet (not "cached")
      const future = end <= t.range.start;
      const gaps = future ? [] : cache.missing(key, { start: t.range.start, end });
      return { target: t, key, end, gaps, future };
    });
    const progress = {
      totalPages: 0,
      totalMs: plans.reduce((n, p) => n + span(p.gaps), 0),
      coveredMs: 0,
      began: clock.nowMs(),
    };
    let candles = 0;
    const cachedSymbols: string[] = [];
    for (let i = 0; i < plans.length; i++) {
      const plan = plans[i] as (typeof plans)[number];
      const symbol = plan.target.symbol;
      // asked again as the symbol starts: another process on the file (a second download, a
      // backtest filling its gaps) may have filled some since; before, they were fetched again
      const gaps = plan.future
        ? []
        : cache.missing(plan.key, { start: plan.target.range.start, end: plan.end });
      progress.totalMs += span(gaps) - span(plan.gaps);
      const cached = gaps.length === 0 && !plan.future;
      this.emit({
        type: 'SymbolStarted',
        symbol,
        index: i,
        symbols: plans.length,
        missingRanges: gaps.length,
        time: clock.nowMs(),
      });
      if (cached) cachedSymbols.push(symbol);
      let pages = 0;
      let stored = 0;
      let refreshed = false;
      for (let g = 0; g < gaps.length; g++) {
        const fill = await this.fillGap(plan.key, gaps[g] as TimeRange, (pageCandles, coveredMs) => {
          pages++;
          stored += pageCandles;
          progress.totalPages++;
          progress.coveredMs += coveredMs;
          const elapsed = clock.nowMs() - progress.began;
          const remaining = Math.max(0, progress.totalMs - progress.coveredMs);
          this.emit({
            type: 'PageStored',
            symbol,
            pages,
            candles: stored,
            totalPages: progress.totalPages,
            coveredMs: progress.coveredMs,
            totalMs: progress.totalMs,
            etaMs: progress.coveredMs <= 0 ? null : (elapsed / progress.coveredMs) * remaining,
            time: clock.nowMs(),
          });
        });
        if (fill === 'stale' && !refreshed) {
          // the broker re-adjusted the series since it was cached: the whole range again, once;
          // the symbol's other interval is on the old basis too (a corporate action re-adjusts
          // every earlier price): dropped, so that its next use downloads it again
          refreshed = true;
          for (const each of Object.values(BarInterval)) cache.forget({ ...plan.key, interval: each });
          const again = { start: plan.target.range.start, end: plan.end };
          // what the later gaps of the symbol would have fetched is in the range fetched again
          for (const later of gaps.slice(g + 1)) progress.totalMs -= later.end - later.start;
          progress.totalMs += again.end - again.start;
          gaps.splice(g + 1, gaps.length, again);
        }
      }
      candles += stored;
      this.emit({
        type: 'SymbolCompleted',
        symbol,
        pages,
        candles: stored,
        cached,
        future: plan.future,
        ...(refreshed ? { refreshed } : {}),
        time: clock.nowMs(),
      });
    }
    return { pages: progress.totalPages, candles, cachedSymbols };
  }

  /**
   * Downloads one missing range, newest page first, storing each page with the range it covers;
   * when the broker has no older candles, the rest of the range is stored as covered (and empty).
   *
   * When the range ends where cached candles begin (a series extended backwards), the first page
   * is asked to reach up to the oldest of them, one candle more on that page (none more in pages).
   *
   * @returns `stale` when the last page, reaching below the range into cached candles, or the first
   *   page, reaching above it into them, shows the broker's adjusted prices changed since they were
   *   cached (see {@link readjusted}); else `filled`
   */
  private async fillGap(
    key: { readonly symbol: string; readonly interval: BarInterval; readonly adjusted: boolean },
    gap: TimeRange,
    onPage: (candles: number, coveredMs: number) => void,
  ): Promise<'filled' | 'stale'> {
    const { client, cache, signal } = this.options;
    let upper = gap.end;
    const above = cachedAbove(cache, key, gap.end);
    let before =
      DateTime.fromMillis(above === undefined ? gap.end : above.ts + 1)
        .setZone('Asia/Seoul')
        .toISO() ?? '';
    let refusals = 0;
    for (;;) {
      signal?.throwIfAborted();
      const request = client.getCandles(
        key.symbol,
        { interval: key.interval, count: this.pageSize, before, adjusted: key.adjusted },
        { priority: RequestPriority.POLL, ...(signal === undefined ? {} : { signal }) },
      );
      // handled at once: an abort while the report below yields rejects it before the await
      // (an unhandled rejection ends the process)
      request.catch(() => undefined);
      await this.reportRateWait(key.symbol, client);
      let page: CandlePage;
      try {
        page = await request;
      } catch (error) {
        // a 429 after the connector's retries is the broker saying "slower", not a failure: the
        // page is asked again (the limiter has slowed down); before, a 429 storm ended the download
        if (!(error instanceof RateLimitError) || ++refusals > MAX_PAGE_REFUSALS) throw error;
        continue;
      }
      refusals = 0;
      if (upper === gap.end && above !== undefined) {
        // the first page: a corporate action since re-adjusted the cached candles above the gap
        const same = page.candles.find((c) => c.timestamp.toMillis() === above.ts);
        if (same !== undefined && readjusted(above, same)) return 'stale';
      }
      const inGap: CachedCandle[] = [];
      let oldest = Number.POSITIVE_INFINITY;
      let reachedStart = false;
      const below = new Map<number, Candle>();
      for (const c of page.candles) {
        const ts = c.timestamp.toMillis();
        if (ts < gap.start) {
          reachedStart = true;
          below.set(ts, c);
          continue;
        }
        if (ts >= upper) continue;
        inGap.push(toCached(c, ts));
        if (ts < oldest) oldest = ts;
      }
      const last = reachedStart || page.nextBefore === null || page.candles.length === 0;
      const coveredFrom = last ? gap.start : Math.min(oldest, upper);
      if (coveredFrom < upper) cache.store(key, { start: coveredFrom, end: upper }, inGap);
      onPage(inGap.length, Math.max(0, upper - coveredFrom));
      if (last) return readjustedBelow(cache, key, below, gap.start) ? 'stale' : 'filled';
      upper = coveredFrom;
      const raw = (page.raw as { nextBefore?: unknown }).nextBefore;
      before = typeof raw === 'string' ? raw : (page.nextBefore?.toISO() ?? '');
    }
  }

  /** Emits `RateBudgetWaiting` when the page request queues for a chart-group token. */
  private async reportRateWait(symbol: string, client: BrokerClient): Promise<void> {
    if (this.options.onProgress === undefined) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    const queued = client.limiter.queueLength(RateLimitGroup.MARKET_DATA_CHART);
    if (queued > 0)
      this.emit({ type: 'RateBudgetWaiting', symbol, queued, time: this.options.clock.nowMs() });
  }

  private emit(event: DownloadProgress): void {
    this.options.onProgress?.(event);
  }
}

/** The time the ranges span together (ms). */
function span(ranges: readonly TimeRange[]): number {
  let ms = 0;
  for (const r of ranges) ms += r.end - r.start;
  return ms;
}

function toCached(c: Candle, ts: number): CachedCandle {
  return { ts, open: c.openPrice, high: c.highPrice, low: c.lowPrice, close: c.closePrice, volume: c.volume };
}

/**
 * Progress of a candle download as events, and the plain-text rendering of them (one line per
 * symbol, for logs and pipes). A terminal progress bar is the CLI's to draw from the same events
 * (the engine does not depend on a terminal library).
 *
 * @module
 */
import { counted } from '@hoga/core';

/** A symbol's download begins (`missingRanges` 0: everything is cached already). */
export interface SymbolStarted {
  readonly type: 'SymbolStarted';
  readonly symbol: string;
  /** 0-based position among the run's symbols. */
  readonly index: number;
  readonly symbols: number;
  readonly missingRanges: number;
  readonly time: number;
}

/** One page was downloaded and stored. */
export interface PageStored {
  readonly type: 'PageStored';
  readonly symbol: string;
  /** Pages of this symbol so far. */
  readonly pages: number;
  /** Candles of this symbol stored so far. */
  readonly candles: number;
  /** Pages of the whole download so far (a progress bar's total is {@link PageStored.totalMs}). */
  readonly totalPages: number;
  /**
   * Of the time ranges the whole download fetches (the cache's gaps of every symbol, known before
   * the first request), how much is covered so far, ms: each page covers from its oldest candle up
   * to where the one before began, the last page of a gap the rest of it. `totalMs` is fixed for
   * the download, except when a series is downloaded again whole (its cached candles no longer
   * matched the broker's adjusted prices): its range is then added.
   */
  readonly coveredMs: number;
  readonly totalMs: number;
  /** Estimated time left of the whole download, ms, from the share covered so far (null before the first page). */
  readonly etaMs: number | null;
  readonly time: number;
}

/** A page request is queued for a token of the chart group's rate budget. */
export interface RateBudgetWaiting {
  readonly type: 'RateBudgetWaiting';
  readonly symbol: string;
  /** Requests waiting in the group. */
  readonly queued: number;
  readonly time: number;
}

/** A symbol's range is now covered. */
export interface SymbolCompleted {
  readonly type: 'SymbolCompleted';
  readonly symbol: string;
  readonly pages: number;
  readonly candles: number;
  /** Nothing was missing. */
  readonly cached: boolean;
  /** The range starts after the last complete candle: nothing to fetch yet. */
  readonly future?: boolean;
  /**
   * The cached candles no longer matched the broker's adjusted prices (a corporate action since
   * they were cached): the symbol's cache was dropped (both intervals) and the whole range of
   * this one downloaded again.
   */
  readonly refreshed?: boolean;
  readonly time: number;
}

/** Every progress event of a candle download. */
export type DownloadProgress = SymbolStarted | PageStored | RateBudgetWaiting | SymbolCompleted;

/**
 * The share of a download done at a page, 0 to 1: the range covered over the ranges it fetches
 * (a total known before the first request, unlike the pages a download will take).
 */
export function downloadedShare(event: PageStored): number {
  return event.totalMs <= 0 ? 1 : Math.min(1, event.coveredMs / event.totalMs);
}

/** Formats a duration like `1m05s` or `12s`. */
export function formatEta(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '?';
  const s = Math.max(0, Math.round(ms / 1000));
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/**
 * The plain line a non-terminal output shows for an event: one per symbol when it completes, none
 * for the others.
 *
 * @param event - a progress event
 * @param interval - shown beside the symbol
 */
export function progressLine(event: DownloadProgress, interval: string): string | null {
  if (event.type !== 'SymbolCompleted') return null;
  if (event.future === true) {
    return `${event.symbol} ${interval}: nothing yet (the range starts after the last complete candle)`;
  }
  if (event.cached) return `${event.symbol} ${interval}: cached`;
  const pages = counted(event.pages, 'page');
  const again =
    event.refreshed === true
      ? " (the cached candles no longer matched the broker's adjusted prices, a corporate action since: downloaded again)"
      : '';
  if (event.candles === 0 && event.pages > 0) {
    // not a failure: the range is stored as covered (and empty), and not asked again
    return `${event.symbol} ${interval}: the broker has no candles in the range downloaded (before the listing or the minute history, a holiday, no trades): none stored${again}`;
  }
  const candles = counted(event.candles, 'candle');
  return `${event.symbol} ${interval}: downloaded ${candles} in ${pages}${again}`;
}

/**
 * Writes {@link progressLine}s to a text sink (stderr when the output is not a terminal).
 *
 * @param write - receives each line with its newline
 * @param interval - shown beside each symbol
 * @returns the progress callback for the downloader
 */
export function plainProgress(
  write: (text: string) => void,
  interval: string,
): (event: DownloadProgress) => void {
  return (event) => {
    const line = progressLine(event, interval);
    if (line !== null) write(`${line}\n`);
  };
}

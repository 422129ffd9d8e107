/**
 * Whether cached candles of an adjusted series are still on the broker's basis: a corporate action
 * re-adjusts every earlier price (spec, candle rules 8 and 9), and the candle downloader compares
 * a cached candle with the broker's of the same stamp at either end of a gap it fills.
 *
 * @module
 */

import type { Candle } from '@hoga/connector';
import type { BarInterval } from '@hoga/core';
import type { CachedCandle, CandleCache } from '@hoga/store';

type SeriesKey = { readonly symbol: string; readonly interval: BarInterval; readonly adjusted: boolean };

/**
 * The oldest cached candle of the covered range starting at `end` (the gap ends where it begins):
 * its stamp is the first candle the broker has at or after `end`, as it answered when that range
 * was downloaded.
 */
export function cachedAbove(cache: CandleCache, key: SeriesKey, end: number): CachedCandle | undefined {
  if (!key.adjusted) return undefined;
  const covered = cache.coverage(key).find((r) => r.start === end);
  return covered === undefined ? undefined : cache.first(key, covered);
}

/**
 * Whether the broker's candles `below` a range just downloaded (stamped before `start`, by stamp)
 * show that the cached series was adjusted again since it was cached (see {@link readjusted}). The
 * oldest cached candle the page holds too is compared, the one furthest from late reports.
 */
export function readjustedBelow(
  cache: CandleCache,
  key: SeriesKey,
  below: ReadonlyMap<number, Candle>,
  start: number,
): boolean {
  if (!key.adjusted || below.size === 0) return false;
  let from = start;
  for (const ts of below.keys()) if (ts < from) from = ts;
  const cached = cache.get(key, { start: from, end: start }).find((k) => below.has(k.ts));
  return cached !== undefined && readjusted(cached, below.get(cached.ts) as Candle);
}

/**
 * Whether a cached candle and the broker's candle of the same stamp show that the series was
 * adjusted again since it was cached: a corporate action re-adjusts every earlier price of an
 * adjusted series (spec, candle rules 8 and 9), so they then differ in open, high, low and close
 * alike. Only all four prices: a late-reported trade that changes a past US minute's high or close
 * (rule 12) is not taken for one.
 */
export function readjusted(cached: CachedCandle, c: Candle): boolean {
  return (
    !cached.open.eq(c.openPrice) &&
    !cached.high.eq(c.highPrice) &&
    !cached.low.eq(c.lowPrice) &&
    !cached.close.eq(c.closePrice)
  );
}

/**
 * Daily or minute candles of one symbol over a date range, downloaded through the connector at
 * most once: the store's candle cache records which ranges were already asked and answered, and
 * only the missing sub-ranges go to the broker. This is how a backtest gets its history.
 */
import { type BrokerClient, candlePages } from '@hoga/connector';
import type { CachedCandle, CandleSeriesKey, HogaDatabase } from '@hoga/store';

/** What {@link cachedCandles} did. */
export interface CachedCandlesResult {
  /** The candles of the range, oldest first. */
  readonly candles: readonly CachedCandle[];
  /** How many candles came from the broker in this call (0 when the cache covered the range). */
  readonly downloaded: number;
  /** How many missing sub-ranges were asked of the broker. */
  readonly rangesFetched: number;
}

/**
 * The candles of `key` with timestamps in `[fromMs, toMs)`, from the cache where it covers the
 * range and from the broker for the rest.
 */
export async function cachedCandles(
  client: BrokerClient,
  db: HogaDatabase,
  key: CandleSeriesKey & { readonly interval: '1m' | '1d' },
  fromMs: number,
  toMs: number,
): Promise<CachedCandlesResult> {
  const missing = db.candles.missing(key, { start: fromMs, end: toMs });
  let downloaded = 0;
  for (const gap of missing) {
    const page: CachedCandle[] = [];
    // `before` is exclusive, as the half-open range's end.
    for await (const c of candlePages(client, key.symbol, {
      interval: key.interval,
      adjusted: key.adjusted,
      from: new Date(gap.start).toISOString(),
      to: new Date(gap.end).toISOString(),
    })) {
      page.push({
        ts: c.timestamp.toMillis(),
        open: c.openPrice,
        high: c.highPrice,
        low: c.lowPrice,
        close: c.closePrice,
        volume: c.volume,
      });
    }
    db.candles.store(key, gap, page);
    downloaded += page.length;
  }
  return {
    candles: db.candles.get(key, { start: fromMs, end: toMs }),
    downloaded,
    rangesFetched: missing.length,
  };
}

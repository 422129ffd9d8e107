/**
 * Finds the new trades in a poll of the most recent trades (newest first, no trade id), given the
 * previous poll: the new list is "fresh trades, then a prefix of the previous list".
 *
 * @module
 */
import type { Trade } from '../schemas/market-data.js';

/** Result of comparing two polls. */
export interface TradeDiff {
  /** Trades not seen before, oldest first. */
  readonly fresh: readonly Trade[];
  /** True when no overlap was found although the poll was full: trades were missed. */
  readonly gap: boolean;
}

function same(a: Trade, b: Trade): boolean {
  return a.timestamp.toMillis() === b.timestamp.toMillis() && a.price.eq(b.price) && a.volume.eq(b.volume);
}

/**
 * New trades of `latest` relative to `previous` (both newest first).
 *
 * @param previous - the previous poll, or null for the first one (everything is fresh, no gap)
 * @param latest - this poll
 * @param pageSize - the `count` asked for (a full page without overlap means a gap)
 */
export function diffTrades(
  previous: readonly Trade[] | null,
  latest: readonly Trade[],
  pageSize: number,
): TradeDiff {
  if (previous === null) return { fresh: [...latest].reverse(), gap: false };
  // after a poll that listed nothing (before the open): a full page may not hold all that came since
  // (before, never a gap)
  if (previous.length === 0) return { fresh: [...latest].reverse(), gap: latest.length >= pageSize };
  for (let offset = 0; offset < latest.length; offset++) {
    // below the fresh ones lies a prefix of `previous`, never more than it: a previous list shorter
    // than a page is the whole day so far (before, [X, Y, X, Y] after [X, Y] matched at offset 0
    // and the two new trades, alike to the broker's second, were skipped)
    if (latest.length - offset > previous.length) continue;
    let matches = true;
    for (let i = 0; offset + i < latest.length && i < previous.length; i++) {
      if (!same(latest[offset + i]!, previous[i]!)) {
        matches = false;
        break;
      }
    }
    if (matches) return { fresh: latest.slice(0, offset).reverse(), gap: false };
  }
  // No overlap: the previous newest trade is gone, so every listed trade is new; with a full page,
  // more trades than a page happened between the polls and some were missed.
  return { fresh: [...latest].reverse(), gap: latest.length >= pageSize };
}

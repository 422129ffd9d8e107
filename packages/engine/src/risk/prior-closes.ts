/**
 * The reference prices of a run started during a trading day. Today's PnL counts a position carried
 * from an earlier day from the last price before the day began; an engine that ran through the
 * night saw that price, one started at 10:30 did not and would count from its first price instead,
 * leaving out what the position lost between the day's start and the engine's. Before the book
 * notes its first prices, each symbol's last minute candle before the day began is read from the
 * broker (`GET /candles`, `interval=1m`, `count=1`, `before` the day's start; adjusted, as the
 * prices of today are) and given to the book as the price it had then: the day's first price then
 * makes it the reference, as it would have for an engine running all along.
 *
 * @module
 */
import { type Decimal, KST_ZONE, type Logger } from '@hoga/core';
import { DateTime } from 'luxon';
import type { ReadOptions } from './market-info-source.js';
import type { RiskBook } from './risk-book.js';
import { isoKst, tradingDayStartMs } from './valuation.js';

/** A broker's minute candles, newest first (the connector's `getCandles`). */
export interface PriorCloseSource {
  getCandles(
    symbol: string,
    query: { readonly interval: '1m'; readonly count: number; readonly before: string },
    options?: ReadOptions,
  ): Promise<{ readonly candles: readonly { readonly timestamp: DateTime; readonly closePrice: Decimal }[] }>;
}

/** What {@link seedPriorCloses} found, per symbol: its close and when, or why there is none. */
export type PriorClose =
  | { readonly symbol: string; readonly price: Decimal; readonly atMs: number }
  | { readonly symbol: string; readonly missing: string };

/** Why a symbol has no reference read: no candle before the day (not worth a warning). */
const NO_CANDLE = 'no candle before the trading day began';

/**
 * Tells what {@link seedPriorCloses} found: each reference read (debug: `--verbose`), and a warning
 * for each read that failed (that symbol's carried position counts from its first price today).
 */
export function logPriorCloses(logger: Logger, found: readonly PriorClose[]): void {
  for (const f of found) {
    if ('price' in f) {
      logger.debug(
        { component: 'risk', symbol: f.symbol, price: f.price.toFixed(), at: isoKst(f.atMs) },
        `${f.symbol}: today's PnL counts from ${f.price.toFixed()}, its last price before the day began`,
      );
    } else if (f.missing !== NO_CANDLE) {
      logger.warn(
        { component: 'risk', symbol: f.symbol },
        `${f.symbol}: no price before the day began (${f.missing}): today's PnL counts from its first price`,
      );
    }
  }
}

/**
 * Gives `book` each symbol's last price before the trading day of `nowMs` began, for the symbols it
 * has no price of yet. A symbol whose read fails, or with no candle before the day (a listing of
 * today), keeps the fallback: its first price of the day is its reference.
 *
 * @param book - the risk module's book
 * @param source - the broker's candles
 * @param symbols - the symbols the run prices
 * @param nowMs - the run's time now
 * @param dayStartHourKst - when a trading day starts (the risk configuration's)
 * @param options - priority and stop signal of the reads
 * @returns what was found per symbol read (in the order of `symbols`)
 */
export async function seedPriorCloses(
  book: RiskBook,
  source: PriorCloseSource,
  symbols: readonly string[],
  nowMs: number,
  dayStartHourKst: number,
  options?: ReadOptions,
): Promise<readonly PriorClose[]> {
  const dayStartMs = tradingDayStartMs(nowMs, dayStartHourKst);
  const before = DateTime.fromMillis(dayStartMs, { zone: KST_ZONE }).toISO() as string;
  const read = async (symbol: string): Promise<PriorClose | null> => {
    if (book.lastPrices().has(symbol)) return null;
    let candle: { readonly timestamp: DateTime; readonly closePrice: Decimal } | undefined;
    try {
      const page = await source.getCandles(symbol, { interval: '1m', count: 1, before }, options);
      candle = page.candles[0];
    } catch (error) {
      if (options?.signal?.aborted === true) throw error;
      return { symbol, missing: error instanceof Error ? error.message : String(error) };
    }
    const atMs = candle?.timestamp.toMillis();
    if (candle === undefined || atMs === undefined || !(atMs < dayStartMs)) {
      return { symbol, missing: NO_CANDLE };
    }
    // a price stamped before the day began: the day's first price makes it the reference
    if (!book.lastPrices().has(symbol)) book.notePrice(symbol, candle.closePrice, atMs);
    return { symbol, price: candle.closePrice, atMs };
  };
  // all at once: the client's rate limiter spaces them
  const found = await Promise.all([...new Set(symbols)].map(read));
  return found.filter((f) => f !== null);
}

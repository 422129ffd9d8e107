/**
 * What a paper or live run over many symbols says while it starts and once it runs: its first
 * reads of the broker take one request per symbol (stock warnings, price limits, the last price
 * before the day, the warm-up's candles) at the broker's rate limits, 40 s and more with 200
 * symbols, and its symbols' candle polls share the chart group's requests (200 symbols at 5 a
 * second: each polled about every 40 s, so a bar comes up to that late). Each is said once, as an
 * info record (`hoga run` prints it on stderr), when it takes long enough to be noticed.
 *
 * @module
 */
import type { BrokerClient } from '@hoga/connector';
import { counted, type Logger, RateLimitGroup } from '@hoga/core';

/** Waits shorter than this (s) go unsaid. */
const NOTICEABLE_S = 5;

/** What the messages need of the broker client: its current rate limits. */
export type RateSource = Pick<BrokerClient, 'limiter' | 'config'>;

/** Requests a second the client uses of `group` (its limit times the configured utilisation, of its process's share). */
function rateOf(client: RateSource, group: RateLimitGroup): number {
  return Math.max(0.001, client.limiter.rateOf(group));
}

/** `n symbols`, `1 symbol`. */
function symbolsText(n: number): string {
  return counted(n, 'symbol');
}

/**
 * Says, before the run's first reads, how long they take when it is noticeable: one warnings,
 * one price-limits and one candle request per symbol, each group at its rate.
 *
 * @param symbols - how many symbols the run has
 */
export function sayFirstReads(logger: Logger, client: RateSource, symbols: number): void {
  const seconds = Math.max(
    symbols / rateOf(client, RateLimitGroup.STOCK),
    symbols / rateOf(client, RateLimitGroup.MARKET_DATA_CHART),
    symbols / rateOf(client, RateLimitGroup.MARKET_DATA),
  );
  if (seconds < NOTICEABLE_S) return;
  logger.info(
    { component: 'run', symbols, seconds: Math.ceil(seconds) },
    `reading the broker's data of ${symbolsText(symbols)} before the start (warnings, price limits, ` +
      `the last price before the day: one request per symbol each): about ${Math.ceil(seconds)} s at its rate limits`,
  );
}

/**
 * Says, before the warm-up reads, how long they take when it is noticeable (one candle request
 * per symbol).
 *
 * @param bars - the warm-up's bars per symbol (0: no warm-up, nothing said)
 * @param symbols - how many symbols the run has
 */
export function sayWarmUp(logger: Logger, client: RateSource, bars: number, symbols: number): void {
  if (bars <= 0) return;
  const seconds = symbols / rateOf(client, RateLimitGroup.MARKET_DATA_CHART);
  if (seconds < NOTICEABLE_S) return;
  logger.info(
    { component: 'run', symbols, bars, seconds: Math.ceil(seconds) },
    `warm-up: reading the ${bars} bars before the start of ${symbolsText(symbols)} (one candle request each): ` +
      `about ${Math.ceil(seconds)} s at the broker's rate limit`,
  );
}

/**
 * Says once, when the run's candle polls are spaced wider than asked, how often each symbol's
 * candles are read and so how late a bar can come.
 *
 * @param symbols - how many symbols' candles are polled
 * @param askedMs - the least time between two polls of one symbol (the stream's interval)
 */
export function sayCandlePolling(logger: Logger, client: RateSource, symbols: number, askedMs: number): void {
  const rate = rateOf(client, RateLimitGroup.MARKET_DATA_CHART);
  const everyS = symbols / rate;
  if (everyS * 1000 <= askedMs || everyS < NOTICEABLE_S) return;
  logger.info(
    { component: 'run', symbols, everySeconds: Math.ceil(everyS) },
    `${symbolsText(symbols)} share the broker's ${rate} candle requests a second: each symbol's candles ` +
      `are read about every ${Math.ceil(everyS)} s, so a bar can come up to that late`,
  );
}

/**
 * The connector's candles as core {@link Bar}s: numbers, epoch ms, with the time the bar closes.
 *
 * @module
 */
import { type Bar, type BarInterval, barCloseTime, type Market, marketOfSymbol } from '@hoga/core';
import type { Candle } from './market-data.js';

/**
 * Converts one candle of the broker into a {@link Bar}. A daily bar keeps the broker's stamp (KST
 * midnight of the trading day) as `ts` and closes at the regular session's close of that day
 * (KR 15:30 KST, US 16:00 New York); a minute bar closes at its stamp (the minute's end).
 *
 * @param candle - a candle of `GET /candles`
 * @param symbol - the symbol it belongs to (a candle does not carry it)
 * @param interval - the interval it was asked with
 * @param market - the symbol's market (default: inferred from the symbol)
 * @example
 * ```ts
 * const page = await client.getCandles('005930', { interval: '1d' });
 * const bars = page.candles.map((c) => candleToBar(c, '005930', '1d'));
 * ```
 */
export function candleToBar(
  candle: Candle,
  symbol: string,
  interval: BarInterval,
  market: Market = marketOfSymbol(symbol),
): Bar {
  const ts = candle.timestamp.toMillis();
  return {
    symbol,
    interval,
    ts,
    closeTime: barCloseTime(market, interval, ts),
    open: candle.openPrice.toNumber(),
    high: candle.highPrice.toNumber(),
    low: candle.lowPrice.toNumber(),
    close: candle.closePrice.toNumber(),
    volume: candle.volume.toNumber(),
  };
}

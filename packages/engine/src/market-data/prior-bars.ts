/**
 * What a backtest knows of its symbols before its first bar: each one's last daily candle closed by
 * the run's start, read from the candle cache. Paper and live read the broker's last price at their
 * start; a backtest's is this close. It values an order placed in `onStart` (a market buy's funds,
 * a strategy's own cash) and the positions until the symbol's first bar, and, for a KR symbol, is
 * the first day's reference for the daily price limits (see `ReferencePrices`).
 *
 * The download that makes the cache hold these candles is `priorCloseTargets`
 * (candle-downloader.ts).
 *
 * @module
 */
import { type Bar, BarInterval, marketOfSymbol } from '@hoga/core';
import type { CandleBarReader } from '@hoga/store';

/**
 * Each symbol's last cached daily candle that closed at or before `atMs`, as a bar (adjusted
 * prices, as the run's bars). A daily candle stamped before `atMs` that closes after it (the day's
 * own candle, for a run starting during its session; a US day's, for a run starting on KST
 * midnight) is left for the one before: a bar is seen only after it closed. A symbol with no such
 * candle cached is left out.
 *
 * @param reader - the candle cache
 * @param symbols - the symbols
 * @param atMs - the run's start, epoch ms
 */
export function priorDailyBars(reader: CandleBarReader, symbols: readonly string[], atMs: number): Bar[] {
  const bars: Bar[] = [];
  for (const symbol of symbols) {
    const key = { symbol, interval: BarInterval.DAY, adjusted: true };
    // the two last candles stamped before the start: the later one may not have closed by then
    const start = reader.startOfLast(key, atMs, 2);
    if (start === null) continue;
    const c = reader.read(key, { start, end: atMs }, marketOfSymbol(symbol));
    for (let i = c.length - 1; i >= 0; i--) {
      if ((c.closeTime[i] as number) > atMs) continue;
      bars.push({
        symbol,
        interval: BarInterval.DAY,
        ts: c.ts[i] as number,
        closeTime: c.closeTime[i] as number,
        open: c.open[i] as number,
        high: c.high[i] as number,
        low: c.low[i] as number,
        close: c.close[i] as number,
        volume: c.volume[i] as number,
      });
      break;
    }
  }
  return bars;
}

/**
 * Whether a minute bar is of a trading day whose sessions all ended before it reaches a paper or
 * live run: the previous session's last bar, not news. A stream's first poll hands over the newest
 * completed candle, which at a market's open (a run started while the market was closed, or at the
 * open before the day's first candle completed) is the previous trading day's last (KR 20:00 KST on
 * Friday, at Monday 08:00); so are the bars of a day a machine slept through, found on waking. Such
 * a bar is handed to a strategy with a warm-up as a warm-up bar (its indicators count it, its
 * orders are denied) and to no other, as a bar an earlier run already handed over. A bar polled
 * within two minutes of the close (the streams poll minute candles that long after it) is news.
 * The day's sessions are the broker model's (`daySessions`). Live and paper only: a backtest never
 * sees a bar after its time.
 *
 * @module
 */
import { daySessions, localDay } from '@hoga/broker-model';
import { type Bar, marketOfSymbol } from '@hoga/core';

/** How long after a trading day's last session ended its minute bars are still news. */
const AFTER_CLOSE_MS = 2 * 60_000;

/**
 * Whether `bar` (a minute bar; a daily bar never is) is of a trading day whose last session ended
 * more than two minutes before `nowMs` (see the module documentation).
 */
export function ofEndedSession(bar: Bar, nowMs: number): boolean {
  if (bar.interval !== '1m') return false;
  const market = marketOfSymbol(bar.symbol);
  // the minute ending at the close belongs to the day that closes then
  const sessions = daySessions(market, localDay(market, bar.closeTime - 1));
  const last = sessions[sessions.length - 1];
  return last !== undefined && nowMs > last.end + AFTER_CLOSE_MS;
}

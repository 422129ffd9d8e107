/**
 * How a poll of `candles$` reads its page of candles: big enough to reach back to the newest
 * candle already handed over (minute candles polled seldom, a paused process), read again wider
 * when the clock moved on while the page was on its way, and polled a while past the close so the
 * session's last minute candle is not left for the next open.
 *
 * @module
 */
import type { BrokerClient } from '../client/broker-client.js';
import { RequestPriority } from '../rate-limit/rate-limit-groups.js';
import type { CandleInterval, CandlePage } from '../schemas/market-data.js';

/** Minute candles a poll asks for at least (the newest, the one in progress, a few more). */
const CANDLE_PAGE = 10;
/**
 * How long (clock ms) minute candles are still polled after their market closed: the candle ending
 * at the close (KR 20:00 KST) completes at that instant; before, the streams stopped at the close
 * and it came only at the next open (the next morning, Monday's after a Friday).
 */
export const CLOSE_GRACE_MS = 2 * 60_000;
/** Most candles one request returns (spec: `count` 1 to 200). */
const MAX_CANDLE_PAGE = 200;

/**
 * How many candles the next poll of a stream asks for: {@link CANDLE_PAGE}, or, for minute
 * candles, enough to reach back to the newest one already handed over when the polls of many
 * symbols share the chart group's budget (200 symbols: each polled every 40 s) or the process
 * was paused, so that no candle completed between two polls is skipped (at most 200).
 */
function candlePageSize(interval: CandleInterval, newestMs: number | null, nowMs: number): number {
  if (interval !== '1m' || newestMs === null) return CANDLE_PAGE;
  const minutes = Math.ceil((nowMs - newestMs) / 60_000) + 2;
  return Math.min(MAX_CANDLE_PAGE, Math.max(CANDLE_PAGE, minutes));
}

/**
 * Reads one poll's page of candles (at poll priority).
 *
 * @param client - the broker client (its clock tells how far back to reach)
 * @param symbol - the symbol
 * @param interval - `1m` or `1d`
 * @param newest - end stamp (ms) of the newest completed candle handed over, null before the first poll
 * @param signal - aborts the read
 */
export async function readCandlePage(
  client: Pick<BrokerClient, 'getCandles' | 'clock'>,
  symbol: string,
  interval: CandleInterval,
  newest: number | null,
  signal: AbortSignal,
): Promise<CandlePage> {
  const ask = (count: number) =>
    client.getCandles(symbol, { interval, count }, { priority: RequestPriority.POLL, signal });
  const count = candlePageSize(interval, newest, client.clock.nowMs());
  const page = await ask(count);
  // the clock moved on while the page was on its way (a paused process, a fast
  // simulator): a full page may not reach back to the newest candle handed over
  const wider = candlePageSize(interval, newest, client.clock.nowMs());
  return wider > count && page.candles.length >= count ? ask(wider) : page;
}

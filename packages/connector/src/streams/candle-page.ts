/**
 * How a poll of `candles$` reads its page of candles: big enough to reach back to the newest
 * candle already handed over (minute candles polled seldom, a paused process), paged back
 * (`before`) when one request's 200 candles do not reach it (a process asleep for hours, the clock
 * moved on while the page was on its way), and polled a while past the close so the session's
 * last minute candle is not left for the next open. A catch-up reads at most
 * {@link MAX_CATCH_UP_PAGES} pages; the candles it could not read (beyond those, or a page the
 * broker refused) come back as a {@link CandleGap}.
 *
 * @module
 */
import type { DateTime } from 'luxon';
import type { BrokerClient } from '../client/broker-client.js';
import { RequestPriority } from '../rate-limit/rate-limit-groups.js';
import type { Candle, CandleInterval } from '../schemas/market-data.js';

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
 * Most requests one poll makes to reach back to the newest candle handed over: 2,000 minute
 * candles, more than a trading day's (KR 08:01–20:00: 720; US at most one a minute of its
 * 22 hours).
 */
export const MAX_CATCH_UP_PAGES = 10;

/** Candles a poll did not read between the newest one handed over and the oldest it read. */
export interface CandleGap {
  /** End stamp (ms) of the newest candle handed over before: the missed ones end after it. */
  readonly afterMs: number;
  /** End stamp (ms) of the oldest candle read: the missed ones end before it. */
  readonly beforeMs: number;
  /** Why they were not read, in words (`the 2,000 candles a catch-up reads at most were read`). */
  readonly cause: string;
}

/**
 * How long (clock ms) before a poll's request was sent the candles it reads are judged complete:
 * a candle ending later may have been made by the broker before its minute ended (this machine's
 * clock a little ahead of the broker's, spec candle rule 14: a candle in progress may still change).
 */
export const CANDLE_CLOCK_SLACK_MS = 1_000;

/** One poll's candles, newest first, and the candles it could not read, if any. */
export interface CandlePoll {
  readonly candles: readonly Candle[];
  readonly gap: CandleGap | null;
  /**
   * The clock when the poll's first request was sent, less {@link CANDLE_CLOCK_SLACK_MS}: the
   * broker made its answer after it, so a candle ending by then is complete. Not the clock when
   * the answer came: a page made at 10:04:30 and answered after 10:05 holds a 10:05 candle half a
   * minute short, which was handed over as complete, and the real one never.
   */
  readonly asOf: DateTime;
}

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
 * Reads one poll's candles (at poll priority, each request through the client's rate limiter):
 * one page, and for minute candles the pages before it (`before` = the page's `nextBefore`) until
 * they reach the newest candle handed over, the broker has none older, or
 * {@link MAX_CATCH_UP_PAGES} were read. A page back the broker refuses (after the client's retries)
 * ends the catch-up: the candles read are kept, the rest is the gap. The first page's failure is
 * the poll's.
 *
 * @param client - the broker client (its clock tells how far back to reach)
 * @param symbol - the symbol
 * @param interval - `1m` or `1d`
 * @param newest - end stamp (ms) of the newest completed candle handed over (or the caller had
 *   before the first poll), null before a first poll told none
 * @param signal - aborts the read
 */
export async function readCandlePage(
  client: Pick<BrokerClient, 'getCandles' | 'clock'>,
  symbol: string,
  interval: CandleInterval,
  newest: number | null,
  signal: AbortSignal,
): Promise<CandlePoll> {
  const options = { priority: RequestPriority.POLL, signal };
  const asOf = client.clock.now().minus(CANDLE_CLOCK_SLACK_MS);
  const count = candlePageSize(interval, newest, client.clock.nowMs());
  let page = await client.getCandles(symbol, { interval, count }, options);
  // the normal poll: its page reaches back to the newest candle handed over
  if (
    newest === null ||
    interval !== '1m' ||
    reaches(page.candles, count, newest) ||
    page.nextBefore === null
  ) {
    return { candles: page.candles, gap: null, asOf };
  }
  // asleep, paused, or the clock moved on while the page was on its way: page back
  const candles = [...page.candles];
  for (let pages = 1; ; pages++) {
    const oldest = (candles[candles.length - 1] as Candle).timestamp.toMillis();
    if (pages >= MAX_CATCH_UP_PAGES) {
      const cause = `the ${(MAX_CATCH_UP_PAGES * MAX_CANDLE_PAGE).toLocaleString('en-US')} candles a catch-up reads at most were read`;
      return { candles, gap: { afterMs: newest, beforeMs: oldest, cause }, asOf };
    }
    const raw = page.raw.nextBefore;
    const before =
      typeof raw === 'string' ? raw : (page.nextBefore as NonNullable<typeof page.nextBefore>).toISO()!;
    try {
      page = await client.getCandles(symbol, { interval, count: MAX_CANDLE_PAGE, before }, options);
    } catch (error) {
      if (signal.aborted) throw error;
      const cause = `reading them failed: ${error instanceof Error ? error.message : String(error)}`;
      return { candles, gap: { afterMs: newest, beforeMs: oldest, cause }, asOf };
    }
    // `before` is exclusive: only older candles are taken (a broker repeating some would hand them over twice)
    for (const c of page.candles) if (c.timestamp.toMillis() < oldest) candles.push(c);
    const last = candles[candles.length - 1] as Candle;
    if (
      last.timestamp.toMillis() >= oldest ||
      reaches(page.candles, MAX_CANDLE_PAGE, newest) ||
      page.nextBefore === null
    ) {
      return { candles, gap: null, asOf };
    }
  }
}

/**
 * Whether a page (newest first) of `count` asked for reaches back to the candle stamped `newest`:
 * it holds one stamped then or earlier, or it is short (the broker has none older).
 */
function reaches(candles: readonly Candle[], count: number, newest: number): boolean {
  const oldest = candles[candles.length - 1];
  return oldest === undefined || candles.length < count || oldest.timestamp.toMillis() <= newest;
}

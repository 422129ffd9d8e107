/**
 * The market hours a paper or live run's streams poll by, waking them at a market's next open.
 * The streams do not poll a closed market, and look at it again only every 30 real seconds (the
 * connector's poll scheduler); before, the first polls after an open came up to 30 s late, and
 * against a fast simulator (×20: ten simulated minutes) the session's first minute bars never
 * came at all (a first poll hands over only the newest completed candle). Here a closed market
 * whose next open (from the calendar the risk module reads from the broker) is near is answered
 * as "not known yet", which the scheduler asks again about every 100 ms: the first poll follows
 * the open by that much. The 30 s look stays the fallback while no calendar (or no next open) is
 * known.
 *
 * @module
 */
import type { BrokerClient } from '@hoga/connector';
import { MarketHours } from '@hoga/connector';
import { type Clock, KST_ZONE, type Market, type MarketCalendar, nextOpen } from '@hoga/core';
import { DateTime } from 'luxon';

/** How often (real ms) the connector's poll scheduler looks again at a closed market. */
export const CLOSED_RECHECK_REAL_MS = 30_000;
/**
 * Least time (clock ms) before an open from which the streams are woken: covers a clock sped up
 * after the scheduler last looked (a simulator at ×0 while a run starts, ×20 a moment later).
 */
const LEAST_WAKE_AHEAD_MS = 10 * 60_000;

/** What {@link OpenWakeHours} needs. */
export interface OpenWakeHoursOptions {
  /** The broker client (the calendars the streams judge a market open by are read through it). */
  readonly client: BrokerClient;
  /** The engine clock: its speed (a scaled clock's `getSpeed`), 1 for any other. */
  readonly clock: Clock;
  /** A market's calendar as last read from the broker (the risk module's), or undefined while none is known. */
  readonly calendar: (market: Market) => MarketCalendar | undefined;
}

/** The connector's market hours, woken at the next open (see the module documentation). */
export class OpenWakeHours {
  private readonly hours: MarketHours;
  /** Per market: the calendar the next open was worked out from, and that open (epoch ms, or null: none ahead). */
  private readonly next = new Map<Market, { calendar: MarketCalendar; atMs: number | null }>();

  /** @param o - the client, the engine clock and the markets' calendars */
  constructor(private readonly o: OpenWakeHoursOptions) {
    this.hours = new MarketHours(o.client, o.client.clock);
  }

  /**
   * Whether `market` has a session open now (as the connector's market hours answer), except that
   * a closed market opening before the scheduler's next look is answered `undefined` (look again
   * shortly).
   *
   * @param market - KR or US
   * @param graceMs - also open this long (clock ms) after a session ended
   */
  isOpen(market: Market, graceMs?: number): boolean | undefined {
    const open = this.hours.isOpen(market, graceMs);
    if (open !== false) return open;
    const nowMs = this.o.clock.nowMs();
    const atMs = this.nextOpenMs(market, nowMs);
    return atMs !== null && atMs - nowMs <= this.wakeAheadMs() ? undefined : false;
  }

  /** Aborts the calendar reads under way (the streams ended). */
  cancelLoads(): void {
    this.hours.cancelLoads();
  }

  /** How long (clock ms) before an open the streams are woken: twice the scheduler's look, in clock time. */
  private wakeAheadMs(): number {
    const clock = this.o.clock as Clock & { getSpeed?: () => number };
    const speed = typeof clock.getSpeed === 'function' ? clock.getSpeed() : 1;
    return Math.max(LEAST_WAKE_AHEAD_MS, 2 * CLOSED_RECHECK_REAL_MS * speed);
  }

  /** The next open of `market` after `nowMs` (kept until it passed or the calendar changed), or null. */
  private nextOpenMs(market: Market, nowMs: number): number | null {
    const calendar = this.o.calendar(market);
    if (calendar === undefined) return null;
    const kept = this.next.get(market);
    if (kept !== undefined && kept.calendar === calendar && (kept.atMs === null || kept.atMs > nowMs)) {
      return kept.atMs;
    }
    const at = nextOpen(calendar, DateTime.fromMillis(nowMs, { zone: KST_ZONE }));
    const atMs = at === null ? null : at.at.toMillis();
    this.next.set(market, { calendar, atMs });
    return atMs;
  }
}

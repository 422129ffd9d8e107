/**
 * Knows whether a market is open now, and when a closed one opens next, from the broker's
 * calendars, refreshed in the background.
 *
 * @module
 */
import { type Clock, isMarketOpen, KST_ZONE, type Market, type MarketCalendar, nextOpen } from '@hoga/core';
import { DateTime } from 'luxon';
import type { BrokerClient } from '../client/broker-client.js';
import { RequestPriority } from '../rate-limit/rate-limit-groups.js';

interface Entry {
  calendar: MarketCalendar | null;
  fetchedAtMs: number;
  loading: boolean;
  failed: boolean;
  /** Aborts the calendar read under way, if any. */
  abort: AbortController | null;
  /** The next open last worked out: from which calendar, at which instant (ms), and when (ms, or null: none). */
  next: { calendar: MarketCalendar; fromMs: number; atMs: number | null } | null;
}

/**
 * Calendar-backed market hours. Answers `undefined` while the first calendar is loading, and
 * `true` (poll rather than starve) when no calendar could be read.
 */
export class MarketHours {
  private readonly entries = new Map<Market, Entry>();

  /**
   * @param client - used to read `/market-calendar/KR|US`
   * @param clock - the domain clock
   * @param refreshMs - re-read a calendar after this much clock time (default 30 min)
   */
  constructor(
    private readonly client: BrokerClient,
    private readonly clock: Clock,
    private readonly refreshMs = 30 * 60_000,
  ) {}

  /**
   * Whether `market` has any session (pre, regular, after, day market) open at an instant.
   *
   * @param market - KR or US
   * @param graceMs - also true this long (clock ms) after a session ended (default 0)
   * @param atMs - the instant (epoch ms; default now on the clock): a caller that also asks
   *   {@link MarketHours.nextOpenMs} passes both the same reading
   * @returns undefined while the first calendar is loading, or a new one while the clock is past
   *   every session of the last (not known then)
   */
  isOpen(market: Market, graceMs = 0, atMs = this.clock.nowMs()): boolean | undefined {
    let entry = this.entries.get(market);
    if (entry === undefined) {
      entry = {
        calendar: null,
        fetchedAtMs: Number.NEGATIVE_INFINITY,
        loading: false,
        failed: false,
        abort: null,
        next: null,
      };
      this.entries.set(market, entry);
    }
    if (!entry.loading && atMs - entry.fetchedAtMs > this.refreshMs) this.load(market, entry);
    if (entry.calendar === null) return entry.failed ? true : undefined;
    const at = DateTime.fromMillis(atMs, { zone: KST_ZONE });
    if (isMarketOpen(entry.calendar, at)) return true;
    if (graceMs > 0 && isMarketOpen(entry.calendar, at.minus({ milliseconds: graceMs }))) return true;
    // The clock left the calendar behind (a process asleep for days, a clock set on) and the new
    // one is on its way: unknown, not closed, so that the polls look again as soon as it came
    // rather than after a closed market's wait (30 s).
    return entry.loading && nextOpen(entry.calendar, at) === null ? undefined : false;
  }

  /**
   * Sets a calendar directly (tests, or a caller that already has one).
   *
   * @param market - KR or US
   * @param calendar - the calendar
   */
  set(market: Market, calendar: MarketCalendar): void {
    this.entries.set(market, {
      calendar,
      fetchedAtMs: this.clock.nowMs(),
      loading: false,
      failed: false,
      abort: null,
      next: null,
    });
  }

  /**
   * When `market`'s next session opens, strictly after an instant, on the calendar
   * {@link MarketHours.isOpen} judges it by (worked out again only once that instant passed or the
   * calendar was read again).
   *
   * @param market - KR or US
   * @param afterMs - the instant (epoch ms; default now on the clock): the one the market was
   *   found closed at, else an open that came meanwhile is missed and the following one found
   * @returns epoch ms; null when the calendar shows no session ahead; undefined while no calendar
   *   is known (none asked for yet, the first one loading, or none could be read)
   */
  nextOpenMs(market: Market, afterMs = this.clock.nowMs()): number | null | undefined {
    const entry = this.entries.get(market);
    const calendar = entry?.calendar;
    if (entry === undefined || calendar === null || calendar === undefined) return undefined;
    const now = afterMs;
    const kept = entry.next;
    if (
      kept !== null &&
      kept.calendar === calendar &&
      kept.fromMs <= now &&
      (kept.atMs === null || kept.atMs > now)
    ) {
      return kept.atMs;
    }
    const at = nextOpen(calendar, DateTime.fromMillis(now, { zone: KST_ZONE }));
    entry.next = { calendar, fromMs: now, atMs: at === null ? null : at.at.toMillis() };
    return entry.next.atMs;
  }

  /**
   * Aborts the calendar reads under way (nothing polls any more); the next question about a
   * market whose read was aborted starts a new one.
   */
  cancelLoads(): void {
    for (const entry of this.entries.values()) {
      if (entry.abort === null) continue;
      entry.abort.abort();
      entry.abort = null;
      entry.loading = false;
    }
  }

  private load(market: Market, entry: Entry): void {
    entry.loading = true;
    const abort = new AbortController();
    entry.abort = abort;
    const options = { priority: RequestPriority.POLL, signal: abort.signal };
    const request =
      market === 'KR'
        ? this.client.getKrMarketCalendar(undefined, options)
        : this.client.getUsMarketCalendar(undefined, options);
    request.then(
      (calendar) => {
        if (abort.signal.aborted) return;
        entry.abort = null;
        entry.calendar = calendar;
        entry.fetchedAtMs = this.clock.nowMs();
        entry.loading = false;
        entry.failed = false;
      },
      () => {
        if (abort.signal.aborted) return;
        entry.abort = null;
        // Try again after a minute; until then the last calendar (or "unknown") stands.
        entry.fetchedAtMs = this.clock.nowMs() - this.refreshMs + 60_000;
        entry.loading = false;
        entry.failed = true;
      },
    );
  }
}

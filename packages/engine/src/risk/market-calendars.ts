/**
 * The KR and US calendars of the risk module's market view, read from the broker for the instant
 * being judged. One calendar answer holds three business days (the previous, current and next
 * around its date), so it tells the session hours of the instants from the first session of its
 * previous business day to the end of the last session of its next one; an instant outside that
 * span (`hoga order --check --at` another week, or a long run's clock past the next business day)
 * has its market's calendar read for its own date.
 *
 * Given the store's calendar cache ({@link StoredCalendars}), an answer is shared with the other
 * processes on the same database: one the cache still gives out (a final one, or one read less
 * than its freshness ago, on the same market day: the store's `market-calendar-cache` module) is
 * taken instead of asking the broker, and every answer the broker gives is stored as it gave it.
 * A stored answer is aged from when the broker gave it, so no process keeps a calendar longer than
 * its age after the broker's answer.
 *
 * @module
 */
import {
  KrMarketCalendarSchema,
  NotFoundError,
  RequestValidationError,
  UsMarketCalendarSchema,
} from '@hoga/connector';
import {
  type Clock,
  calendarSessions,
  KST_ZONE,
  type Market,
  type MarketCalendar,
  NEW_YORK_ZONE,
  type SessionName,
} from '@hoga/core';
import type { HogaDatabase, MarketCalendarCache } from '@hoga/store';
import { DateTime } from 'luxon';

/** The calendar reads (the connector's `BrokerClient` has them): `date` is the market's local date. */
export interface CalendarSource {
  getKrMarketCalendar(date?: string): Promise<unknown>;
  getUsMarketCalendar(date?: string): Promise<unknown>;
}

/** The store's calendar cache, and the broker whose answers it holds (its address). */
export interface StoredCalendars {
  /** The store's `marketCalendars` (what may fail in it, an unmigrated file, is passed by). */
  readonly cache: Pick<MarketCalendarCache, 'get' | 'store'>;
  /** The broker's base URL: a simulator's calendars are not a live broker's. */
  readonly broker: string;
}

/**
 * The calendar cache of `db` for the broker at `broker`, reached at each read: a store that
 * cannot give it (a file opened without migrating) is passed by.
 */
export function storedCalendarsOf(db: HogaDatabase, broker: string): StoredCalendars {
  return {
    // without the busy wait: a file another process holds locked refuses at once (the broker is
    // asked, the answer left unshared) instead of blocking the run for the busy timeout at each
    // read (run-denied-while-refused.int.test.ts counted three stalls more per lock)
    cache: {
      get: (key) => db.withoutBusyWait(() => db.marketCalendars.get(key)),
      store: (key, answer, lastDate) =>
        db.withoutBusyWait(() => db.marketCalendars.store(key, answer, lastDate)),
    },
    broker,
  };
}

/**
 * Drops the store's calendar rows about dates over a year back (the store's `forgetOld`): a paper
 * or live run does it as it starts, so that a store used for years does not keep two rows a day
 * for good. A store that refuses (another process holds it locked) is passed by: the next start
 * tries again.
 */
export function forgetOldCalendars(db: HogaDatabase): void {
  try {
    db.withoutBusyWait(() => db.marketCalendars.forgetOld());
  } catch {
    // nothing lost: the rows are dropped at a later start
  }
}

/** The markets whose calendars are kept. */
export const CALENDAR_MARKETS: readonly Market[] = ['KR', 'US'];

interface Stamped<T> {
  readonly value: T;
  readonly atMs: number;
}

/** One session of a calendar answer, in epoch ms: `[startMs, endMs)`. */
export interface CalendarSpan {
  readonly name: SessionName;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * A calendar answer's sessions in epoch ms, sorted by start, and the instants it tells the hours
 * of (`[fromMs, toMs)`, see {@link coveredSpan}): worked out once, when the answer is read, so that
 * asking about an instant needs no date.
 */
export interface CalendarSpans {
  readonly fromMs: number;
  readonly toMs: number;
  readonly sessions: readonly CalendarSpan[];
}

/** A calendar as read, with its sessions in epoch ms. */
interface KeptCalendar extends Stamped<MarketCalendar>, CalendarSpans {}

/** A date the broker gave no calendar for, and why. */
interface Gap {
  readonly date: string;
  readonly reason: string;
}

/**
 * The date the broker's calendar of `market` is asked about for an instant: the KST date for KR,
 * the New York date for US (the spec's "US local date"; a US trading day's sessions run from the
 * evening before, New York time, which the answer's next business day holds).
 */
export function calendarDateOf(market: Market, atMs: number): string {
  const zone = market === 'KR' ? KST_ZONE : NEW_YORK_ZONE;
  return DateTime.fromMillis(atMs, { zone }).toISODate() as string;
}

/**
 * A calendar answer's sessions in epoch ms and the instants it tells the session hours of: from
 * the start of its first session to the end of its last one, every session is in it (its days are
 * consecutive business days), so an instant in between is in one of them or in none. Empty
 * without sessions.
 */
function coveredSpan(calendar: MarketCalendar): CalendarSpans {
  const sessions = calendarSessions(calendar).map((s) => ({
    name: s.name,
    startMs: s.session.startTime.toMillis(),
    endMs: s.session.endTime.toMillis(),
  }));
  const first = sessions[0];
  if (first === undefined) return { fromMs: 0, toMs: 0, sessions };
  return { fromMs: first.startMs, toMs: Math.max(...sessions.map((s) => s.endMs)), sessions };
}

/** Whether a kept calendar tells the hours at `atMs`. */
function covers(kept: KeptCalendar, atMs: number): boolean {
  return kept.fromMs <= atMs && atMs < kept.toMs;
}

/** The broker's KR and US calendars, each read for the date of the instant it is asked about. */
export class MarketCalendars {
  private readonly calendars = new Map<Market, KeptCalendar>();
  private readonly gaps = new Map<Market, Stamped<Gap>>();

  /**
   * @param source - the broker
   * @param clock - engine clock (the ages)
   * @param maxAgeMs - how long a calendar (or the broker's refusal of a date) is kept before it is read again
   * @param stored - the store's calendar cache, shared with other processes (none: the broker only)
   */
  constructor(
    private readonly source: CalendarSource,
    private readonly clock: Clock,
    private readonly maxAgeMs: number,
    private readonly stored?: StoredCalendars,
  ) {}

  /**
   * Whether `market`'s calendar must be read to tell the hours at `atMs`: none yet, older than
   * the age, or not covering the instant (a date the broker refused is not asked again until the age).
   */
  due(market: Market, atMs: number): boolean {
    const nowMs = this.clock.nowMs();
    const kept = this.calendars.get(market);
    if (kept !== undefined && nowMs - kept.atMs <= this.maxAgeMs && covers(kept, atMs)) return false;
    const gap = this.gaps.get(market);
    return !(
      gap !== undefined &&
      nowMs - gap.atMs <= this.maxAgeMs &&
      gap.value.date === calendarDateOf(market, atMs)
    );
  }

  /**
   * Reads `market`'s calendar for the date of `atMs`: from the store's cache when it still gives
   * the answer out, else from the broker (the answer then stored). A 400 or 404 answer
   * (`unsupported-date`: the broker has no calendar for the date) is kept as the reason the hours
   * are unknown (not stored); other errors are thrown.
   */
  async read(market: Market, atMs: number): Promise<void> {
    const date = calendarDateOf(market, atMs);
    const cached = this.fromStore(market, date);
    if (cached !== undefined) {
      this.keep(market, date, atMs, cached.calendar, this.clock.nowMs() - cached.ageMs);
      return;
    }
    let answer: unknown;
    try {
      answer = await (market === 'KR'
        ? this.source.getKrMarketCalendar(date)
        : this.source.getUsMarketCalendar(date));
    } catch (error) {
      if (!(error instanceof RequestValidationError || error instanceof NotFoundError)) throw error;
      this.gaps.set(market, {
        value: { date, reason: `${error.code}: ${error.brokerMessage}` },
        atMs: this.clock.nowMs(),
      });
      return;
    }
    const calendar = answer as MarketCalendar;
    this.keep(market, date, atMs, calendar, this.clock.nowMs());
    this.toStore(market, date, answer, calendar);
  }

  /** Keeps `market`'s calendar answered for `date` (`readAtMs`: when the broker gave it). */
  private keep(market: Market, date: string, atMs: number, calendar: MarketCalendar, readAtMs: number): void {
    const kept: KeptCalendar = { value: calendar, atMs: readAtMs, ...coveredSpan(calendar) };
    this.calendars.set(market, kept);
    if (covers(kept, atMs)) this.gaps.delete(market);
    else {
      const days = `${calendar.previousBusinessDay.date} to ${calendar.nextBusinessDay.date}`;
      this.gaps.set(market, {
        value: { date, reason: `the broker's answer for ${date} holds ${days} only` },
        atMs: this.clock.nowMs(),
      });
    }
  }

  /**
   * The answer for `date` the store's cache still gives out, parsed as the broker's own is, with
   * how long ago the broker gave it (none for a final one: it never changes). A row that does not
   * parse, or a store that cannot be read, is passed by: the broker is asked.
   */
  private fromStore(market: Market, date: string): { calendar: MarketCalendar; ageMs: number } | undefined {
    if (this.stored === undefined) return undefined;
    try {
      const cached = this.stored.cache.get({ broker: this.stored.broker, market, date });
      if (cached === undefined) return undefined;
      const schema = market === 'KR' ? KrMarketCalendarSchema : UsMarketCalendarSchema;
      const parsed = schema.safeParse(cached.answer);
      if (!parsed.success) return undefined;
      return { calendar: parsed.data as MarketCalendar, ageMs: cached.final ? 0 : cached.ageMs };
    } catch {
      return undefined;
    }
  }

  /**
   * Stores the broker's answer as it gave it (the connector keeps it as `raw`; an answer without
   * it, a test's, is not stored). The cache only saves requests: a store that refuses the write
   * (busy past its timeout, read-only) leaves the answer in use here, unshared.
   */
  private toStore(market: Market, date: string, answer: unknown, calendar: MarketCalendar): void {
    if (this.stored === undefined || typeof answer !== 'object' || answer === null) return;
    const raw = (answer as { readonly raw?: unknown }).raw;
    if (raw === undefined) return;
    try {
      this.stored.cache.store(
        { broker: this.stored.broker, market, date },
        raw,
        calendar.nextBusinessDay.date,
      );
    } catch {
      // unshared: the next process asks the broker
    }
  }

  /** `market`'s calendar as last read (the one around the instant last asked about), or undefined before the first read. */
  latest(market: Market): MarketCalendar | undefined {
    return this.calendars.get(market)?.value;
  }

  /**
   * The sessions of `market`'s calendar as last read, in epoch ms (the same object until it is read
   * again), or undefined before the first read: `spans.fromMs <= ms < spans.toMs` when it tells
   * the hours at `ms` (what {@link MarketCalendars.covering} judges by).
   */
  spans(market: Market): CalendarSpans | undefined {
    return this.calendars.get(market);
  }

  /** `market`'s calendar when it tells the hours at `at`, else undefined. */
  covering(market: Market, at: DateTime): MarketCalendar | undefined {
    const kept = this.calendars.get(market);
    return kept !== undefined && covers(kept, at.toMillis()) ? kept.value : undefined;
  }

  /** Why the hours of `market` at `at` are not known (the calendar not read for its date, or the broker's refusal). */
  unknownHours(market: Market, at: DateTime): string {
    const date = calendarDateOf(market, at.toMillis());
    const gap = this.gaps.get(market)?.value;
    const why = gap?.date === date ? gap.reason : 'not read for that date';
    return `hoga does not know the ${market} order hours at ${at.setZone(KST_ZONE).toISO()}: the broker's ${market} calendar for ${date}: ${why}`;
  }
}

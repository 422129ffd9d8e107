/**
 * The market-calendar cache: what the broker's KR or US calendar endpoint answered for a date (the
 * previous, current and next business day around it), as the broker gave it, so that `hoga`
 * commands run one after another read a day's calendars once: each process has its own rate
 * limiter, and a second `hoga order` within a second of the first was refused by the MARKET_INFO
 * group's 3 requests a second, and waited.
 *
 * What is used again, and for how long ({@link calendarUsable}):
 *
 * - A **final** answer is used for good: when it was read, the date asked about and the last day
 *   it holds (its next business day) were both over in the market's zone. The broker announces
 *   holidays and shortened sessions ahead; it does not change days that have passed. Rows about
 *   dates more than {@link CALENDAR_KEEP_DAYS} days ago are dropped by
 *   {@link MarketCalendarCache.forgetOld} (a paper or live run calls it as it starts): calendars
 *   are read for the day of the moment, and two rows a day would otherwise add up for good.
 * - Any other answer (about today or a day ahead: a holiday may still be announced, a session
 *   shortened) is used for {@link CALENDAR_FRESH_MS} after it was read, and only on the market day
 *   (in its zone) it was read on; then the broker is asked again and its answer replaces it. A
 *   process keeps a calendar in memory for as long again at most from the moment the broker
 *   answered (the risk module's calendar age), so the broker's newer answer reaches every process
 *   within that age.
 *
 * The answer is kept as the broker's JSON and parsed by the reader as a fresh answer is: a row its
 * reader cannot parse (another hoga's, a damaged one) is read from the broker again.
 *
 * @module
 */
import { type Clock, KST_ZONE, NEW_YORK_ZONE } from '@hoga/core';
import type Database from 'better-sqlite3';
import { StoreError, StoreErrorCode } from '../store-error.js';

/** How long an answer that is not final is used after it was read: 10 minutes. */
export const CALENDAR_FRESH_MS = 600_000;

/** How many days back from today the rows are kept by {@link MarketCalendarCache.forgetOld}: a year. */
export const CALENDAR_KEEP_DAYS = 366;

/** A market with a calendar endpoint. */
export type CalendarMarket = 'KR' | 'US';

/** Which answer: a broker's calendar of a market for a date. */
export interface CalendarKey {
  /** The broker's address (its base URL): a simulator's calendars are not a live broker's. */
  readonly broker: string;
  readonly market: CalendarMarket;
  /** The date asked about (`YYYY-MM-DD`): the KST date for KR, the New York date for US. */
  readonly date: string;
}

/** A stored answer the cache gives out. */
export interface CachedCalendar {
  /** The broker's answer (the `result` object) as it gave it. */
  readonly answer: unknown;
  /** Every day it holds was over when it was read: it never changes. */
  readonly final: boolean;
  /** When it was read (epoch ms, the store's clock). */
  readonly fetchedAt: number;
  /** How long ago it was read (ms, the store's clock). */
  readonly ageMs: number;
}

/** What {@link calendarUsable} judges: a stored answer's market, finality and read time. */
export interface CalendarEntry {
  readonly market: CalendarMarket;
  readonly final: boolean;
  readonly fetchedAt: number;
}

interface CalendarRow {
  answer: string;
  final: number;
  fetched_at: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const DAY_FORMATS: Readonly<Record<CalendarMarket, Intl.DateTimeFormat>> = {
  KR: dayFormat(KST_ZONE),
  US: dayFormat(NEW_YORK_ZONE),
};

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
}

/** The date (`YYYY-MM-DD`) of an instant in the market's zone: KST for KR, New York for US. */
export function marketDate(market: CalendarMarket, ms: number): string {
  const parts = DAY_FORMATS[market].formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * Whether the answer about `date` whose last day is `lastDate` is final at `nowMs`: both days are
 * over in the market's zone (before its today).
 */
export function isFinalCalendar(
  market: CalendarMarket,
  date: string,
  lastDate: string,
  nowMs: number,
): boolean {
  const today = marketDate(market, nowMs);
  return date < today && lastDate < today;
}

/**
 * Whether a stored answer is used at `nowMs`: a final one always; another for
 * {@link CALENDAR_FRESH_MS} after it was read, on the market day it was read on (never one read
 * "later" than now: a clock set back).
 */
export function calendarUsable(entry: CalendarEntry, nowMs: number): boolean {
  if (entry.final) return true;
  const ageMs = nowMs - entry.fetchedAt;
  return (
    ageMs >= 0 &&
    ageMs < CALENDAR_FRESH_MS &&
    marketDate(entry.market, entry.fetchedAt) === marketDate(entry.market, nowMs)
  );
}

/**
 * Reads and writes `market_calendars` (migration 11).
 *
 * @example
 * ```ts
 * const key = { broker: client.config.baseUrl, market: 'KR', date: '2026-11-23' } as const;
 * const cached = db.marketCalendars.get(key);
 * const answer = cached === undefined ? await client.getKrMarketCalendar(key.date) : parse(cached.answer);
 * if (cached === undefined) db.marketCalendars.store(key, answer.raw, answer.nextBusinessDay.date);
 * ```
 */
export class MarketCalendarCache {
  private readonly selectOne: Database.Statement;
  private readonly upsert: Database.Statement;
  private readonly deleteBefore: Database.Statement;

  /**
   * @param db - an open, migrated connection
   * @param clock - "now" for what is final and fresh, and the stamp of `fetched_at`
   */
  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.selectOne = db.prepare(
      'SELECT answer, final, fetched_at FROM market_calendars WHERE broker = ? AND market = ? AND date = ?',
    );
    this.upsert = db.prepare(
      `INSERT OR REPLACE INTO market_calendars (broker, market, date, answer, final, fetched_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.deleteBefore = db.prepare('DELETE FROM market_calendars WHERE date < ?');
  }

  /**
   * Drops the answers about dates more than {@link CALENDAR_KEEP_DAYS} days before today (KST), of
   * every broker and market: no run reads them (calendars are read for the day of the moment).
   *
   * @returns how many rows were dropped
   */
  forgetOld(): number {
    const keepFrom = marketDate('KR', this.clock.nowMs() - CALENDAR_KEEP_DAYS * 86_400_000);
    return this.deleteBefore.run(keepFrom).changes;
  }

  /**
   * The stored answer for `key` when it is still used ({@link calendarUsable}); `undefined` when
   * none is stored, it is no longer fresh, or its JSON is unreadable (the broker is to be asked).
   */
  get(key: CalendarKey): CachedCalendar | undefined {
    const row = this.selectOne.get(key.broker, key.market, key.date) as CalendarRow | undefined;
    if (row === undefined) return undefined;
    const nowMs = this.clock.nowMs();
    const final = row.final === 1;
    if (!calendarUsable({ market: key.market, final, fetchedAt: row.fetched_at }, nowMs)) return undefined;
    let answer: unknown;
    try {
      answer = JSON.parse(row.answer);
    } catch {
      return undefined;
    }
    return { answer, final, fetchedAt: row.fetched_at, ageMs: nowMs - row.fetched_at };
  }

  /**
   * Stores the broker's answer for `key` (replacing a stored one), final when `lastDate` and the
   * date asked about are over ({@link isFinalCalendar}).
   *
   * @param answer - the broker's answer as it gave it (the `result` object; JSON)
   * @param lastDate - the last day it holds (its next business day, `YYYY-MM-DD`)
   * @returns whether it was stored as final (kept for good)
   * @throws {@link StoreError} `invalid-argument` for a date that is not `YYYY-MM-DD`, another
   *   market, an empty broker, or an answer that is not JSON
   */
  store(key: CalendarKey, answer: unknown, lastDate: string): boolean {
    if (key.broker === '') throw invalid('broker: expected the broker address, found ""');
    if (key.market !== 'KR' && key.market !== 'US')
      throw invalid(`market: expected KR or US, found ${String(key.market)}`);
    for (const [name, value] of [
      ['date', key.date],
      ['lastDate', lastDate],
    ] as const) {
      if (!DATE.test(value)) throw invalid(`${name}: expected a date YYYY-MM-DD, found "${value}"`);
    }
    let text: string | undefined;
    try {
      text = JSON.stringify(answer);
    } catch {
      text = undefined;
    }
    if (text === undefined) throw invalid(`${key.market} calendar of ${key.date}: the answer is not JSON`);
    const nowMs = this.clock.nowMs();
    const final = isFinalCalendar(key.market, key.date, lastDate, nowMs);
    this.upsert.run(key.broker, key.market, key.date, text, final ? 1 : 0, nowMs);
    return final;
  }
}

function invalid(message: string): StoreError {
  return new StoreError(StoreErrorCode.INVALID_ARGUMENT, message);
}

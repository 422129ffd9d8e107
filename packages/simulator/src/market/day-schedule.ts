/**
 * The minute grid of one instrument's trading day: where the day's window starts, which minutes
 * trade continuously, where the opening and closing auctions sit, and which candle stamps exist.
 *
 * Minute `i` of the window covers `[start + i min, start + (i+1) min)`; the 1m candle stamped
 * `start + k min` covers minute `k - 1`.
 *
 * @module
 */
import { isUsEarlyClose, krRegularHours } from '@hoga/broker-model';
import { isoDate, kstMs, nyMs } from './trading-calendar.js';
import type { InstrumentSpec } from './universe.js';

/** How a minute trades. */
export const MinuteKind = {
  /** No trading. */
  NONE: 0,
  /** Continuous trading in the main session. */
  REGULAR: 1,
  /** Continuous trading in an extended session (pre, after, day market), thinner. */
  EXTENDED: 2,
  /** One single-price trade at the start of the minute (KR after-hours single price). */
  SINGLE_PRICE: 3,
} as const;
/** A value of {@link MinuteKind}. */
export type MinuteKind = (typeof MinuteKind)[keyof typeof MinuteKind];

/** The minute grid of one trading day. */
export interface DaySchedule {
  /** Local trading date (day number). */
  readonly dn: number;
  /** Epoch ms of minute 0. */
  readonly startMs: number;
  /** Minutes in the window. */
  readonly minutes: number;
  /** Minute index of the opening auction trade (at its first millisecond). */
  readonly openIdx: number;
  /** Minute index of the closing auction trade (at its first millisecond). */
  readonly closeIdx: number;
  /** First and last 1m candle stamp index (KR: every stamp in between exists). */
  readonly firstStamp: number;
  readonly lastStamp: number;
  /** Kind of each minute. */
  readonly kinds: Uint8Array;
}

const KR_WINDOW = 720; // 08:00–20:00 KST
const US_WINDOW = 1320; // 20:00 (D-1)–18:00 New York

function mark(kinds: Uint8Array, from: number, to: number, kind: MinuteKind): void {
  kinds.fill(kind, from, to);
}

const krKinds = new Map<string, Uint8Array>();

/**
 * The KR minute kinds of a day whose regular session opens `late` minutes after 09:00 and closes
 * `later` minutes after 15:30 (both 0 on a day of usual hours; a KRX late opening moves the
 * pre-market with the opening and the after-market with the close).
 */
function krMinuteKinds(spec: InstrumentSpec, late: number, later: number): Uint8Array {
  const variant = `${spec.nxtSupported}:${spec.afterMarketEligible}:${late}:${later}`;
  const cached = krKinds.get(variant);
  if (cached !== undefined) return cached;
  const kinds = new Uint8Array(KR_WINDOW);
  // 09:00–15:20 continuous (the 09:00 opening and 15:30 closing auction trades are separate)
  mark(kinds, 60 + late, 440 + later, MinuteKind.REGULAR);
  if (spec.nxtSupported) {
    mark(kinds, late, 50 + late, MinuteKind.EXTENDED); // NXT pre-market 08:00–08:50
    mark(kinds, 460 + later, KR_WINDOW, MinuteKind.EXTENDED); // NXT after-market 15:40–20:00
  } else if (spec.afterMarketEligible) {
    // 16:00–18:00 every 10 min
    for (let i = 480 + later; i <= 600 + later; i += 10) kinds[i] = MinuteKind.SINGLE_PRICE;
  }
  krKinds.set(variant, kinds);
  return kinds;
}

function krSchedule(spec: InstrumentSpec, dn: number): DaySchedule {
  const hours = krRegularHours(dn);
  const late = hours.open - 9 * 60;
  const later = hours.close - (15 * 60 + 30);
  const kinds = krMinuteKinds(spec, late, later);
  const lastStamp = spec.nxtSupported || spec.afterMarketEligible ? KR_WINDOW : 450 + later;
  return {
    dn,
    startMs: kstMs(dn, 8 * 60),
    minutes: KR_WINDOW,
    openIdx: 60 + late,
    closeIdx: 450 + later,
    firstStamp: spec.nxtSupported ? 1 + late : 61 + late,
    lastStamp,
    kinds,
  };
}

const usKinds = new Map<number, Uint8Array>();

/** The US minute kinds of a day whose regular session ends at minute `closeIdx` of the window. */
function usMinuteKinds(closeIdx: number): Uint8Array {
  const cached = usKinds.get(closeIdx);
  if (cached !== undefined) return cached;
  const kinds = new Uint8Array(US_WINDOW);
  mark(kinds, 0, 470, MinuteKind.EXTENDED); // day market 20:00–03:50
  mark(kinds, 480, 810, MinuteKind.EXTENDED); // pre-market 04:00–09:30
  mark(kinds, 810, closeIdx, MinuteKind.REGULAR); // regular 09:30–16:00 (13:00 on an early close)
  // after-market 16:00–18:00 (13:00–17:00 on an early close)
  mark(kinds, closeIdx, closeIdx === US_CLOSE ? US_WINDOW : US_WINDOW - 60, MinuteKind.EXTENDED);
  usKinds.set(closeIdx, kinds);
  return kinds;
}

/** Minute of the US window (from 20:00 the evening before) of the 16:00 close, and of an early close's 13:00. */
const US_CLOSE = 1200;
const US_EARLY_CLOSE = 1020;

function usSchedule(dn: number): DaySchedule {
  const closeIdx = isUsEarlyClose(isoDate(dn)) ? US_EARLY_CLOSE : US_CLOSE;
  return {
    dn,
    startMs: nyMs(dn - 1, 20 * 60),
    minutes: US_WINDOW,
    openIdx: 810,
    closeIdx,
    firstStamp: 1,
    lastStamp: US_WINDOW,
    kinds: usMinuteKinds(closeIdx),
  };
}

/** The minute grid of `spec` on trading day `dn`. */
export function daySchedule(spec: InstrumentSpec, dn: number): DaySchedule {
  return spec.country === 'KR' ? krSchedule(spec, dn) : usSchedule(dn);
}

/**
 * The minute grid of one instrument's trading day: where the day's window starts, which minutes
 * trade continuously, where the opening and closing auctions sit, and which candle stamps exist.
 *
 * Minute `i` of the window covers `[start + i min, start + (i+1) min)`; the 1m candle stamped
 * `start + k min` covers minute `k - 1`.
 *
 * @module
 */
import { kstMs, nyMs } from './trading-calendar.js';
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

function krMinuteKinds(spec: InstrumentSpec): Uint8Array {
  const variant = `${spec.nxtSupported}:${spec.afterMarketEligible}`;
  const cached = krKinds.get(variant);
  if (cached !== undefined) return cached;
  const kinds = new Uint8Array(KR_WINDOW);
  // 09:00–15:20 continuous (the 09:00 opening and 15:30 closing auction trades are separate)
  mark(kinds, 60, 440, MinuteKind.REGULAR);
  if (spec.nxtSupported) {
    mark(kinds, 0, 50, MinuteKind.EXTENDED); // NXT pre-market 08:00–08:50
    mark(kinds, 460, KR_WINDOW, MinuteKind.EXTENDED); // NXT after-market 15:40–20:00
  } else if (spec.afterMarketEligible) {
    for (let i = 480; i <= 600; i += 10) kinds[i] = MinuteKind.SINGLE_PRICE; // 16:00–18:00 every 10 min
  }
  krKinds.set(variant, kinds);
  return kinds;
}

function krSchedule(spec: InstrumentSpec, dn: number): DaySchedule {
  const kinds = krMinuteKinds(spec);
  const lastStamp = spec.nxtSupported || spec.afterMarketEligible ? KR_WINDOW : 450;
  return {
    dn,
    startMs: kstMs(dn, 8 * 60),
    minutes: KR_WINDOW,
    openIdx: 60,
    closeIdx: 450,
    firstStamp: spec.nxtSupported ? 1 : 61,
    lastStamp,
    kinds,
  };
}

let usKinds: Uint8Array | undefined;

function usSchedule(dn: number): DaySchedule {
  if (usKinds === undefined) {
    usKinds = new Uint8Array(US_WINDOW);
    mark(usKinds, 0, 470, MinuteKind.EXTENDED); // day market 20:00–03:50
    mark(usKinds, 480, 810, MinuteKind.EXTENDED); // pre-market 04:00–09:30
    mark(usKinds, 810, 1200, MinuteKind.REGULAR); // regular 09:30–16:00
    mark(usKinds, 1200, US_WINDOW, MinuteKind.EXTENDED); // after-market 16:00–18:00
  }
  return {
    dn,
    startMs: nyMs(dn - 1, 20 * 60),
    minutes: US_WINDOW,
    openIdx: 810,
    closeIdx: 1200,
    firstStamp: 1,
    lastStamp: US_WINDOW,
    kinds: usKinds,
  };
}

/** The minute grid of `spec` on trading day `dn`. */
export function daySchedule(spec: InstrumentSpec, dn: number): DaySchedule {
  return spec.country === 'KR' ? krSchedule(spec, dn) : usSchedule(dn);
}

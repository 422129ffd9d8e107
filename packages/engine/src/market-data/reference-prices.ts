/**
 * KR reference prices from the bars themselves: the previous trading day's regular close of each
 * symbol, which the bar fill model turns into the day's ±30 % price limits
 * (`new BarFillModel({ referencePrice: (bar) => refs.of(bar) })`). Numbers only, one small record per
 * symbol; corporate-action adjustments are not known here (adjusted bars already account for them).
 *
 * The broker's reference is the regular session's close (the KRX closing auction at 15:30 KST, or
 * the day's special close), not the day's last trade: KR minute candles go on to 20:00 (the NXT
 * after-market). The closing auction's trade falls in the candle stamped a minute after the close
 * (15:31; spec, candle rule 5), so a day's reference is the close of its last bar stamped at most a
 * minute after the regular close (core's `regularCloseOfDailyStamp`: 16:30 on the CSAT day), or,
 * when all its bars begin later, of its last bar. A daily bar's close is the regular close. A US
 * symbol's reference stays its last close (no price limits read it).
 *
 * @module
 */
import { type Bar, Market, marketOfSymbol, regularCloseOfDailyStamp } from '@hoga/core';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const KST_OFFSET_MS = 9 * 3_600_000;

/**
 * One symbol's closes: the last observed day's, its regular close, and the previous day's regular
 * close. A caller walking many bars of a symbol keeps it at hand ({@link ReferencePrices.forSymbol})
 * instead of looking the symbol up on every bar.
 */
export class SymbolReference {
  /** KST day number of the last bar observed (NaN: none yet). */
  day = Number.NaN;
  /** Its close. */
  close = Number.NaN;
  /**
   * The regular close of `day`: the close of its last bar stamped by {@link regularEnd} (NaN when
   * none: the reference is then {@link close}).
   */
  regular = Number.NaN;
  /** The regular close of the day before `day` (NaN until one is known). */
  previous = Number.NaN;
  /**
   * The last bar stamp of `day` that holds its regular close (a minute after the close: the
   * closing auction's candle; the day's start until a later bar of it comes, see {@link endKnown});
   * +Infinity for a US symbol, whose days are not cut here.
   */
  regularEnd = Number.POSITIVE_INFINITY;
  /** Whether {@link regularEnd} is the day's cut (else the day's start, until a bar after it). */
  private endKnown = true;
  private readonly kr: boolean;

  /** @param symbol - the symbol (its market decides where a day's regular session ends) */
  constructor(symbol: string) {
    this.kr = marketOfSymbol(symbol) === Market.KR;
  }

  /** The reference price of the day after `day`: its regular close, else its last close. */
  get reference(): number {
    return Number.isNaN(this.regular) ? this.close : this.regular;
  }

  /** Records a completed bar of the symbol (in delivery order). */
  observe(bar: Bar): void {
    const day = Math.floor((bar.ts + KST_OFFSET_MS) / DAY_MS);
    if (day !== this.day) {
      // once a day per symbol: the day's regular close (on a day of special hours, its own)
      this.previous = this.reference;
      this.day = day;
      this.regular = Number.NaN;
      // a KR day's start for now: a daily bar (stamped there) holds the regular close without a
      // look at the day's hours; the first bar after it (a minute bar) looks them up, once a day
      if (this.kr) {
        this.regularEnd = day * DAY_MS - KST_OFFSET_MS;
        this.endKnown = false;
      }
    }
    this.close = bar.close;
    if (bar.ts > this.regularEnd && !this.endKnown) {
      this.regularEnd = regularCloseOfDailyStamp(Market.KR, this.regularEnd) + MINUTE_MS;
      this.endKnown = true;
    }
    if (bar.ts <= this.regularEnd) this.regular = bar.close;
  }
}

/** Tracks, per symbol, the regular close of the previous KST trading day. */
export class ReferencePrices {
  private readonly symbols = new Map<string, SymbolReference>();

  /** The closes of `symbol` (made at the first call). */
  forSymbol(symbol: string): SymbolReference {
    let s = this.symbols.get(symbol);
    if (s === undefined) {
      s = new SymbolReference(symbol);
      this.symbols.set(symbol, s);
    }
    return s;
  }

  /** Records a completed bar (call it after the bar was matched, in delivery order). */
  observe(bar: Bar): void {
    this.forSymbol(bar.symbol).observe(bar);
  }

  /**
   * The reference price for `bar`'s trading day: the regular close of an earlier day (the last
   * observed), or `undefined` when none is known yet.
   */
  of(bar: Bar): number | undefined {
    const s = this.symbols.get(bar.symbol);
    if (s === undefined) return undefined;
    const day = Math.floor((bar.ts + KST_OFFSET_MS) / DAY_MS);
    const ref = day === s.day ? s.previous : s.reference;
    return Number.isNaN(ref) ? undefined : ref;
  }

  /**
   * The reference price of `symbol` for orders that trade on the KST day of `ms`, or, with no
   * `ms`, on a day after its last bar's (a daily bar's orders, for the next open): the regular
   * close of an earlier day (the last observed); `undefined` when none is known yet.
   */
  at(symbol: string, ms?: number): number | undefined {
    const s = this.symbols.get(symbol);
    if (s === undefined) return undefined;
    const ref =
      ms !== undefined && Math.floor((ms + KST_OFFSET_MS) / DAY_MS) === s.day ? s.previous : s.reference;
    return Number.isNaN(ref) ? undefined : ref;
  }
}

/**
 * KR reference prices from the bars themselves: the previous trading day's last close of each
 * symbol, which the bar fill model turns into the day's ±30 % price limits
 * (`new BarFillModel({ referencePrice: (bar) => refs.of(bar) })`). Numbers only, one small record per
 * symbol; corporate-action adjustments are not known here (adjusted bars already account for them).
 *
 * @module
 */
import type { Bar } from '@hoga/core';

const DAY_MS = 86_400_000;
const KST_OFFSET_MS = 9 * 3_600_000;

/**
 * One symbol's closes: the last observed day's, and the last close of the day before it. A caller
 * walking many bars of a symbol keeps it at hand ({@link ReferencePrices.forSymbol}) instead of
 * looking the symbol up on every bar.
 */
export class SymbolReference {
  /** KST day number of the last bar observed (NaN: none yet). */
  day = Number.NaN;
  /** Its close. */
  close = Number.NaN;
  /** The last close of the day before `day` (NaN until one is known). */
  previous = Number.NaN;

  /** Records a completed bar of the symbol (in delivery order). */
  observe(bar: Bar): void {
    const day = Math.floor((bar.ts + KST_OFFSET_MS) / DAY_MS);
    if (day !== this.day) {
      this.previous = this.close;
      this.day = day;
    }
    this.close = bar.close;
  }
}

/** Tracks, per symbol, the last close of the previous KST trading day. */
export class ReferencePrices {
  private readonly symbols = new Map<string, SymbolReference>();

  /** The closes of `symbol` (made at the first call). */
  forSymbol(symbol: string): SymbolReference {
    let s = this.symbols.get(symbol);
    if (s === undefined) {
      s = new SymbolReference();
      this.symbols.set(symbol, s);
    }
    return s;
  }

  /** Records a completed bar (call it after the bar was matched, in delivery order). */
  observe(bar: Bar): void {
    this.forSymbol(bar.symbol).observe(bar);
  }

  /**
   * The reference price for `bar`'s trading day: the last close observed on an earlier day, or
   * `undefined` when none is known yet.
   */
  of(bar: Bar): number | undefined {
    const s = this.symbols.get(bar.symbol);
    if (s === undefined) return undefined;
    const day = Math.floor((bar.ts + KST_OFFSET_MS) / DAY_MS);
    const ref = day === s.day ? s.previous : s.close;
    return Number.isNaN(ref) ? undefined : ref;
  }

  /**
   * The reference price of `symbol` for orders that trade on the KST day of `ms`, or, with no
   * `ms`, on a day after its last bar's (a daily bar's orders, for the next open): the last close
   * observed on an earlier day; `undefined` when none is known yet.
   */
  at(symbol: string, ms?: number): number | undefined {
    const s = this.symbols.get(symbol);
    if (s === undefined) return undefined;
    const ref =
      ms !== undefined && Math.floor((ms + KST_OFFSET_MS) / DAY_MS) === s.day ? s.previous : s.close;
    return Number.isNaN(ref) ? undefined : ref;
  }
}

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

interface SymbolCloses {
  /** KST day number of the last bar observed. */
  day: number;
  /** Its close. */
  close: number;
  /** The last close of the day before `day` (NaN until one is known). */
  previous: number;
}

/** Tracks, per symbol, the last close of the previous KST trading day. */
export class ReferencePrices {
  private readonly symbols = new Map<string, SymbolCloses>();

  /** Records a completed bar (call it after the bar was matched, in delivery order). */
  observe(bar: Bar): void {
    const day = Math.floor((bar.ts + KST_OFFSET_MS) / DAY_MS);
    const s = this.symbols.get(bar.symbol);
    if (s === undefined) {
      this.symbols.set(bar.symbol, { day, close: bar.close, previous: Number.NaN });
      return;
    }
    if (day !== s.day) {
      s.previous = s.close;
      s.day = day;
    }
    s.close = bar.close;
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
}

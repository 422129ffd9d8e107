/**
 * USD/KRW rates for valuing USD cash and holdings in KRW. No currency is ever exchanged: the rate
 * only values the portfolio.
 *
 * @module
 */

/** The USD/KRW rate valid at an instant. */
export interface FxRates {
  /** KRW per USD valid at `ms` (epoch ms). */
  usdKrwAt(ms: number): number;
}

/** Injection token of {@link FxRates}. */
export const FxRates = Symbol.for('hoga.engine.FxRates');

/** One rate for the whole run (backtests: `--usd-krw`, or the rate fetched once). */
export class FixedFxRates implements FxRates {
  /** @param usdKrw - KRW per USD (> 0) */
  constructor(private readonly usdKrw: number) {
    checkedRate(usdKrw);
  }

  /** @inheritdoc */
  usdKrwAt(_ms: number): number {
    return this.usdKrw;
  }
}

/**
 * The rate valid now, kept up to date by whoever follows the broker's rate (a live or paper run:
 * the exchange-rate stream): each value holds until the next one is {@link LatestFxRates.set}.
 */
export class LatestFxRates implements FxRates {
  private usdKrw: number;

  /** @param usdKrw - KRW per USD to start from (> 0) */
  constructor(usdKrw: number) {
    this.usdKrw = checkedRate(usdKrw);
  }

  /** The rate valid from now on (> 0). */
  set(usdKrw: number): void {
    this.usdKrw = checkedRate(usdKrw);
  }

  /** @inheritdoc */
  usdKrwAt(_ms: number): number {
    return this.usdKrw;
  }
}

function checkedRate(usdKrw: number): number {
  if (!(usdKrw > 0) || !Number.isFinite(usdKrw)) {
    throw new RangeError(`usdKrw: expected a positive rate, found ${String(usdKrw)}`);
  }
  return usdKrw;
}

/**
 * A step function over dated rates: each rate is valid from its time until the next one (the
 * exchange-rate endpoint's history, fetched once and cached). Before the first, the first applies.
 */
export class SteppedFxRates implements FxRates {
  private readonly times: Float64Array;
  private readonly rates: Float64Array;
  private last = 0;

  /**
   * @param points - `[validFromMs, usdKrw]` pairs, any order (at least one; each time finite, each
   *   rate positive)
   * @throws RangeError naming a time or a rate that is not one
   */
  constructor(points: readonly (readonly [number, number])[]) {
    if (points.length === 0) throw new RangeError('SteppedFxRates: expected at least one rate');
    for (const [time, rate] of points) {
      if (!Number.isFinite(time))
        throw new RangeError(`SteppedFxRates: expected a time in ms, found ${String(time)}`);
      checkedRate(rate);
    }
    const sorted = [...points].sort((a, b) => a[0] - b[0]);
    this.times = Float64Array.from(sorted.map((p) => p[0]));
    this.rates = Float64Array.from(sorted.map((p) => p[1]));
  }

  /** @inheritdoc */
  usdKrwAt(ms: number): number {
    let i = this.last;
    if ((this.times[i] ?? 0) > ms) i = 0;
    while (i + 1 < this.times.length && (this.times[i + 1] ?? 0) <= ms) i++;
    this.last = i;
    return this.rates[i] ?? 0;
  }
}

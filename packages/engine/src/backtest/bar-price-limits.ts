/**
 * The KR daily price limits of a backtest, from its bars: ±30 % of the previous trading day's
 * regular close (the {@link ReferencePrices} the bar loop keeps: on minute bars the close of the
 * candle holding the closing auction, not of the after-market's last), on the grid, for the day an order placed
 * now trades in (minute bars: the clock's day; daily bars: the next day, whose limits are the last
 * bar's close). The broker's rules judge a limit price by them, and a KR market buy's funds at the
 * upper one (what the broker reserves for it); the bar fill model bounds its fills by the same
 * references.
 *
 * @module
 */
import { krPriceLimits, krPriceLimitsOfNumber, type PriceLimits } from '@hoga/broker-model';
import { type Clock, decimalOfNumber, type Instrument } from '@hoga/core';
import type { ReferencePrices } from '../market-data/reference-prices.js';

/** A backtest's KR price limits, made once per symbol and reference. */
export class BarPriceLimits {
  /** The last answer per symbol, with the reference price it was made from. */
  private readonly bySymbol = new Map<string, { reference: number; limits: PriceLimits; upper: number }>();

  /**
   * @param references - the previous day's regular closes (fed by the bar loop)
   * @param clock - the run's clock
   * @param nextDay - whether orders trade from the next trading day (daily bars)
   */
  constructor(
    private readonly references: ReferencePrices,
    private readonly clock: Clock,
    private readonly nextDay: boolean,
  ) {}

  /**
   * A KR instrument's limits for the day its orders trade, or null: a US instrument (none), or the
   * previous day's regular close not known (the run's first day).
   */
  of(instrument: Instrument): PriceLimits | null {
    if (instrument.market !== 'KR') return null;
    const reference = this.references.at(instrument.symbol, this.nextDay ? undefined : this.clock.nowMs());
    if (reference === undefined) return null;
    const cached = this.bySymbol.get(instrument.symbol);
    if (cached !== undefined && cached.reference === reference) return cached.limits;
    // in numbers from a whole-won close (a Decimal rounding onto the grid cost 20 µs an order)
    const numbers = krPriceLimitsOfNumber(instrument, reference);
    const limits =
      numbers === null
        ? krPriceLimits(instrument, decimalOfNumber(reference))
        : { upper: decimalOfNumber(numbers.upper), lower: decimalOfNumber(numbers.lower) };
    this.bySymbol.set(instrument.symbol, {
      reference,
      limits,
      upper: numbers?.upper ?? limits.upper.toNumber(),
    });
    return limits;
  }

  /** The upper limit of {@link of} as a number, or undefined when there is none. */
  upperOf(instrument: Instrument): number | undefined {
    return this.of(instrument) === null ? undefined : this.bySymbol.get(instrument.symbol)?.upper;
  }
}

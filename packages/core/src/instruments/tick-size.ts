/**
 * Price tick grids: the KRX table (since 2023) for KR stocks, a flat 5 won for KR ETF/ETN, and
 * $0.01 from $1 / $0.0001 below for US stocks.
 *
 * @module
 */
import { Decimal } from '../decimal/decimal.js';
import { ValidationError } from '../errors.js';
import { type Instrument, SecurityType } from './instrument.js';
import { Market } from './market.js';

/** KRX stock tick table in won: `[upper bound (exclusive), tick]`; the last row has no bound. */
const KR_STOCK_TICK_ROWS: ReadonlyArray<readonly [number, number]> = [
  [2_000, 1],
  [5_000, 5],
  [20_000, 10],
  [50_000, 50],
  [200_000, 100],
  [500_000, 500],
  [Number.POSITIVE_INFINITY, 1_000],
];
/** The same table as Decimals (the unbounded last row's bound is null). */
const KR_STOCK_TICKS: ReadonlyArray<readonly [Decimal | null, Decimal]> = KR_STOCK_TICK_ROWS.map(
  ([bound, tick]) => [Number.isFinite(bound) ? new Decimal(bound) : null, new Decimal(tick)] as const,
);
const KR_FUND_TICK_WON = 5;
const KR_FUND_TICK = new Decimal(KR_FUND_TICK_WON);
const US_TICK = new Decimal('0.01');
const US_SUB_DOLLAR_TICK = new Decimal('0.0001');
const ONE = new Decimal(1);

function assertPrice(price: Decimal): void {
  if (!(price instanceof Decimal) || !price.isFinite() || price.isNegative()) {
    throw new ValidationError(
      'price',
      `expected a non-negative finite Decimal price, found ${String(price)}`,
    );
  }
}

function isKrFund(instrument: Instrument): boolean {
  return instrument.securityType === SecurityType.ETF || instrument.securityType === SecurityType.ETN;
}

/**
 * The tick size at a price.
 *
 * @param instrument - the instrument (its market and security type pick the table)
 * @param price - a non-negative price
 * @returns the tick that applies at `price`
 * @throws {@link ValidationError} for a negative or non-finite price
 */
export function tickSize(instrument: Instrument, price: Decimal): Decimal {
  assertPrice(price);
  if (instrument.market === Market.US) return price.lessThan(ONE) ? US_SUB_DOLLAR_TICK : US_TICK;
  if (isKrFund(instrument)) return KR_FUND_TICK;
  for (const [bound, tick] of KR_STOCK_TICKS) {
    if (bound === null || price.lessThan(bound)) return tick;
  }
  /* c8 ignore next */
  throw new ValidationError('price', `no tick row for ${price.toFixed()}`);
}

/**
 * The tick size at a price in numbers, for KR instruments (whole-won ticks, exact as numbers): the
 * same tick as {@link tickSize}, without making a Decimal. US ticks are fractions of a dollar, not
 * exact as numbers: NaN there, and for a negative or non-finite price.
 *
 * @param instrument - the instrument (its market and security type pick the table)
 * @param price - a non-negative price in won
 * @returns the tick in won, or NaN
 */
export function krTickSizeOfNumber(instrument: Instrument, price: number): number {
  if (instrument.market !== Market.KR || !Number.isFinite(price) || price < 0) return Number.NaN;
  if (isKrFund(instrument)) return KR_FUND_TICK_WON;
  for (const [bound, tick] of KR_STOCK_TICK_ROWS) {
    if (price < bound) return tick;
  }
  /* c8 ignore next */
  return Number.NaN;
}

/**
 * Rounds a price onto the tick grid.
 *
 * Rounding down stays within the tick band of `price`; rounding up may land on a band boundary
 * (e.g. KR 1,999.5 → 2,000), which is itself a valid price.
 *
 * @param instrument - the instrument
 * @param price - a non-negative price
 * @param direction - `'up'` (toward +∞) or `'down'` (toward 0)
 * @returns the nearest valid price in that direction (`price` itself when already on the grid)
 */
export function roundToTick(instrument: Instrument, price: Decimal, direction: 'up' | 'down'): Decimal {
  const tick = tickSize(instrument, price);
  const steps = price.dividedBy(tick);
  const rounded = direction === 'up' ? steps.ceil() : steps.floor();
  return rounded.times(tick);
}

/**
 * Whether a price sits on the tick grid.
 *
 * @param instrument - the instrument
 * @param price - a non-negative price
 */
export function isOnTick(instrument: Instrument, price: Decimal): boolean {
  return price.modulo(tickSize(instrument, price)).isZero();
}

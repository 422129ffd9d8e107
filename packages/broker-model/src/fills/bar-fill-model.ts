/**
 * The bar fill model for backtests: how a working order fills against one completed bar.
 *
 * Rules, in the order they are applied:
 * 1. **Only completed bars after acceptance.** A bar fills nothing when it closed at or before the
 *    order was accepted (`bar.closeTime <= order.acceptedAt`): an order placed on a bar's close
 *    never fills on that bar. A bar that has not closed yet at `nowMs` fills nothing either.
 * 2. **Market orders** fill at the bar's open, on bars of the regular session only (a minute bar
 *    of the pre- or after-market fills none: the broker trades market orders in the regular
 *    session alone; before, one still working at the close filled on the after-market's first bar
 *    with volume). The first bar after an order placed before the session opens is the one holding
 *    the opening auction (KR: the 09:01 minute candle, whose open is the auction price), so pre-open
 *    orders fill at the auction price; the last is the one holding the closing auction (KR 15:31,
 *    US 16:01 New York).
 * 3. **Limit orders** fill when the bar's range reaches the limit (a buy when `low <= limit`, a sell
 *    when `high >= limit`; touching exactly is enough), at the limit, or at the open when the bar
 *    gapped through it (a buy whose open is below its limit fills at the open, a better price).
 * 4. **Orders accepted inside a bar.** Rules 2 and 3 hold for an order accepted at or before the
 *    bar's open time (core's `barOpenTime`: the minute's start for `1m`, the regular open of the
 *    trading date for `1d`, KR 09:00 KST, US 09:30 New York), as every order placed on an earlier
 *    bar's close is. An order accepted after it (from a timer, between two closes) was not there
 *    for the open nor, as far as a bar tells, for its high and low: of the part of the bar after it
 *    a bar tells only the close, so a market order fills at the close, and a limit order at the
 *    close when the close reaches its limit (the close is the first price it sees, as the open is
 *    for an order resting before the bar), else not on this bar.
 * 5. **CLS** (US limit orders at the close) fill only on the bar holding the regular close (every
 *    `1d` bar; the `1m` bar stamped 16:00 New York or the one stamped 16:01, which holds trades at
 *    exactly 16:00, the closing cross, as KR's 15:31 candle holds its closing auction; 13:00 and
 *    13:01 on an early close), at the bar's close, when the close satisfies the limit.
 * 6. **Volume cap.** At most `volumeFraction × bar.volume` shares fill on one bar (whole shares,
 *    unless what remains is a fraction that fits); the rest stays working and carries to later bars.
 *    A bar without volume fills nothing. The cap is per order: a caller with several orders of one
 *    symbol shares the bar's volume between them itself.
 * 7. **Amount orders** (US market buys sized in dollars) buy `remaining amount / fill price` shares,
 *    truncated to the broker's fractional places, then capped as above.
 * 8. **Ticks and price limits.** Fill prices lie on the tick grid of core's `tickSize` (a price off
 *    the grid, as a synthetic bar may hold, rounds against the trader: buys up, sells down) and, when
 *    a reference price is known for the bar (KR: the previous close), inside the KR daily price
 *    limits (±30 % of the reference, on the grid, see {@link krPriceLimits}).
 *
 * Each call returns at most one slice (one price per bar); the time of a slice is the bar's
 * `closeTime`, when a bar model can know of the fill. The model keeps no state and never changes the
 * order: the caller applies the slice and calls again with the next bar for what remains.
 *
 * @module
 */
import {
  type Bar,
  BarInterval,
  barOpenTime,
  Decimal,
  decimalOfNumber,
  exactIntOf,
  type Instrument,
  instrumentOf,
  isOnTick,
  krTickSizeOfNumber,
  MAX_FRACTIONAL_DECIMALS,
  Market,
  OrderSide,
  OrderType,
  regularCloseOfDailyStamp,
  regularOpenOfDailyStamp,
  roundToTick,
  TimeInForce,
  tickSize,
} from '@hoga/core';
import { usSessions, usTradingDay } from '../calendar/session-hours.js';
import { krPriceLimits } from '../rules/price-limits.js';
import type { FillableOrder, FillModel, FillSlice } from './fill-model.js';

/** Default share of a bar's volume one order may take: 10 %. */
export const DEFAULT_VOLUME_FRACTION = 0.1;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Options of {@link BarFillModel}. */
export interface BarFillModelOptions {
  /**
   * Share of a bar's volume one order may fill on that bar (default {@link DEFAULT_VOLUME_FRACTION});
   * `Infinity` disables the cap.
   */
  readonly volumeFraction?: number;
  /** The instrument of a symbol, for its tick table (default core's `instrumentOf`, a stock). */
  readonly instrument?: (symbol: string) => Instrument;
  /**
   * The reference price of the bar's trading day (KR: the previous regular close), or `undefined`
   * when unknown; with it, KR fill prices stay inside the daily price limits.
   */
  readonly referencePrice?: (bar: Bar) => number | undefined;
}

export { krPriceLimits } from '../rules/price-limits.js';

/**
 * Fills backtest orders against bars (see the module documentation for the rules).
 *
 * @example
 * ```ts
 * const model = new BarFillModel({ volumeFraction: 0.05 });
 * const slices = model.match(order, nextBar, clock.nowMs()); // [] or one slice
 * ```
 */
export class BarFillModel implements FillModel<Bar> {
  private readonly volumeFraction: number;
  private readonly instrumentOf: (symbol: string) => Instrument;
  private readonly referencePrice: ((bar: Bar) => number | undefined) | undefined;
  private readonly instruments = new Map<string, Instrument>();

  /** @param options - see {@link BarFillModelOptions} */
  constructor(options: BarFillModelOptions = {}) {
    const fraction = options.volumeFraction ?? DEFAULT_VOLUME_FRACTION;
    if (!(fraction > 0)) {
      throw new RangeError(`volumeFraction: expected a number > 0, found ${String(fraction)}`);
    }
    this.volumeFraction = fraction;
    this.instrumentOf = options.instrument ?? ((symbol) => instrumentOf(symbol));
    this.referencePrice = options.referencePrice;
  }

  /** @inheritdoc */
  match(order: FillableOrder, bar: Bar, nowMs: number): readonly FillSlice[] {
    if (bar.symbol !== order.symbol || bar.closeTime <= order.acceptedAt || bar.closeTime > nowMs) return [];
    const price = this.fillPrice(order, bar, this.acceptedInside(order, bar));
    if (price === null) return [];
    const quantity = this.fillQuantity(order, bar, price);
    // positive (the sign and zero test of decimal.js, no Decimal made for the 0)
    if (quantity === null || !quantity.isPositive() || quantity.isZero()) return [];
    return [{ quantity, price, time: bar.closeTime }];
  }

  /**
   * Whether `order` was accepted after `bar`'s open time, inside its period (rule 4). An order
   * accepted before the bar's stamp less a minute (a minute's start, or the evening before a daily
   * bar's trading date) is before its open: the open time is worked out only for the others.
   */
  private acceptedInside(order: FillableOrder, bar: Bar): boolean {
    const at = order.acceptedAt;
    if (at <= bar.ts - MINUTE_MS) return false;
    return at > barOpenTime(this.instrument(order.symbol).market, bar.interval, bar.ts);
  }

  /**
   * The price `order` fills at on `bar`, or null when it does not fill there; `inside` when the
   * order was accepted inside the bar's period (rule 4).
   */
  private fillPrice(order: FillableOrder, bar: Bar, inside: boolean): Decimal | null {
    const buy = order.side === OrderSide.BUY;
    const cls = order.timeInForce === TimeInForce.CLS;
    let raw: number;
    if (cls && !holdsRegularClose(order, bar)) return null;
    // a market order trades in the regular session only (rule 2): not in the pre- or after-market
    if ((order.orderType === OrderType.MARKET || order.price === null) && !inRegularSession(order, bar))
      return null;
    if (cls || inside) {
      // at the close: the closing auction, or the one price a bar tells of its part after the order
      raw = bar.close;
      if (order.orderType !== OrderType.MARKET && order.price !== null) {
        const limit = order.price.toNumber();
        if (buy ? raw > limit : raw < limit) return null;
      }
    } else if (order.orderType === OrderType.MARKET || order.price === null) {
      raw = bar.open;
    } else {
      const limit = order.price.toNumber();
      if (buy) {
        if (bar.low > limit) return null;
        if (bar.open <= limit) raw = bar.open;
        else return this.bounded(order, bar, order.price, limit, buy);
      } else {
        if (bar.high < limit) return null;
        if (bar.open >= limit) raw = bar.open;
        else return this.bounded(order, bar, order.price, limit, buy);
      }
    }
    return this.bounded(order, bar, null, raw, buy);
  }

  /**
   * The price (`price`, or the bar's number `raw` when null) on the tick grid (against the trader)
   * and inside the day's price limits. A whole-unit price on a whole-unit tick (KR) is judged in
   * numbers (core's KR tick table in won); the Decimal of a bar price is made only here, once.
   */
  private bounded(order: FillableOrder, bar: Bar, price: Decimal | null, raw: number, buy: boolean): Decimal {
    const instrument = this.instrument(order.symbol);
    const tick = Number.isSafeInteger(raw) ? krTickSizeOfNumber(instrument, raw) : Number.NaN;
    let p: Decimal;
    let inside = false;
    if (tick >= 1 && Number.isSafeInteger(tick) && raw % tick === 0) {
      // on the grid: the price as it is
      p = price ?? decimalOfNumber(raw);
      inside = this.clearlyInside(instrument, bar, raw);
    } else {
      const d = price ?? decimalOfNumber(raw);
      p = onGrid(instrument, d) ? d : roundToTick(instrument, d, buy ? 'up' : 'down');
    }
    if (!inside && instrument.market === Market.KR && this.referencePrice !== undefined) {
      const ref = this.referencePrice(bar);
      if (ref !== undefined && ref > 0 && !clearlyInsideLimits(p.toNumber(), ref)) {
        const { lower, upper } = krPriceLimits(instrument, new Decimal(ref));
        if (p.gt(upper)) p = upper;
        if (p.lt(lower)) p = lower;
      }
    }
    return p;
  }

  /** Whether `price` needs no price-limit check (not KR, no reference, or clearly inside the limits). */
  private clearlyInside(instrument: Instrument, bar: Bar, price: number): boolean {
    if (instrument.market !== Market.KR || this.referencePrice === undefined) return true;
    const ref = this.referencePrice(bar);
    return ref === undefined || !(ref > 0) || clearlyInsideLimits(price, ref);
  }

  /** The quantity filled at `price` on `bar`, capped by the bar's volume; null when none. */
  private fillQuantity(order: FillableOrder, bar: Bar, price: Decimal): Decimal | null {
    let remaining: Decimal;
    if (order.quantity !== null) {
      // nothing filled yet: the whole quantity (q − 0 is q)
      remaining = order.filledQuantity.isZero() ? order.quantity : order.quantity.minus(order.filledQuantity);
    } else if (order.orderAmount !== null) {
      const left = order.orderAmount.minus(order.filledAmount);
      if (!left.isPositive() || left.isZero() || !price.isPositive() || price.isZero()) return null;
      remaining = left.dividedBy(price).toDecimalPlaces(MAX_FRACTIONAL_DECIMALS, Decimal.ROUND_DOWN);
    } else {
      return null;
    }
    if (!remaining.isPositive() || remaining.isZero()) return null;
    if (!Number.isFinite(this.volumeFraction)) return remaining;
    const cap = Math.floor(bar.volume * this.volumeFraction * 1e6) / 1e6;
    // Compared as numbers: a quantity has at most 6 decimals, the cap is floored to 6 as well.
    const exact = exactIntOf(remaining);
    if ((Number.isNaN(exact) ? remaining.toNumber() : exact) <= cap) return remaining;
    const whole = Math.floor(cap);
    return whole > 0 ? decimalOfNumber(whole) : null;
  }

  private instrument(symbol: string): Instrument {
    let instrument = this.instruments.get(symbol);
    if (instrument === undefined) {
      instrument = this.instrumentOf(symbol);
      this.instruments.set(symbol, instrument);
    }
    return instrument;
  }
}

/**
 * Whether a KR price is inside the daily limits of `ref` by a margin no tick can close, judged in
 * numbers (the common case: no Decimal limits computed). The limits are `ref × 1.3` rounded down
 * and `ref × 0.7` rounded up to the tick; from a reference of 10,000 KRW up, a tick is at most
 * 0.5 % of the price (ETFs: less), so 2 % inside both bounds is inside the rounded limits.
 */
function clearlyInsideLimits(price: number, ref: number): boolean {
  return ref >= 10_000 && price <= ref * 1.3 * 0.98 && price >= ref * 0.7 * 1.02;
}

/**
 * Whether `price` is already on the tick grid, checked in numbers first (bar prices nearly always
 * are), so that the common case costs no Decimal division.
 */
function onGrid(instrument: Instrument, price: Decimal): boolean {
  const tick = tickSize(instrument, price).toNumber();
  const p = price.toNumber();
  // Whole-won prices and ticks (KR) are exact in numbers; anything else is confirmed in decimals.
  if (tick >= 1 && Number.isSafeInteger(p)) return p % tick === 0;
  const steps = p / tick;
  return Math.abs(steps - Math.round(steps)) < 1e-9 && isOnTick(instrument, price);
}

/** A KR minute bar's trading date: the KST midnight (epoch ms) of the minute it holds, the daily candle's stamp. */
function krTradingDateOf(bar: Bar): number {
  const kst = bar.ts - MINUTE_MS + 9 * 3_600_000;
  return Math.floor(kst / DAY_MS) * DAY_MS - 9 * 3_600_000;
}

/**
 * Whether `bar` holds trades of its trading day's regular session (a market order fills only on
 * such a bar): every `1d` bar; a minute bar stamped after the regular open up to a minute after the
 * close (KR 09:01–15:31, whose first holds the opening auction and last the closing one; US
 * 09:31–16:01 New York; special hours as core's and the broker's session hours say).
 */
function inRegularSession(order: FillableOrder, bar: Bar): boolean {
  if (bar.interval === BarInterval.DAY) return true;
  if (order.currency === 'USD') {
    const regular = usSessions(usTradingDay(bar.ts - MINUTE_MS)).regularMarket;
    return bar.ts > regular.start && bar.ts <= regular.end + MINUTE_MS;
  }
  const kstMidnight = krTradingDateOf(bar);
  return (
    bar.ts > regularOpenOfDailyStamp(Market.KR, kstMidnight) &&
    bar.ts <= regularCloseOfDailyStamp(Market.KR, kstMidnight) + MINUTE_MS
  );
}

/**
 * Whether `bar` holds the regular close of its trading day (CLS orders fill only there): the minute
 * bar stamped at the close or a minute after (it holds the trades at exactly the close). A US close
 * is the broker's session hours' (16:00 New York, 13:00 on an early close).
 */
function holdsRegularClose(order: FillableOrder, bar: Bar): boolean {
  if (bar.interval === BarInterval.DAY) return true;
  if (order.currency === 'USD') {
    const close = usSessions(usTradingDay(bar.ts - MINUTE_MS)).regularMarket.end;
    return bar.ts === close || bar.ts === close + MINUTE_MS;
  }
  const close = regularCloseOfDailyStamp(Market.KR, krTradingDateOf(bar));
  return bar.ts === close || bar.ts === close + MINUTE_MS;
}

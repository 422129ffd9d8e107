/**
 * The book-walking fill model: the broker's matcher as the simulator runs it, and as paper trading
 * runs it on the connector's live order-book snapshots.
 *
 * @module
 */
import { Decimal, type OrderSide } from '@hoga/core';
import { roundCash } from '../economics/cash.js';
import { commissionFor, commissionRateFor, marketOfCurrency } from '../economics/fees.js';
import { SHARE_PLACES } from '../economics/reservations.js';
import type { FillableOrder, FillModel, FillSlice } from './fill-model.js';

/** One price level of a book: its price and the volume visible there. */
export interface BookLevel {
  readonly price: Decimal;
  readonly volume: Decimal;
}

/**
 * An order-book snapshot: asks lowest price first, bids highest first (the connector's and the
 * simulator's snapshots have this shape).
 */
export interface OrderBook {
  readonly asks: readonly BookLevel[];
  readonly bids: readonly BookLevel[];
  /**
   * The last trade price, if known. A limit order the book does not reach fills at its limit when
   * the last price has crossed it (buys: last ≤ limit; sells: last ≥ limit). Omit to fill from the
   * book only.
   */
  readonly lastPrice?: Decimal | null;
}

/** What else caps a match besides the book (all optional: absent means no cap). */
export interface BookFillLimits {
  /**
   * Cash the account holds in the order's currency: a buy fills only what it can pay for, price
   * plus commission, level by level.
   */
  readonly cash?: Decimal;
  /** Shares the account holds: a sell fills no more. */
  readonly shares?: Decimal;
  /**
   * Volume a crossed resting limit may take; defaults to the best opposite level's volume. A caller
   * that matches several orders against one snapshot passes what is left of it.
   */
  readonly crossVolume?: Decimal;
}

/** A slice of a book match, with where it came from: a book level, or a crossed resting limit. */
export interface BookFillSlice extends FillSlice {
  readonly source: 'book' | 'cross';
}

/** Where an order stands while it is being matched. */
export interface MatchProgress {
  readonly filledQuantity: Decimal;
  readonly filledAmount: Decimal;
  /** Cash left, when capped ({@link BookFillLimits.cash}). */
  readonly cash?: Decimal | undefined;
  /** Shares left, when capped ({@link BookFillLimits.shares}). */
  readonly shares?: Decimal | undefined;
}

/** The smallest fractional share the broker trades (1e-6). */
export const SHARE_UNIT = new Decimal(10).pow(-SHARE_PLACES);

function isAmountOrder(order: FillableOrder): boolean {
  return order.orderAmount !== null;
}

/** Whether a limit order at `limit` trades against an opposite level at `price`. */
export function isMarketable(side: OrderSide, limit: Decimal, price: Decimal): boolean {
  return side === 'BUY' ? price.lte(limit) : price.gte(limit);
}

/**
 * How much of `order` can fill at `price` given `available` volume and the account's caps: whole
 * shares unless the order is fractional (an amount order, or a fractional quantity), then 1e-6;
 * an amount order spends at most what is left of its amount; a buy only what the cash pays for
 * (price plus commission); a sell only the shares held. Never below 0.
 */
export function fillableQuantity(
  order: FillableOrder,
  price: Decimal,
  available: Decimal,
  progress: MatchProgress,
): Decimal {
  if (available.lte(0)) return new Decimal(0);
  const fractional = isAmountOrder(order) || !(order.quantity ?? new Decimal(0)).isInteger();
  const unit = (d: Decimal) => d.toDecimalPlaces(fractional ? SHARE_PLACES : 0, Decimal.ROUND_DOWN);
  let quantity =
    order.orderAmount !== null
      ? unit(order.orderAmount.minus(progress.filledAmount).dividedBy(price))
      : (order.quantity ?? new Decimal(0)).minus(progress.filledQuantity);
  quantity = Decimal.min(quantity, unit(available));
  if (order.side === 'SELL' && progress.shares !== undefined) {
    quantity = Decimal.min(quantity, progress.shares);
  }
  if (order.side === 'BUY' && progress.cash !== undefined) {
    const perShare = price.times(commissionRateFor(order.currency).plus(1));
    quantity = Decimal.min(quantity, unit(progress.cash.dividedBy(perShare)));
  }
  return Decimal.max(0, quantity);
}

/**
 * Where the order stands after a slice of `quantity` at `price`: filled quantity and amount up
 * (the amount rounded to the currency, as the broker books it), the cash cap down by amount plus
 * commission, the share cap down by the quantity.
 */
export function progressAfter(
  order: FillableOrder,
  progress: MatchProgress,
  quantity: Decimal,
  price: Decimal,
): MatchProgress {
  const amount = roundCash(order.currency, quantity.times(price));
  const commission = commissionFor(marketOfCurrency(order.currency), amount);
  return {
    filledQuantity: progress.filledQuantity.plus(quantity),
    filledAmount: progress.filledAmount.plus(amount),
    cash:
      progress.cash === undefined
        ? undefined
        : roundCash(order.currency, progress.cash.minus(amount).minus(commission)),
    shares: progress.shares?.minus(quantity),
  };
}

/**
 * Whether the order is complete after a fill at `price`: its quantity filled, or, for an amount
 * order, less of its amount left than one share unit costs at that price.
 */
export function isFillComplete(
  order: Pick<FillableOrder, 'orderAmount' | 'quantity'>,
  filledQuantity: Decimal,
  filledAmount: Decimal,
  price: Decimal,
): boolean {
  return order.orderAmount !== null
    ? order.orderAmount.minus(filledAmount).lt(price.times(SHARE_UNIT))
    : filledQuantity.gte(order.quantity ?? new Decimal(0));
}

/**
 * Walks the opposite side of the book, best price first: a market order takes every level until
 * it is complete; a limit order stops at the first level beyond its limit. Each level gives at most
 * its visible volume. A limit order the book does not reach (no opposite level at or better than its
 * limit) fills at its limit when the last price has crossed it, up to the best opposite level's
 * volume (or {@link BookFillLimits.crossVolume}); one the book reaches takes the book only, so a
 * level whose volume is used up (a caller nets the book of earlier fills) is not taken again as a
 * cross. `BookMatcher` (`book-matcher.ts`) is this model with a memory of what it took from each book.
 * Prices come from the book or the limit, so they are on the tick grid and within the price limits
 * when those are. The model is pure: it returns slices and never changes the order; the caller
 * decides when the order may trade (sessions, suspension, CLS auctions) and books the slices.
 *
 * @example
 * ```ts
 * const slices = new BookFillModel().match(order, { asks: [{ price: d(100), volume: d(3) }], bids: [] }, now);
 * ```
 */
export class BookFillModel implements FillModel<OrderBook> {
  /**
   * @param order - the working order (its fills so far in `filledQuantity` / `filledAmount`)
   * @param book - the snapshot, net of anything other orders already took from it
   * @param nowMs - the time stamped on the slices
   * @param limits - cash, shares and cross-volume caps
   * @returns the slices in execution order (possibly none)
   */
  match(order: FillableOrder, book: OrderBook, nowMs: number, limits: BookFillLimits = {}): BookFillSlice[] {
    const slices: BookFillSlice[] = [];
    let progress: MatchProgress = {
      filledQuantity: order.filledQuantity,
      filledAmount: order.filledAmount,
      cash: limits.cash,
      shares: limits.shares,
    };
    const levels = order.side === 'BUY' ? book.asks : book.bids;
    for (const level of levels) {
      if (order.price !== null && !isMarketable(order.side, order.price, level.price)) break;
      const quantity = fillableQuantity(order, level.price, level.volume, progress);
      if (quantity.lte(0)) continue;
      slices.push({ quantity, price: level.price, time: nowMs, source: 'book' });
      progress = progressAfter(order, progress, quantity, level.price);
      if (isFillComplete(order, progress.filledQuantity, progress.filledAmount, level.price)) return slices;
    }
    const last = book.lastPrice;
    if (slices.length > 0 || order.price === null || last === undefined || last === null) return slices;
    // a limit the book reaches takes the book only, even when the levels it reaches are used up
    const best = levels[0];
    if (best !== undefined && isMarketable(order.side, order.price, best.price)) return slices;
    if (!isMarketable(order.side, order.price, last)) return slices;
    const pool = limits.crossVolume ?? levels[0]?.volume ?? new Decimal(0);
    const quantity = fillableQuantity(order, order.price, pool, progress);
    if (quantity.gt(0)) slices.push({ quantity, price: order.price, time: nowMs, source: 'cross' });
    return slices;
  }
}

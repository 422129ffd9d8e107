/**
 * The risk book's own records (orders, open counts, holdings) and the pure functions over them,
 * with the booking of one fill on a holding (its realised PnL: `realised-days.ts`).
 *
 * @module
 */
import {
  type Currency,
  Decimal,
  exactIntOf,
  type Fill,
  type KnownBrokerOrderStatus,
  type OrderSide,
  type OrderType,
  type TimeInForce,
} from '@hoga/core';
import { addExact, mulExact, subExact } from './exact-int.js';
import type { OpenOrderView, PositionView, RestoredRiskOrder, RiskOrder } from './risk-types.js';

const ZERO = new Decimal(0);

export interface MutableOrder {
  clientOrderId: string;
  strategyId: string;
  symbol: string;
  market: OpenOrderView['market'];
  currency: Currency;
  side: OrderSide;
  orderType: OrderType;
  timeInForce: TimeInForce;
  price: Decimal | null;
  quantity: Decimal | null;
  amount: Decimal | null;
  filledQuantity: Decimal;
  filledAmount: Decimal;
  status: KnownBrokerOrderStatus;
  /** The view of the order as it stands (dropped on every event of the order). */
  view?: RiskOrder | undefined;
  /** Its strategy's count of open orders (it counts there while it is in the open map). */
  readonly openCount: OpenCount;
}

/** How many open orders a strategy has. */
export interface OpenCount {
  readonly strategyId: string;
  n: number;
}

/** The open orders' counts per strategy. */
export class OpenCounts {
  private readonly counts = new Map<string, OpenCount>();
  private last: OpenCount | undefined;

  /** A strategy's count (the last one asked kept at hand: orders come in runs of one strategy). */
  of(strategyId: string): OpenCount {
    const last = this.last;
    if (last !== undefined && last.strategyId === strategyId) return last;
    let count = this.counts.get(strategyId);
    if (count === undefined) {
      count = { strategyId, n: 0 };
      this.counts.set(strategyId, count);
    }
    this.last = count;
    return count;
  }

  /** How many open orders a strategy has. */
  count(strategyId: string): number {
    return this.counts.get(strategyId)?.n ?? 0;
  }
}

export interface Holding {
  quantity: Decimal;
  averagePrice: Decimal;
  /** `quantity` and `averagePrice` as numbers when they are safe integers, else NaN (see exact-int). */
  quantityInt: number;
  averagePriceInt: number;
  currency: Currency;
  /** The position as the checks see it while the quantity is positive, else null (undefined: not built yet). */
  view?: PositionView | null | undefined;
  /** Place of the holding in its strategy's map (the order the position lists keep). */
  rank?: number;
  /** Start (epoch ms) of the trading day the two fields below describe (NaN: none yet). */
  dayStartMs: number;
  /** The quantity and average price held when that day began (today's PnL counts from them). */
  dayQuantity: Decimal;
  dayAveragePrice: Decimal;
}

/** A daily PnL answer, good while the book's revision and the trading day are the same. */
export interface PnlAnswer {
  revision: number;
  dayStartMs: number;
  value: Decimal;
}

/**
 * Books a fill on its strategy's holding and answers the realised change: −charges on a buy;
 * (price − average) × sold − charges on a sell. Whole numbers (won prices, share counts) are booked
 * as safe integers, exactly, with no Decimal made; anything else (or any result outside the safe
 * range) as Decimal (`change`, with `changeInt` NaN).
 */
export function bookOnHolding(h: Holding, fill: Fill): { changeInt: number; change: Decimal | null } {
  const quantity = exactIntOf(fill.quantity);
  const price = exactIntOf(fill.price);
  const commission = exactIntOf(fill.commission.amount);
  const chargesInt = fill.tax === undefined ? commission : addExact(commission, exactIntOf(fill.tax.amount));
  let changeInt = Number.NaN;
  let change: Decimal | null = null;
  if (fill.side === 'BUY') {
    if (h.quantity.isZero() && exactProduct(fill.price, fill.quantity) && !fill.quantity.isZero()) {
      // flat before: (0 + price × quantity) / quantity is the price itself when the product is exact
      h.quantity = fill.quantity;
      h.averagePrice = fill.price;
      h.quantityInt = quantity;
      h.averagePriceInt = price;
    } else {
      const cost = h.averagePrice.times(h.quantity).plus(fill.price.times(fill.quantity));
      h.quantity = h.quantity.plus(fill.quantity);
      h.averagePrice = h.quantity.isZero() ? ZERO : cost.dividedBy(h.quantity);
      h.quantityInt = exactIntOf(h.quantity);
      h.averagePriceInt = exactIntOf(h.averagePrice);
    }
    changeInt = -chargesInt;
    if (Number.isNaN(changeInt)) change = charges(fill).negated();
  } else {
    // min(fill, held) and max(0, held − fill)
    const held = h.quantityInt;
    const sold = Math.min(quantity, held);
    changeInt = subExact(mulExact(subExact(price, h.averagePriceInt), sold), chargesInt);
    const left = subExact(held, quantity);
    if (!Number.isNaN(changeInt) && !Number.isNaN(left)) {
      h.quantityInt = Math.max(left, 0);
      h.quantity = left > 0 ? new Decimal(left) : ZERO;
    } else {
      // without the copies Decimal.min and Decimal.max make
      const soldDecimal = fill.quantity.lte(h.quantity) ? fill.quantity : h.quantity;
      change = fill.price.minus(h.averagePrice).times(soldDecimal).minus(charges(fill));
      changeInt = Number.NaN;
      h.quantity = nonNegative(h.quantity.minus(fill.quantity));
      h.quantityInt = exactIntOf(h.quantity);
    }
  }
  return { changeInt, change };
}

/** A fill's commission plus its tax. */
export function charges(fill: Fill): Decimal {
  return fill.tax === undefined ? fill.commission.amount : fill.commission.amount.plus(fill.tax.amount);
}

/** Whether an order has a limit price or an amount. */
export function isPriced(o: MutableOrder): boolean {
  return o.price !== null || o.amount !== null;
}

/** Whether `a × b` is exact at the configured precision (no digit of the product is rounded away). */
export function exactProduct(a: Decimal, b: Decimal): boolean {
  return a.sd() + b.sd() <= Decimal.precision;
}

export function cachedView(o: MutableOrder): RiskOrder {
  if (o.view === undefined) o.view = view(o);
  return o.view;
}

/** The position a holding shows (made once per change of it, kept in `h.view`); undefined when flat. */
export function holdingView(symbol: string, h: Holding): PositionView | undefined {
  if (h.view === undefined) {
    h.view = isPositive(h.quantity) ? { symbol, currency: h.currency, quantity: h.quantity } : null;
  }
  return h.view ?? undefined;
}

/** x, or 0 when x is negative: `Decimal.max(0, x)` without its copies. */
export function nonNegative(x: Decimal): Decimal {
  return x.isNeg() ? ZERO : x;
}

/** x > 0, without the Decimal `gt(0)` makes of its 0. */
export function isPositive(x: Decimal): boolean {
  return !x.isNeg() && !x.isZero() && !x.isNaN();
}

/** max(0, total − done); total itself (never below 0) while nothing is done. */
export function left(total: Decimal, done: Decimal): Decimal {
  return nonNegative(done.isZero() ? total : total.minus(done));
}

export function view(o: MutableOrder): RiskOrder {
  return {
    clientOrderId: o.clientOrderId,
    strategyId: o.strategyId,
    symbol: o.symbol,
    market: o.market,
    currency: o.currency,
    side: o.side,
    orderType: o.orderType,
    timeInForce: o.timeInForce,
    price: o.price,
    quantity: o.quantity,
    remainingQuantity: o.quantity === null ? null : left(o.quantity, o.filledQuantity),
    amount: o.amount === null ? null : left(o.amount, o.filledAmount),
    filledQuantity: o.filledQuantity,
    status: o.status,
  };
}

/** The book's record of an order restored open from the store (its fills so far, not booked again). */
export function restoredOrder(order: RestoredRiskOrder, openCount: OpenCount): MutableOrder {
  const filledAmount =
    order.amount === null || order.averageFillPrice === null
      ? ZERO
      : order.filledQuantity.times(order.averageFillPrice);
  return {
    clientOrderId: order.clientOrderId,
    strategyId: order.strategyId,
    symbol: order.symbol,
    market: order.market,
    currency: order.currency,
    side: order.side,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    price: order.price,
    quantity: order.quantity,
    amount: order.amount,
    filledQuantity: order.filledQuantity,
    filledAmount,
    status: isPositive(order.filledQuantity) ? 'PARTIAL_FILLED' : 'PENDING',
    view: undefined,
    openCount,
  };
}

/** A holding's field as a number: its safe-integer copy, else the Decimal's nearest double. */
export function numberOf(exact: number, value: Decimal): number {
  return Number.isNaN(exact) ? value.toNumber() : exact;
}

/** A holding of `quantity` at `averagePrice`, with no record yet of what it held when a day began. */
export function holdingOf(
  quantity: Decimal,
  averagePrice: Decimal,
  currency: Currency,
  rank: number,
): Holding {
  return {
    quantity,
    averagePrice,
    quantityInt: exactIntOf(quantity),
    averagePriceInt: exactIntOf(averagePrice),
    currency,
    rank,
    dayStartMs: Number.NaN,
    dayQuantity: ZERO,
    dayAveragePrice: ZERO,
  };
}

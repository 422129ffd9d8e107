/**
 * The risk book's own records (orders, open counts, holdings) and the pure functions over them,
 * with the booking of one fill on a holding (its realised PnL: `realised-days.ts`).
 *
 * @module
 */
import { averagePurchasePrice, roundCash } from '@hoga/broker-model';
import {
  type Currency,
  Decimal,
  decimalOfNumber,
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
  /**
   * What the shares held cost: the buys' amounts (price × quantity) less what the sells released
   * (a partial sell its quantity at the average price, the sell that closes the rest), as a safe
   * integer, else NaN (then `cost` holds it). A position bought and sold off so realises what its
   * shares brought less what they cost, however the average was rounded.
   */
  costInt: number;
  /** The cost as a Decimal (null while `costInt` holds it and no one asked for the Decimal: see {@link costOf}). */
  cost: Decimal | null;
  currency: Currency;
  /** The position as the checks see it while the quantity is positive, else null (undefined: not built yet). */
  view?: PositionView | null | undefined;
  /** Place of the holding in its strategy's map (the order the position lists keep). */
  rank?: number;
  /** Start (epoch ms) of the trading day the two fields below describe (NaN: none yet). */
  dayStartMs: number;
  /** The quantity, average price and cost held when that day began (today's PnL counts from them). */
  dayQuantity: Decimal;
  dayAveragePrice: Decimal;
  dayCost: Decimal;
}

/** A holding's cost as a Decimal (made once from its integer when first asked). */
export function costOf(h: Holding): Decimal {
  if (h.cost === null) h.cost = decimalOfNumber(h.costInt);
  return h.cost;
}

/**
 * What a holding's average price times its quantity exceeds its cost by (the average's rounding),
 * as a number: exact for whole numbers (no Decimal made), else the exact Decimal's nearest double.
 * Its unrealised PnL at `mark` is `(mark − average) × quantity + residual`.
 */
export function costResidual(h: Holding): number {
  // flat (a closed position keeps its last average): no Decimal made
  if (h.quantityInt === 0 && h.costInt === 0) return 0;
  const r = subExact(mulExact(h.averagePriceInt, h.quantityInt), h.costInt);
  return Number.isNaN(r) ? h.averagePrice.times(h.quantity).minus(costOf(h)).toNumber() : r;
}

/** A daily PnL answer, good while the book's revision and the trading day are the same. */
export interface PnlAnswer {
  revision: number;
  dayStartMs: number;
  value: Decimal;
}

/**
 * Books a fill on its strategy's holding and answers the realised change, as the portfolio's books
 * count it (`portfolio/strategy-book.ts`): −charges on a buy; on a sell, its amount (rounded to
 * the currency) less what the sold shares cost, less charges: a partial sell releases its quantity
 * at the average price, the sell that closes the position the rest of the cost, so a position
 * bought and sold off realises what its fills moved, with no rounding of the average left in it.
 * The average is the broker's (4 places). Whole numbers (won prices, share counts, won costs) are
 * booked as safe integers, exactly, with no Decimal made; anything else (or any result outside the
 * safe range) as Decimal (`change`, with `changeInt` NaN).
 */
export function bookOnHolding(h: Holding, fill: Fill): { changeInt: number; change: Decimal | null } {
  const quantity = exactIntOf(fill.quantity);
  const price = exactIntOf(fill.price);
  const commission = exactIntOf(fill.commission.amount);
  const chargesInt = fill.tax === undefined ? commission : addExact(commission, exactIntOf(fill.tax.amount));
  let changeInt = Number.NaN;
  let change: Decimal | null = null;
  if (fill.side === 'BUY') {
    const flat = h.quantity.isZero();
    const amountInt = mulExact(quantity, price);
    if (!Number.isNaN(amountInt) && flat && quantity !== 0) {
      // flat before, an integer amount: the average of the buy is its price
      h.quantity = fill.quantity;
      h.averagePrice = fill.price;
      h.quantityInt = quantity;
      h.averagePriceInt = price;
      h.costInt = amountInt;
      h.cost = null;
    } else {
      const amount = Number.isNaN(amountInt)
        ? roundCash(h.currency, fill.price.times(fill.quantity))
        : fill.price.times(fill.quantity);
      const costInt = flat ? amountInt : addExact(h.costInt, amountInt);
      if (!Number.isNaN(costInt)) {
        h.costInt = costInt;
        h.cost = null;
      } else {
        h.cost = flat ? amount : costOf(h).plus(amount);
        h.costInt = Number.NaN;
      }
      h.averagePrice = averagePurchasePrice(h.quantity, h.averagePrice, fill.quantity, amount);
      h.quantity = h.quantity.plus(fill.quantity);
      h.quantityInt = exactIntOf(h.quantity);
      h.averagePriceInt = exactIntOf(h.averagePrice);
    }
    changeInt = -chargesInt;
    if (Number.isNaN(changeInt)) change = charges(fill).negated();
  } else {
    // min(fill, held) and max(0, held − fill); a sell of all (or past the holding) closes it
    const held = h.quantityInt;
    const sold = Math.min(quantity, held);
    const left = subExact(held, quantity);
    const closes = left <= 0;
    const released = closes ? h.costInt : mulExact(h.averagePriceInt, sold);
    const costLeft = closes ? 0 : subExact(h.costInt, released);
    changeInt = subExact(subExact(mulExact(price, sold), released), chargesInt);
    if (!Number.isNaN(changeInt) && !Number.isNaN(left) && !Number.isNaN(costLeft)) {
      h.quantityInt = Math.max(left, 0);
      h.quantity = left > 0 ? new Decimal(left) : ZERO;
      h.costInt = costLeft;
      h.cost = null;
    } else {
      const closing = fill.quantity.gte(h.quantity);
      // without the copies Decimal.min makes
      const soldDecimal = closing ? h.quantity : fill.quantity;
      const proceeds = roundCash(h.currency, fill.price.times(soldDecimal));
      const releasedDecimal = closing ? costOf(h) : h.averagePrice.times(soldDecimal);
      change = proceeds.minus(releasedDecimal).minus(charges(fill));
      changeInt = Number.NaN;
      h.quantity = closing ? ZERO : h.quantity.minus(fill.quantity);
      h.quantityInt = exactIntOf(h.quantity);
      const cost = closing ? ZERO : costOf(h).minus(releasedDecimal);
      h.cost = cost;
      h.costInt = exactIntOf(cost);
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

/** A holding of `quantity` at `averagePrice` (costing their product), with no record yet of what it held when a day began. */
export function holdingOf(
  quantity: Decimal,
  averagePrice: Decimal,
  currency: Currency,
  rank: number,
): Holding {
  const cost = quantity.isZero() ? ZERO : quantity.times(averagePrice);
  return {
    quantity,
    averagePrice,
    quantityInt: exactIntOf(quantity),
    averagePriceInt: exactIntOf(averagePrice),
    costInt: exactIntOf(cost),
    cost,
    currency,
    rank,
    dayStartMs: Number.NaN,
    dayQuantity: ZERO,
    dayAveragePrice: ZERO,
    dayCost: ZERO,
  };
}

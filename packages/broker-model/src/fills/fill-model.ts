/**
 * The fill models' common shape: each returns the slices an order would fill against one market
 * view (an order book, a bar), and never changes the order in place. The caller applies the slices
 * (to the simulator's order, to a paper or backtest order) and books them on a ledger.
 *
 * @module
 */
import type { Currency, Decimal, OrderSide, OrderType, TimeInForce } from '@hoga/core';

/** What a fill model needs to know of a working order. */
export interface FillableOrder {
  readonly symbol: string;
  readonly currency: Currency;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  readonly timeInForce: TimeInForce;
  /** The limit price; null for market orders. */
  readonly price: Decimal | null;
  /** Ordered quantity; null for amount orders (US market buys sized in USD). */
  readonly quantity: Decimal | null;
  /** Ordered amount in the order's currency (amount orders); null otherwise. */
  readonly orderAmount: Decimal | null;
  /** What has filled so far. */
  readonly filledQuantity: Decimal;
  /** The value filled so far (sum of quantity × price of the slices). */
  readonly filledAmount: Decimal;
  /**
   * When the order was accepted, epoch ms (a bar model never fills on a bar closed before it, and
   * fills one accepted inside a bar's period at that bar's close at best, never at its open).
   */
  readonly acceptedAt: number;
}

/** One execution of part of an order. */
export interface FillSlice {
  readonly quantity: Decimal;
  readonly price: Decimal;
  /** Execution time, epoch ms. */
  readonly time: number;
}

/**
 * A fill model over market views of type `M` (an order book, a bar, …).
 *
 * @typeParam M - the market view the model matches against
 */
export interface FillModel<M> {
  /** The slices `order` fills against `market` at `nowMs`, in execution order (possibly none). */
  match(order: FillableOrder, market: M, nowMs: number): readonly FillSlice[];
}

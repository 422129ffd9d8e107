/**
 * A single execution of (part of) an order.
 *
 * @module
 */
import type { Decimal } from '../decimal/decimal.js';
import type { Money } from '../decimal/money.js';
import type { BrokerOrderId, ClientOrderId } from './ids.js';
import type { OrderSide } from './order-types.js';

/**
 * One fill. The broker reports cumulative execution per order; a fill is the increase since the
 * previous report, so `cumulativeQuantity` is the order's total filled quantity including this one.
 */
export interface Fill {
  /** Unique id of this fill (derived or random; stable across replays when derived). */
  readonly fillId: string;
  /** Our order id. */
  readonly clientOrderId: ClientOrderId;
  /** The broker's id of the order that filled. */
  readonly brokerOrderId: BrokerOrderId;
  /** Symbol traded. */
  readonly symbol: string;
  /** Side traded. */
  readonly side: OrderSide;
  /** Quantity of this fill (> 0). */
  readonly quantity: Decimal;
  /** Price of this fill. */
  readonly price: Decimal;
  /** Commission charged for this fill, in the trade currency. */
  readonly commission: Money;
  /** Tax charged for this fill (KR sells), if reported. */
  readonly tax?: Money;
  /** Total filled quantity of the order after this fill. */
  readonly cumulativeQuantity: Decimal;
  /** Execution time, epoch ms. */
  readonly tsEvent: number;
}

/**
 * A working order inside the simulated venue, and the events it produces.
 *
 * @module
 */

import type { FillableOrder, ReservingOrder } from '@hoga/broker-model';
import type {
  BrokerOrderId,
  ClientOrderId,
  Currency,
  Decimal,
  Instrument,
  OrderSide,
  OrderState,
  OrderType,
  StrategyId,
  TimeInForce,
} from '@hoga/core';

/** An order the simulated venue works (mutable inside the venue only). */
export interface SimulatedOrder extends FillableOrder, ReservingOrder {
  readonly clientOrderId: ClientOrderId;
  brokerOrderId: BrokerOrderId;
  readonly strategyId: StrategyId | undefined;
  readonly instrument: Instrument;
  readonly symbol: string;
  readonly currency: Currency;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  readonly timeInForce: TimeInForce;
  price: Decimal | null;
  quantity: Decimal | null;
  readonly orderAmount: Decimal | null;
  filledQuantity: Decimal;
  filledAmount: Decimal;
  readonly acceptedAt: number;
  reservePrice: Decimal;
  state: OrderState;
  /** Session key of the first market view the order was matched against (DAY orders end with it). */
  sessionKey: number | undefined;
  /** Fills so far (for fill ids). */
  fills: number;
}

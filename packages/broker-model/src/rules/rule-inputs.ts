/**
 * What the broker's rules look at: the order asked for, the instrument with its trading flags, the
 * market at the moment of asking, and the account. Callers build these from their own state (the
 * simulator from its market and ledger, the engine from its caches); the rules only read them.
 *
 * @module
 */
import type {
  BrokerRefusal,
  Decimal,
  KnownBrokerOrderStatus,
  OrderShape,
  OrderSide,
  OrderType,
  SessionName,
  TimeInForce,
  TradableInstrument,
} from '@hoga/core';
import type { DateTime } from 'luxon';

/** A new order as asked for (the request's fields, as decimals). */
export interface OrderRequest extends OrderShape {
  /** `confirmHighValueOrder`. */
  readonly confirmHighValueOrder: boolean;
}

/** A modify as asked for. */
export interface ModifyRequest {
  readonly orderType: OrderType;
  readonly price: Decimal | null;
  /** KR: the new quantity (required); US: must be absent. */
  readonly quantity: Decimal | null;
  readonly confirmHighValueOrder: boolean;
}

/** A US regular session: start inclusive, end exclusive. */
export interface SessionHours {
  readonly start: DateTime;
  readonly end: DateTime;
}

/** Daily price limits (KR). */
export interface PriceLimits {
  readonly upper: Decimal;
  readonly lower: Decimal;
}

/** The market at the moment an order is asked for, as far as the rules need it. */
export interface MarketMoment {
  /** The instant (its zone is the zone of `retryAfterAt` and the messages: KST). */
  readonly at: DateTime;
  /** The order session of the instrument's market open at `at`, or null when orders are not accepted. */
  readonly session: SessionName | null;
  /** When orders of the instrument's market are accepted next (read only when `session` is null). */
  readonly nextOpenAt: DateTime | null;
  /**
   * When the instrument's market's next regular session starts (read only in an extended session,
   * for the message of a `MARKET` or `CLS` order refused there); absent or null when not known.
   */
  readonly regularOpenAt?: DateTime | null;
  /** The US regular session containing `at`, or null (amount and fractional orders). */
  readonly usRegularHours: SessionHours | null;
  /** The instrument's daily price limits; null where none exist (US). */
  readonly priceLimits: PriceLimits | null;
  /** The instrument's last price (values and reserves market orders). */
  readonly lastPrice: Decimal;
  /** KRW per USD at the display rate. */
  readonly usdKrw: Decimal;
}

/** An open order of the account, as the opposite-side rule sees it. */
export interface OpenOrderView {
  readonly orderId: string;
  readonly symbol: string;
  readonly side: OrderSide;
}

/**
 * The account as the rules see it. Buying power and sellable quantity are already net of what the
 * account's open orders hold back (the broker model's economics compute them), without the order a
 * modify replaces.
 */
export interface AccountView {
  /** Cash buying power in the order's currency. */
  readonly cashBuyingPower: Decimal;
  /** Sellable quantity of the order's symbol. */
  readonly sellableQuantity: Decimal;
  /** The account's open orders (working orders, not cancel records), without the one a modify replaces. */
  readonly openOrders: readonly OpenOrderView[];
}

/** An existing order a modify or cancel targets. */
export interface TargetOrder {
  readonly orderId: string;
  readonly status: KnownBrokerOrderStatus;
  readonly side: OrderSide;
  readonly timeInForce: TimeInForce;
  /** Ordered quantity. */
  readonly quantity: Decimal;
  readonly filledQuantity: Decimal;
  /** Amount of an amount order; null otherwise. */
  readonly orderAmount: Decimal | null;
  /** Epoch ms at which the order, still open, ends: end of its trading day, or the close for `CLS`. */
  readonly expiresAtMs: number;
}

/** Everything a new order is judged on. */
export interface NewOrderCase {
  readonly instrument: TradableInstrument;
  readonly request: OrderRequest;
  readonly moment: MarketMoment;
  readonly account: AccountView;
}

/** An accepted order request, with its price on the broker's grid (US prices truncated). */
export interface AcceptedRequest {
  readonly accepted: true;
  /** The price the broker works with: US prices truncated to the grid; null for market orders. */
  readonly price: Decimal | null;
}

/** The verdict of a check that may adjust the price. */
export type RequestVerdict = AcceptedRequest | BrokerRefusal;

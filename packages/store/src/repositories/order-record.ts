/**
 * The stored shape of an order and its conversions to and from table rows.
 *
 * @module
 */
import {
  type BrokerOrderId,
  type ClientOrderId,
  Currency,
  type Decimal,
  Market,
  ORDER_STATES,
  OrderSide,
  type OrderState,
  OrderType,
  type StrategyId,
  TimeInForce,
} from '@hoga/core';
import {
  decimalToText,
  nullableDecimalToText,
  textToDecimal,
  textToMember,
  textToNullableDecimal,
} from '../codec.js';
import { StoreError, StoreErrorCode } from '../store-error.js';
import { TRADING_MODES, type TradingMode } from '../trading-mode.js';

/** An order as the store keeps it. Times are epoch ms. */
export interface OrderRecord {
  /** Our row id. */
  readonly id: number;
  /** Our idempotency key (unique). */
  readonly clientOrderId: ClientOrderId;
  /** The broker's current order id (the newest of {@link OrderRepository.brokerOrderIds}), or `null`. */
  readonly brokerOrderId: BrokerOrderId | null;
  /** The strategy that placed it, or `null` (manual order). */
  readonly strategyId: StrategyId | null;
  /** Mode of the session that placed it. */
  readonly mode: TradingMode;
  /** Ticker. */
  readonly symbol: string;
  /** KR or US. */
  readonly market: Market;
  /** Currency of price and amount. */
  readonly currency: Currency;
  /** BUY or SELL. */
  readonly side: OrderSide;
  /** LIMIT or MARKET. */
  readonly orderType: OrderType;
  /** DAY, CLS or OPG. */
  readonly timeInForce: TimeInForce;
  /** Limit price (`null` for market orders). */
  readonly price: Decimal | null;
  /** Share quantity (`null` for amount orders). */
  readonly quantity: Decimal | null;
  /** Cash amount of an amount order, else `null`. */
  readonly amount: Decimal | null;
  /** Current state (core's order state machine). */
  readonly state: OrderState;
  /** Total filled quantity. */
  readonly filledQuantity: Decimal;
  /** Average fill price, `null` before the first fill. */
  readonly averageFillPrice: Decimal | null;
  /** Why the broker or the risk engine refused it, if it did. */
  readonly rejectReason: string | null;
  /** When the intent was recorded. */
  readonly createdAt: number;
  /** Last change. */
  readonly updatedAt: number;
}

/** What {@link OrderRepository.recordIntent} needs: the intent, before any broker answer. */
export interface NewOrder {
  readonly clientOrderId: string;
  readonly strategyId: string | null;
  readonly mode: TradingMode;
  readonly symbol: string;
  readonly market: Market;
  readonly currency: Currency;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  readonly timeInForce: TimeInForce;
  readonly price: Decimal | null;
  readonly quantity: Decimal | null;
  readonly amount: Decimal | null;
  /** Initial state; `INITIALIZED` when omitted. */
  readonly state?: OrderState | undefined;
  /** When the intent was made (epoch ms). */
  readonly createdAt: number;
}

/**
 * A change of state and the fields that change with it. Omitted fields keep their value; a field
 * given as `null` is cleared.
 */
export interface OrderUpdate {
  readonly state: OrderState;
  /** Time of the change (epoch ms). */
  readonly updatedAt: number;
  readonly filledQuantity?: Decimal | undefined;
  readonly averageFillPrice?: Decimal | null | undefined;
  readonly rejectReason?: string | null | undefined;
  /** New limit price after a modification. */
  readonly price?: Decimal | null | undefined;
  /** New quantity after a modification. */
  readonly quantity?: Decimal | null | undefined;
}

/** Why a broker order id was issued. */
export const BrokerOrderIdKind = { CREATE: 'create', MODIFY: 'modify', CANCEL: 'cancel' } as const;
/** One of {@link BrokerOrderIdKind}. */
export type BrokerOrderIdKind = (typeof BrokerOrderIdKind)[keyof typeof BrokerOrderIdKind];

/** One link of an order's broker-id lineage. */
export interface BrokerOrderIdLink {
  readonly brokerOrderId: BrokerOrderId;
  /** 1 for the create answer, then 2, 3, … for each modify or cancel answer. */
  readonly ordinal: number;
  readonly kind: BrokerOrderIdKind;
  /** When the id was recorded (epoch ms). */
  readonly createdAt: number;
}

/** A row of `orders`. */
export interface OrderRow {
  id: number;
  client_order_id: string;
  broker_order_id: string | null;
  strategy_id: string | null;
  mode: string;
  symbol: string;
  market: string;
  currency: string;
  side: string;
  order_type: string;
  time_in_force: string;
  price: string | null;
  quantity: string | null;
  amount: string | null;
  state: string;
  filled_quantity: string;
  average_fill_price: string | null;
  reject_reason: string | null;
  created_at: number;
  updated_at: number;
}

/** Column list matching {@link OrderRow}. */
export const ORDER_COLUMNS =
  'id, client_order_id, broker_order_id, strategy_id, mode, symbol, market, currency, side, order_type, ' +
  'time_in_force, price, quantity, amount, state, filled_quantity, average_fill_price, reject_reason, ' +
  'created_at, updated_at';

const STATES: ReadonlySet<string> = new Set(ORDER_STATES);
const MARKETS: ReadonlySet<string> = new Set(Object.values(Market));
const CURRENCIES: ReadonlySet<string> = new Set(Object.values(Currency));
const SIDES: ReadonlySet<string> = new Set(Object.values(OrderSide));
const TYPES: ReadonlySet<string> = new Set(Object.values(OrderType));
const TIFS: ReadonlySet<string> = new Set(Object.values(TimeInForce));
/** Valid {@link BrokerOrderIdKind} values. */
export const BROKER_ID_KINDS: ReadonlySet<string> = new Set(Object.values(BrokerOrderIdKind));

/**
 * A stored order row holding a value the code cannot read (a column edited by hand, a state of a
 * newer version): names the order and its row, and what was wrong (code `corrupt-row`).
 */
export class UnreadableOrderError extends StoreError {
  /** The order's clientOrderId, as stored. */
  readonly clientOrderId: string;
  /** The order's row id. */
  readonly rowId: number;
  /** What was wrong in it: `stored orders.price: expected a decimal string …, found "abc"`. */
  readonly problem: string;

  constructor(row: Pick<OrderRow, 'id' | 'client_order_id'>, cause: unknown) {
    const problem = cause instanceof Error ? cause.message : String(cause);
    super(
      StoreErrorCode.CORRUPT_ROW,
      `stored order ${row.client_order_id} (row ${row.id}) cannot be read: ${problem}`,
      { cause, details: { clientOrderId: row.client_order_id, rowId: row.id } },
    );
    this.clientOrderId = row.client_order_id;
    this.rowId = row.id;
    this.problem = problem;
  }
}

/**
 * Decodes a row, failing fast on a value the code does not know.
 *
 * @throws {@link UnreadableOrderError} naming the order, its row and what was wrong
 */
export function decodeOrder(row: OrderRow): OrderRecord {
  try {
    return decodeOrderFields(row);
  } catch (error) {
    throw new UnreadableOrderError(row, error);
  }
}

function decodeOrderFields(row: OrderRow): OrderRecord {
  return {
    id: row.id,
    clientOrderId: row.client_order_id as ClientOrderId,
    brokerOrderId: row.broker_order_id as BrokerOrderId | null,
    strategyId: row.strategy_id as StrategyId | null,
    mode: textToMember(row.mode, TRADING_MODES, 'orders.mode'),
    symbol: row.symbol,
    market: textToMember(row.market, MARKETS, 'orders.market'),
    currency: textToMember(row.currency, CURRENCIES, 'orders.currency'),
    side: textToMember(row.side, SIDES, 'orders.side'),
    orderType: textToMember(row.order_type, TYPES, 'orders.order_type'),
    timeInForce: textToMember(row.time_in_force, TIFS, 'orders.time_in_force'),
    price: textToNullableDecimal(row.price, 'orders.price'),
    quantity: textToNullableDecimal(row.quantity, 'orders.quantity'),
    amount: textToNullableDecimal(row.amount, 'orders.amount'),
    state: textToMember(row.state, STATES, 'orders.state'),
    filledQuantity: textToDecimal(row.filled_quantity, 'orders.filled_quantity'),
    averageFillPrice: textToNullableDecimal(row.average_fill_price, 'orders.average_fill_price'),
    rejectReason: row.reject_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Named parameters of the insert statement. */
export function encodeNewOrder(order: NewOrder): Record<string, string | number | null> {
  return {
    client_order_id: order.clientOrderId,
    strategy_id: order.strategyId,
    mode: order.mode,
    symbol: order.symbol,
    market: order.market,
    currency: order.currency,
    side: order.side,
    order_type: order.orderType,
    time_in_force: order.timeInForce,
    price: nullableDecimalToText(order.price),
    quantity: nullableDecimalToText(order.quantity),
    amount: nullableDecimalToText(order.amount),
    state: order.state ?? 'INITIALIZED',
    created_at: order.createdAt,
  };
}

/** The optional columns of an update, in the order of {@link encodeUpdate}'s values. */
const UPDATE_FIELDS = [
  ['filledQuantity', 'filled_quantity'],
  ['averageFillPrice', 'average_fill_price'],
  ['rejectReason', 'reject_reason'],
  ['price', 'price'],
  ['quantity', 'quantity'],
] as const;

/**
 * Encodes an update as a bit mask of the optional fields it sets and the positional values of
 * `UPDATE orders SET state, updated_at, <fields of the mask> WHERE client_order_id`.
 */
export function encodeUpdate(
  clientOrderId: string,
  update: OrderUpdate,
): { readonly mask: number; readonly values: (string | number | null)[] } {
  const values: (string | number | null)[] = [update.state, update.updatedAt];
  let mask = 0;
  for (let i = 0; i < UPDATE_FIELDS.length; i++) {
    const value = update[UPDATE_FIELDS[i]![0]];
    if (value === undefined) continue;
    mask |= 1 << i;
    values.push(value === null ? null : typeof value === 'string' ? value : decimalToText(value));
  }
  values.push(clientOrderId);
  return { mask, values };
}

/** The UPDATE statement for a mask of {@link encodeUpdate}. */
export function updateSql(mask: number): string {
  const sets = ['state = ?', 'updated_at = ?'];
  for (let i = 0; i < UPDATE_FIELDS.length; i++)
    if (mask & (1 << i)) sets.push(`${UPDATE_FIELDS[i]![1]} = ?`);
  return `UPDATE orders SET ${sets.join(', ')} WHERE client_order_id = ?`;
}

/**
 * What a strategy asks for: an order intent, validated structurally before it reaches risk checks.
 *
 * @module
 */
import { Decimal } from '../decimal/decimal.js';
import { ValidationError } from '../errors.js';
import type { Instrument } from '../instruments/instrument.js';
import { Market } from '../instruments/market.js';
import type { ClientOrderId, StrategyId } from './ids.js';
import { OrderSide, OrderSizing, OrderType, TimeInForce } from './order-types.js';

/** Fields every intent carries. */
interface OrderIntentCommon {
  /** Our idempotency key, sent as `clientOrderId`. */
  readonly clientOrderId: ClientOrderId;
  /** The strategy that asked, if any. */
  readonly strategyId?: StrategyId;
  /** What to trade. */
  readonly instrument: Instrument;
  /** Buy or sell. */
  readonly side: OrderSide;
  /** Sent as `confirmHighValueOrder`: needed for orders of 100 million KRW or more. */
  readonly confirmHighValue: boolean;
}

/** A limit order sized in shares. */
export interface LimitOrderIntent extends OrderIntentCommon {
  readonly sizing: typeof OrderSizing.QUANTITY;
  readonly orderType: typeof OrderType.LIMIT;
  /** Share count (> 0; whole for KR). */
  readonly quantity: Decimal;
  /** Limit price (> 0). */
  readonly price: Decimal;
  /** `DAY`, or `CLS` (US only). */
  readonly timeInForce: TimeInForce;
}

/** A market order sized in shares (fractional only for US sells, ≤ 6 decimals). */
export interface MarketOrderIntent extends OrderIntentCommon {
  readonly sizing: typeof OrderSizing.QUANTITY;
  readonly orderType: typeof OrderType.MARKET;
  /** Share count (> 0). */
  readonly quantity: Decimal;
  /** Always `DAY` for market orders. */
  readonly timeInForce: typeof TimeInForce.DAY;
}

/** A US market order sized in dollars (`orderAmount`). */
export interface AmountOrderIntent extends OrderIntentCommon {
  readonly sizing: typeof OrderSizing.AMOUNT;
  readonly orderType: typeof OrderType.MARKET;
  /** Cash amount in the instrument's currency (USD), > 0. */
  readonly amount: Decimal;
}

/** An order a strategy wants placed. Discriminate on `sizing`, then `orderType`. */
export type OrderIntent = LimitOrderIntent | MarketOrderIntent | AmountOrderIntent;

/** Input of {@link createOrderIntent}: an intent with `confirmHighValue` and `timeInForce` optional. */
export type OrderIntentInput =
  | (Omit<LimitOrderIntent, 'confirmHighValue' | 'timeInForce'> & {
      readonly confirmHighValue?: boolean;
      readonly timeInForce?: TimeInForce;
    })
  | (Omit<MarketOrderIntent, 'confirmHighValue' | 'timeInForce'> & {
      readonly confirmHighValue?: boolean;
      readonly timeInForce?: typeof TimeInForce.DAY;
    })
  | (Omit<AmountOrderIntent, 'confirmHighValue'> & { readonly confirmHighValue?: boolean });

/**
 * Order value (in KRW; US orders converted) from which the broker requires `confirmHighValueOrder`:
 * 100 million KRW.
 */
export const HIGH_VALUE_ORDER_KRW: Decimal = new Decimal('100000000');

/** Most decimal places of a fractional US market-sell quantity. */
export const MAX_FRACTIONAL_DECIMALS = 6;

function fail(field: string, message: string): never {
  throw new ValidationError(field, `order intent: ${message}`, {}, 'invalid-order-intent');
}

function checkPositive(value: Decimal, field: string): void {
  if (!value.isFinite() || !value.greaterThan(0))
    fail(field, `expected ${field} > 0, found ${value.toFixed()}`);
}

function checkQuantity(input: LimitOrderIntent | MarketOrderIntent): void {
  checkPositive(input.quantity, 'quantity');
  if (input.quantity.isInteger()) return;
  const fractionalAllowed =
    input.instrument.market === Market.US &&
    input.orderType === OrderType.MARKET &&
    input.side === OrderSide.SELL;
  if (!fractionalAllowed) {
    fail(
      'quantity',
      `expected a whole quantity (fractions only for US MARKET SELL), found ${input.quantity.toFixed()}`,
    );
  }
  if (input.quantity.decimalPlaces() > MAX_FRACTIONAL_DECIMALS) {
    fail(
      'quantity',
      `expected at most ${MAX_FRACTIONAL_DECIMALS} decimals, found ${input.quantity.toFixed()}`,
    );
  }
}

/**
 * Validates an intent's structure and fills defaults (`confirmHighValue: false`, `timeInForce: DAY`).
 *
 * Checked: positive quantity/price/amount; LIMIT has a price, MARKET none; whole quantities except
 * US MARKET SELL (≤ 6 decimals); amount orders only for US MARKET; `CLS` only for US LIMIT; `OPG`
 * never. Not checked (market-data or account dependent, left to risk checks): the tick grid,
 * price limits, buying power, the high-value threshold.
 *
 * @param input - the requested order
 * @returns a frozen {@link OrderIntent}
 * @throws {@link ValidationError} (code `invalid-order-intent`) naming the offending field
 */
export function createOrderIntent(input: OrderIntentInput): OrderIntent {
  const raw = input as unknown as Readonly<Record<string, unknown>>;
  const confirmHighValue = input.confirmHighValue ?? false;
  if (input.side !== OrderSide.BUY && input.side !== OrderSide.SELL) {
    fail('side', `expected BUY or SELL, found ${String(raw.side)}`);
  }
  if (input.sizing === OrderSizing.AMOUNT) {
    if (input.orderType !== OrderType.MARKET)
      fail('orderType', `amount orders must be MARKET, found ${String(raw.orderType)}`);
    if (input.instrument.market !== Market.US) fail('amount', 'amount orders exist for US stocks only');
    checkPositive(input.amount, 'amount');
    return Object.freeze({ ...input, confirmHighValue });
  }
  if (input.sizing !== OrderSizing.QUANTITY)
    fail('sizing', `expected QUANTITY or AMOUNT, found ${String(raw.sizing)}`);
  const timeInForce = input.timeInForce ?? TimeInForce.DAY;
  if (input.orderType === OrderType.LIMIT) {
    if (input.price === undefined || input.price === null) fail('price', 'LIMIT orders need a price');
    checkPositive(input.price, 'price');
    if (timeInForce === TimeInForce.OPG) fail('timeInForce', 'OPG cannot be chosen when creating an order');
    if (timeInForce === TimeInForce.CLS && input.instrument.market !== Market.US) {
      fail('timeInForce', 'CLS exists for US LIMIT orders only');
    }
    const intent: LimitOrderIntent = { ...input, confirmHighValue, timeInForce };
    checkQuantity(intent);
    return Object.freeze(intent);
  }
  if (input.orderType !== OrderType.MARKET)
    fail('orderType', `expected LIMIT or MARKET, found ${String(raw.orderType)}`);
  if (raw.price !== undefined) fail('price', 'MARKET orders take no price');
  if (timeInForce !== TimeInForce.DAY)
    fail('timeInForce', `MARKET orders are DAY only, found ${String(timeInForce)}`);
  const intent: MarketOrderIntent = { ...input, confirmHighValue, timeInForce };
  checkQuantity(intent);
  return Object.freeze(intent);
}

/**
 * What a strategy asks for: an order intent, validated structurally before it reaches risk checks.
 *
 * @module
 */
import type { BrokerRefusal } from '../broker/broker-verdict.js';
import { checkOrderForm, checkOrderShape, type OrderShape } from '../broker/order-shape.js';
import { Decimal } from '../decimal/decimal.js';
import { ValidationError } from '../errors.js';
import type { Instrument } from '../instruments/instrument.js';
import { Market } from '../instruments/market.js';
import type { ClientOrderId, StrategyId } from './ids.js';
import { OrderSide, OrderSizing, OrderType, TimeInForce } from './order-types.js';

export { HIGH_VALUE_ORDER_KRW, MAX_FRACTIONAL_DECIMALS } from '../broker/order-limits.js';

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

function fail(field: string, message: string): never {
  throw new ValidationError(field, `order intent: ${message}`, {}, 'invalid-order-intent');
}

/** `, found <value>` for a value the message can show (a decimal, a number, a string), else nothing. */
function foundOf(value: unknown): string {
  if (value instanceof Decimal || typeof value === 'number') return `, found ${String(value)}`;
  return typeof value === 'string' ? `, found ${JSON.stringify(value)}` : '';
}

/** The wire shape of an intent, for the broker's shape rules. */
function shapeOf(input: OrderIntentInput, raw: Readonly<Record<string, unknown>>): OrderShape {
  const amount = input.sizing === OrderSizing.AMOUNT;
  return {
    side: input.side,
    orderType: input.orderType,
    timeInForce: (raw.timeInForce as TimeInForce | undefined) ?? null,
    quantity: amount ? null : ((raw.quantity as Decimal | undefined) ?? null),
    price: (raw.price as Decimal | undefined) ?? null,
    orderAmount: amount ? ((raw.amount as Decimal | undefined) ?? null) : null,
  };
}

/** The intent's field for a wire field the broker's rules named. */
function intentField(field: unknown, input: OrderIntentInput): string {
  if (field === 'orderAmount') return input.orderType === OrderType.MARKET ? 'amount' : 'orderType';
  if (field === 'quantity,orderAmount') return input.sizing === OrderSizing.AMOUNT ? 'amount' : 'quantity';
  return String(field);
}

/**
 * The refusal of an amount intent in the intent's words (`amount`, not the wire's `orderAmount`)
 * and what to do instead: a KR stock or a limit is ordered by quantity.
 */
function amountMessage(input: OrderIntentInput, brokerMessage: string, amount: unknown): string {
  const found = foundOf(amount);
  const symbol = input.instrument.symbol;
  // a strategy's amount orders are buys; `hoga order sell --amount` sells
  const orders = input.side === OrderSide.SELL ? 'sells' : 'buys';
  if (input.instrument.market !== Market.US) {
    return `amount is only for US market ${orders}${found} for ${symbol} (${input.instrument.market}): give a quantity`;
  }
  if (input.orderType !== OrderType.MARKET) {
    return `amount is only for US market ${orders}${found} for a ${String(input.orderType)} order of ${symbol}: give a quantity`;
  }
  // its value (positive, 2 decimals at most): the broker's words, with the intent's field
  return `${brokerMessage.replace(/^orderAmount/, 'amount')}${found}`;
}

/** An intent as asked for, and the broker's refusal of its shape (null when the broker would take it). */
export interface JudgedOrderIntent {
  /** The intent, defaults filled (`confirmHighValue: false`, `timeInForce: DAY`), frozen. */
  readonly intent: OrderIntent;
  /**
   * The broker's 400 `invalid-request` for the intent's shape, its message ending with the value
   * found (`A fractional quantity is only allowed for US market sells, found 0.5`), or null.
   */
  readonly refusal: BrokerRefusal | null;
}

/**
 * Builds an intent and judges its shape by the broker's rules, answering a refusal instead of
 * throwing: what a strategy asks for that the broker would refuse (a fractional buy, 7 decimals, a
 * quantity of 0) is the strategy's order, denied with the broker's code, as live would refuse it.
 *
 * Checked: the discriminants (`side`, `sizing`, `orderType`, and `timeInForce` when given: a value
 * outside them is a programmer error and throws), then the broker's shape rules ({@link checkOrderForm}, {@link checkOrderShape}:
 * positive quantity/price/amount; LIMIT has a price, MARKET none; whole quantities except US MARKET
 * SELL (≤ 6 decimals); amount orders only for US MARKET (≤ 2 decimals); `CLS` only for US LIMIT;
 * `OPG` never). Not checked (market-data or account dependent, left to the broker model's
 * admission): the tick grid, price limits, hours, buying power, the high-value threshold.
 *
 * @param input - the requested order
 * @throws {@link ValidationError} (code `invalid-order-intent`) for a side, sizing, order type or
 *   time in force outside the enums
 */
export function judgeOrderIntent(input: OrderIntentInput): JudgedOrderIntent {
  const raw = input as unknown as Readonly<Record<string, unknown>>;
  const confirmHighValue = input.confirmHighValue ?? false;
  if (input.side !== OrderSide.BUY && input.side !== OrderSide.SELL) {
    fail('side', `expected BUY or SELL, found ${String(raw.side)}`);
  }
  if (input.sizing !== OrderSizing.AMOUNT && input.sizing !== OrderSizing.QUANTITY) {
    fail('sizing', `expected QUANTITY or AMOUNT, found ${String(raw.sizing)}`);
  }
  if (input.orderType !== OrderType.LIMIT && input.orderType !== OrderType.MARKET) {
    fail('orderType', `expected LIMIT or MARKET, found ${String(raw.orderType)}`);
  }
  if (raw.timeInForce !== undefined && !((raw.timeInForce as string) in TimeInForce)) {
    // a value outside the type (`GTC`, `day`): the broker has no such order, nor does the store
    fail('timeInForce', `expected DAY or CLS, found ${String(raw.timeInForce)}`);
  }
  const intent =
    input.sizing === OrderSizing.AMOUNT
      ? Object.freeze({ ...input, confirmHighValue })
      : Object.freeze({ ...input, confirmHighValue, timeInForce: input.timeInForce ?? TimeInForce.DAY } as
          | LimitOrderIntent
          | MarketOrderIntent);
  const shape = shapeOf(input, raw);
  for (const verdict of [checkOrderForm(shape), checkOrderShape(shape, input.instrument.market)]) {
    if (!verdict.accepted) {
      const field = intentField(verdict.data?.field, input);
      const message =
        verdict.data?.field === 'orderAmount'
          ? amountMessage(input, verdict.message, raw.amount)
          : `${verdict.message}${foundOf(raw[field])}`;
      return { intent, refusal: { ...verdict, message } };
    }
  }
  return { intent, refusal: null };
}

/**
 * Validates an intent's structure and fills defaults (`confirmHighValue: false`, `timeInForce: DAY`):
 * {@link judgeOrderIntent}, a refusal of the shape thrown.
 *
 * @param input - the requested order
 * @returns a frozen {@link OrderIntent}
 * @throws {@link ValidationError} (code `invalid-order-intent`) naming the offending field
 */
export function createOrderIntent(input: OrderIntentInput): OrderIntent {
  const { intent, refusal } = judgeOrderIntent(input);
  if (refusal !== null) {
    fail(intentField(refusal.data?.field, input), refusal.message);
  }
  return intent;
}

import { Decimal, type Instrument, isOnTick, roundToTick, tickSize } from '@hoga/core';
import { z } from 'zod';
import { SimApiError } from '../api-error.js';
import type { MarketModel, SimInstrument } from '../market/market-model.js';
import { invalidRequest, stockNotFound } from './brokerage-errors.js';
import type { SimOrder, SimOrderType, SimSide, SimTimeInForce } from './order-types.js';

const DECIMAL_TEXT = /^\d+(\.\d+)?$/;
const SYMBOL_TEXT = /^[A-Za-z0-9.-]+$/;
const CLIENT_ORDER_ID_TEXT = /^[A-Za-z0-9_-]+$/;
const MAX_FRACTION_DIGITS = 6;

const decimalText = z.string().max(30).regex(DECIMAL_TEXT).nullish();

const createSchema = z.object({
  symbol: z.string().min(1).max(20).regex(SYMBOL_TEXT),
  side: z.enum(['BUY', 'SELL']),
  orderType: z.enum(['LIMIT', 'MARKET']),
  timeInForce: z.enum(['DAY', 'CLS']).nullish(),
  quantity: decimalText,
  price: decimalText,
  orderAmount: decimalText,
  clientOrderId: z.string().min(1).max(36).regex(CLIENT_ORDER_ID_TEXT).nullish(),
  confirmHighValueOrder: z.boolean().nullish(),
});

const modifySchema = z.object({
  orderType: z.enum(['LIMIT', 'MARKET']),
  price: decimalText,
  quantity: decimalText,
  confirmHighValueOrder: z.boolean().nullish(),
});

/** A validated order-creation request. */
export interface CreateOrderIntent {
  readonly instrument: SimInstrument;
  readonly side: SimSide;
  readonly orderType: SimOrderType;
  readonly timeInForce: SimTimeInForce;
  /** Quantity of a quantity-based order; null for an amount-based one. */
  readonly quantity: Decimal | null;
  /** Limit price (US already truncated to its grid); null for market orders. */
  readonly price: Decimal | null;
  /** USD amount of an amount-based order; null otherwise. */
  readonly orderAmount: Decimal | null;
  readonly clientOrderId: string | null;
  readonly confirmHighValueOrder: boolean;
  /** Canonical text of the request content, compared by the idempotency window. */
  readonly fingerprint: string;
}

/** A validated modify request against a known order. */
export interface ModifyOrderIntent {
  readonly orderType: SimOrderType;
  readonly price: Decimal | null;
  /** KR: the new order's quantity; US: null (the remaining quantity carries over). */
  readonly quantity: Decimal | null;
  readonly confirmHighValueOrder: boolean;
}

function zodFailure(error: z.ZodError): SimApiError {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  if (!issue || field === '') return invalidRequest('body', 'The request body must be a JSON object');
  const data: Record<string, unknown> = {};
  if (issue.code === 'invalid_value') data.allowedValues = issue.values;
  if (issue.code === 'too_big' && issue.origin === 'string')
    data.constraint = { maxLength: Number(issue.maximum) };
  if (issue.code === 'invalid_format') data.pattern = issue.pattern;
  return invalidRequest(field, `Invalid ${field}: ${issue.message}`, data);
}

function fractionDigits(value: Decimal): number {
  return value.decimalPlaces();
}

/** The core view of a simulated instrument (for the tick grid). */
export function coreInstrument(instrument: SimInstrument): Instrument {
  return {
    symbol: instrument.symbol,
    market: instrument.country,
    currency: instrument.currency,
    securityType: instrument.securityType,
  };
}

/**
 * Checks a limit price against the instrument's grid: KR prices off the tick
 * grid give 400 `invalid-request` with the tick size and the nearest valid
 * prices in `data`; US prices are truncated to 2 decimals from $1 and to 4
 * below.
 */
export function checkPrice(instrument: SimInstrument, price: Decimal): Decimal {
  if (price.lte(0))
    throw invalidRequest('price', 'price must be greater than 0', { constraint: { exclusiveMin: 0 } });
  if (instrument.country === 'US') {
    const places = price.gte(1) ? 2 : 4;
    const truncated = price.toDecimalPlaces(places, Decimal.ROUND_DOWN);
    if (truncated.lte(0))
      throw invalidRequest('price', 'price truncates to 0', { constraint: { exclusiveMin: 0 } });
    return truncated;
  }
  const core = coreInstrument(instrument);
  if (!price.isInteger() || !isOnTick(core, price)) {
    const lower = roundToTick(core, price, 'down');
    const upper = roundToTick(core, price, 'up');
    throw invalidRequest('price', `price ${price.toFixed()} is off the tick grid`, {
      tickSize: tickSize(core, price).toFixed(),
      lowerTick: lower.toFixed(),
      upperTick: upper.toFixed(),
      nearestPrices: [lower.toFixed(), upper.toFixed()],
    });
  }
  return price;
}

function canonical(body: Record<string, unknown>): string {
  const keys = Object.keys(body)
    .filter((k) => body[k] !== undefined && body[k] !== null)
    .sort();
  return JSON.stringify(keys.map((k) => [k, body[k]]));
}

const US_MARKET_ONLY = { marketCountry: 'US', orderType: 'MARKET' } as const;

/**
 * Validates an order-creation body (400 `invalid-request` naming the field)
 * and resolves its symbol (404 `stock-not-found`).
 */
export function parseCreateOrder(market: MarketModel, body: unknown): CreateOrderIntent {
  const parsed = createSchema.safeParse(body);
  if (!parsed.success) throw zodFailure(parsed.error);
  const b = parsed.data;
  const hasQuantity = b.quantity != null;
  const hasAmount = b.orderAmount != null;
  if (hasQuantity === hasAmount) {
    throw invalidRequest('quantity,orderAmount', 'Exactly one of quantity and orderAmount is required');
  }
  if (hasAmount && b.orderType !== 'MARKET') {
    throw invalidRequest('orderAmount', 'orderAmount is only for US market orders', {
      allowedConditions: US_MARKET_ONLY,
    });
  }
  if (b.orderType === 'LIMIT' && b.price == null)
    throw invalidRequest('price', 'A LIMIT order needs a price');
  if (b.orderType === 'MARKET' && b.price != null)
    throw invalidRequest('price', 'A MARKET order takes no price');
  const instrument = market.instrument(b.symbol);
  if (!instrument) throw stockNotFound(b.symbol);
  const timeInForce = b.timeInForce ?? 'DAY';
  if (timeInForce === 'CLS' && (instrument.country !== 'US' || b.orderType !== 'LIMIT')) {
    throw invalidRequest('timeInForce', 'CLS is only for US limit orders', {
      allowedConditions: { marketCountry: 'US', orderType: 'LIMIT' },
    });
  }
  let quantity: Decimal | null = null;
  let orderAmount: Decimal | null = null;
  if (hasAmount) {
    if (instrument.country !== 'US') {
      throw invalidRequest('orderAmount', 'orderAmount is only for US market orders', {
        allowedConditions: US_MARKET_ONLY,
      });
    }
    orderAmount = new Decimal(b.orderAmount as string);
    if (orderAmount.lte(0) || fractionDigits(orderAmount) > 2) {
      throw invalidRequest(
        'orderAmount',
        'orderAmount must be a positive USD amount with at most 2 decimals',
        {
          constraint: { exclusiveMin: 0, maxDecimals: 2 },
        },
      );
    }
  } else {
    quantity = new Decimal(b.quantity as string);
    if (quantity.lte(0)) {
      throw invalidRequest('quantity', 'quantity must be greater than 0', {
        constraint: { exclusiveMin: 0 },
      });
    }
    if (!quantity.isInteger()) {
      const fractionalAllowed = instrument.country === 'US' && b.orderType === 'MARKET' && b.side === 'SELL';
      if (!fractionalAllowed) {
        throw invalidRequest('quantity', 'A fractional quantity is only allowed for US market sells', {
          allowedConditions: { marketCountry: 'US', orderType: 'MARKET', side: 'SELL' },
        });
      }
      if (fractionDigits(quantity) > MAX_FRACTION_DIGITS) {
        throw invalidRequest('quantity', 'A fractional quantity has at most 6 decimals', {
          constraint: { maxDecimals: MAX_FRACTION_DIGITS },
        });
      }
    }
  }
  const price = b.price == null ? null : checkPrice(instrument, new Decimal(b.price));
  return {
    instrument,
    side: b.side,
    orderType: b.orderType,
    timeInForce,
    quantity,
    price,
    orderAmount,
    clientOrderId: b.clientOrderId ?? null,
    confirmHighValueOrder: b.confirmHighValueOrder ?? false,
    fingerprint: canonical(b as Record<string, unknown>),
  };
}

/** Validates the shape of a modify body (before the order is looked up). */
export function parseModifyShape(body: unknown): z.infer<typeof modifySchema> {
  const parsed = modifySchema.safeParse(body ?? {});
  if (!parsed.success) throw zodFailure(parsed.error);
  return parsed.data;
}

/**
 * Validates a modify body against the order it modifies: LIMIT needs a price,
 * MARKET takes none; KR needs a positive integer quantity; US takes no quantity
 * (400 `us-modify-quantity-not-supported`).
 */
export function parseModifyOrder(
  shape: z.infer<typeof modifySchema>,
  order: SimOrder,
  instrument: SimInstrument,
): ModifyOrderIntent {
  if (shape.orderType === 'LIMIT' && shape.price == null)
    throw invalidRequest('price', 'A LIMIT order needs a price');
  if (shape.orderType === 'MARKET' && shape.price != null) {
    throw invalidRequest('price', 'A MARKET order takes no price');
  }
  let quantity: Decimal | null = null;
  if (order.country === 'US') {
    if (shape.quantity != null) {
      throw new SimApiError(
        400,
        'us-modify-quantity-not-supported',
        'A US order modify changes the price only',
        { field: 'quantity' },
      );
    }
  } else {
    const q = shape.quantity == null ? null : new Decimal(shape.quantity);
    if (q === null || !q.isInteger() || q.lte(0)) {
      throw invalidRequest('quantity', 'A KR modify needs a positive integer quantity', {
        constraint: { min: 1, integerOnly: true },
      });
    }
    quantity = q;
  }
  const price = shape.price == null ? null : checkPrice(instrument, new Decimal(shape.price));
  return {
    orderType: shape.orderType,
    price,
    quantity,
    confirmHighValueOrder: shape.confirmHighValueOrder ?? false,
  };
}

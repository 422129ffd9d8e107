import {
  checkLimitPrice,
  checkOrderRequest,
  type ModifyRequest,
  type OrderRequest,
} from '@hoga/broker-model';
import { checkOrderForm, Decimal } from '@hoga/core';
import { z } from 'zod';
import type { SimApiError } from '../api-error.js';
import { coreInstrument, type MarketModel, type SimInstrument } from '../market/market-model.js';
import { invalidRequest, orThrow, stockNotFound } from './brokerage-errors.js';
import type { SimOrderType, SimSide, SimTimeInForce } from './order-types.js';

export { coreInstrument } from '../market/market-model.js';

const DECIMAL_TEXT = /^\d+(\.\d+)?$/;
const SYMBOL_TEXT = /^[A-Za-z0-9.-]+$/;
const CLIENT_ORDER_ID_TEXT = /^[A-Za-z0-9_-]+$/;

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
  /** The request as the broker model's rules read it. */
  readonly request: OrderRequest;
  /** Canonical text of the request content, compared by the idempotency window. */
  readonly fingerprint: string;
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

/**
 * Checks a limit price against the instrument's grid (the broker model's `checkLimitPrice`): KR
 * prices off the tick grid give 400 `invalid-request` with the tick size and the nearest valid
 * prices in `data`; US prices are truncated to their grid.
 */
export function checkPrice(instrument: SimInstrument, price: Decimal): Decimal {
  return orThrow(checkLimitPrice(coreInstrument(instrument), price)).price ?? price;
}

function canonical(body: Record<string, unknown>): string {
  const keys = Object.keys(body)
    .filter((k) => body[k] !== undefined && body[k] !== null)
    .sort();
  return JSON.stringify(keys.map((k) => [k, body[k]]));
}

const decimalOrNull = (text: string | null | undefined) => (text == null ? null : new Decimal(text));

/**
 * Validates an order-creation body (400 `invalid-request` naming the field) and resolves its
 * symbol (404 `stock-not-found`): the wire schema, then the broker model's form rules (before the
 * lookup), shape rules and price grid (after it).
 */
export function parseCreateOrder(market: MarketModel, body: unknown): CreateOrderIntent {
  const parsed = createSchema.safeParse(body);
  if (!parsed.success) throw zodFailure(parsed.error);
  const b = parsed.data;
  const request: OrderRequest = {
    side: b.side,
    orderType: b.orderType,
    timeInForce: b.timeInForce ?? null,
    quantity: decimalOrNull(b.quantity),
    price: decimalOrNull(b.price),
    orderAmount: decimalOrNull(b.orderAmount),
    confirmHighValueOrder: b.confirmHighValueOrder ?? false,
  };
  orThrow(checkOrderForm(request));
  const instrument = market.instrument(b.symbol);
  if (!instrument) throw stockNotFound(b.symbol);
  const { price } = orThrow(checkOrderRequest(coreInstrument(instrument), request));
  return {
    instrument,
    side: b.side,
    orderType: b.orderType,
    timeInForce: b.timeInForce ?? 'DAY',
    quantity: request.quantity,
    price,
    orderAmount: request.orderAmount,
    clientOrderId: b.clientOrderId ?? null,
    confirmHighValueOrder: request.confirmHighValueOrder,
    request,
    fingerprint: canonical(b as Record<string, unknown>),
  };
}

/** Validates the shape of a modify body (before the order is looked up). */
export function parseModifyShape(body: unknown): z.infer<typeof modifySchema> {
  const parsed = modifySchema.safeParse(body ?? {});
  if (!parsed.success) throw zodFailure(parsed.error);
  return parsed.data;
}

/** The modify request of a validated modify body (its rules are the broker model's `checkModify`). */
export function modifyRequestOf(shape: z.infer<typeof modifySchema>): ModifyRequest {
  return {
    orderType: shape.orderType,
    price: decimalOrNull(shape.price),
    quantity: decimalOrNull(shape.quantity),
    confirmHighValueOrder: shape.confirmHighValueOrder ?? false,
  };
}

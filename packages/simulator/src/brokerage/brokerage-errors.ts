import {
  type BrokerErrorCode,
  type BrokerRefusal,
  type BrokerVerdict,
  invalidRequest as invalidRequestVerdict,
  refuse,
} from '@hoga/core';
import { SimApiError } from '../api-error.js';

/** The HTTP answer of a broker-model refusal: its status, code, message and `data`. */
export function toApiError(refusal: BrokerRefusal): SimApiError {
  return new SimApiError(refusal.status, refusal.code, refusal.message, refusal.data);
}

/** Throws the HTTP answer of a refusal; returns an accepted verdict unchanged. */
export function orThrow<V extends BrokerVerdict | { readonly accepted: true }>(
  verdict: V | BrokerRefusal,
): Exclude<V, BrokerRefusal> {
  if (!verdict.accepted) throw toApiError(verdict as BrokerRefusal);
  return verdict as Exclude<V, BrokerRefusal>;
}

/** 400 `invalid-request` naming the offending field (and any further hint in `data`). */
export function invalidRequest(field: string, message: string, data?: Record<string, unknown>): SimApiError {
  return toApiError(invalidRequestVerdict(field, message, data));
}

/** 422 with a business-rule code. */
export function businessRule(
  code: BrokerErrorCode,
  message: string,
  data?: Record<string, unknown>,
): SimApiError {
  return toApiError(refuse(code, message, data));
}

/** 409 with a conflict code (`already-filled`, `request-in-progress`, ...). */
export function conflict(
  code: BrokerErrorCode,
  message: string,
  data?: Record<string, unknown>,
): SimApiError {
  return toApiError(refuse(code, message, data));
}

/** 404 `stock-not-found`. */
export function stockNotFound(symbol: string): SimApiError {
  return toApiError(refuse('stock-not-found', `No stock with symbol ${JSON.stringify(symbol)}`));
}

/** 404 `order-not-found`. */
export function orderNotFound(orderId: string): SimApiError {
  return toApiError(refuse('order-not-found', `No order with id ${JSON.stringify(orderId)}`));
}

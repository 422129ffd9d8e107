import { SimApiError } from '../api-error.js';

/** 400 `invalid-request` naming the offending field (and any further hint in `data`). */
export function invalidRequest(field: string, message: string, data?: Record<string, unknown>): SimApiError {
  return new SimApiError(400, 'invalid-request', message, { field, ...data });
}

/** 422 with a business-rule code. */
export function businessRule(code: string, message: string, data?: Record<string, unknown>): SimApiError {
  return new SimApiError(422, code, message, data);
}

/** 409 with a conflict code (`already-filled`, `request-in-progress`, ...). */
export function conflict(code: string, message: string, data?: Record<string, unknown>): SimApiError {
  return new SimApiError(409, code, message, data);
}

/** 404 `stock-not-found`. */
export function stockNotFound(symbol: string): SimApiError {
  return new SimApiError(404, 'stock-not-found', `No stock with symbol ${JSON.stringify(symbol)}`);
}

/** 404 `order-not-found`. */
export function orderNotFound(orderId: string): SimApiError {
  return new SimApiError(404, 'order-not-found', `No order with id ${JSON.stringify(orderId)}`);
}

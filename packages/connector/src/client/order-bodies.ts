/**
 * Checks order requests before they leave the process and writes their wire bodies.
 *
 * @module
 */
import { type BrokerVerdict, checkPricePositive, checkPricePresence, formatDecimal } from '@hoga/core';
import { InvalidArgumentError } from '../errors.js';
import type { CreateOrderRequest, ModifyOrderRequest } from '../schemas/orders.js';

const CLIENT_ORDER_ID = /^[A-Za-z0-9_-]{1,36}$/;
const SYMBOL = /^[A-Za-z0-9.-]+$/;

/** Throws a broker rule's refusal (core's shape rules) as an argument error naming its field. */
function throwIfRefused(verdict: BrokerVerdict): void {
  if (!verdict.accepted) {
    const field = verdict.data?.field;
    throw new InvalidArgumentError(typeof field === 'string' ? field : 'body', verdict.message);
  }
}

/**
 * Checks a symbol against the broker's pattern.
 *
 * @param symbol - the symbol
 * @param field - argument name for the error
 * @throws {@link InvalidArgumentError}
 */
export function checkSymbol(symbol: string, field = 'symbol'): string {
  if (!SYMBOL.test(symbol)) {
    throw new InvalidArgumentError(
      field,
      `expected letters, digits, "." or "-", found ${JSON.stringify(symbol)}`,
    );
  }
  return symbol;
}

/**
 * Checks a list of 1 to 200 symbols and joins it for the `symbols` parameter.
 *
 * @param symbols - the symbols
 * @throws {@link InvalidArgumentError}
 */
export function joinSymbols(symbols: readonly string[]): string {
  if (symbols.length < 1 || symbols.length > 200) {
    throw new InvalidArgumentError('symbols', `expected 1 to 200 symbols, found ${symbols.length}`);
  }
  return symbols.map((s) => checkSymbol(s, 'symbols')).join(',');
}

/**
 * The wire body of a create request.
 *
 * @param request - the order
 * @throws {@link InvalidArgumentError} naming the offending field
 */
export function createOrderBody(request: CreateOrderRequest): Record<string, unknown> {
  checkSymbol(request.symbol);
  if (request.clientOrderId !== undefined && !CLIENT_ORDER_ID.test(request.clientOrderId)) {
    throw new InvalidArgumentError(
      'clientOrderId',
      `expected 1 to 36 characters of [A-Za-z0-9_-], found ${JSON.stringify(request.clientOrderId)}`,
    );
  }
  const body: Record<string, unknown> = {
    symbol: request.symbol,
    side: request.side,
    orderType: request.orderType,
  };
  if ('orderAmount' in request) {
    if (request.orderAmount.lte(0))
      throw new InvalidArgumentError('orderAmount', 'expected a positive amount');
    body.orderAmount = formatDecimal(request.orderAmount);
  } else {
    if (request.quantity.lte(0)) throw new InvalidArgumentError('quantity', 'expected a positive quantity');
    body.quantity = formatDecimal(request.quantity);
    throwIfRefused(checkPricePresence(request.orderType, request.price ?? null));
    if (request.price !== undefined) {
      throwIfRefused(checkPricePositive(request.price));
      body.price = formatDecimal(request.price);
    }
    if (request.timeInForce !== undefined) body.timeInForce = request.timeInForce;
  }
  if (request.clientOrderId !== undefined) body.clientOrderId = request.clientOrderId;
  if (request.confirmHighValueOrder !== undefined) body.confirmHighValueOrder = request.confirmHighValueOrder;
  return body;
}

/**
 * The wire body of a modify request.
 *
 * @param request - the change
 * @throws {@link InvalidArgumentError} naming the offending field
 */
export function modifyOrderBody(request: ModifyOrderRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { orderType: request.orderType };
  throwIfRefused(checkPricePresence(request.orderType, request.price ?? null));
  if (request.price !== undefined) body.price = formatDecimal(request.price);
  if (request.quantity !== undefined) {
    if (request.quantity.lte(0)) throw new InvalidArgumentError('quantity', 'expected a positive quantity');
    body.quantity = formatDecimal(request.quantity);
  }
  if (request.confirmHighValueOrder !== undefined) body.confirmHighValueOrder = request.confirmHighValueOrder;
  return body;
}

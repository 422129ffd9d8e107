/**
 * Branded identifiers. A brand keeps a broker order id from being passed where a client order id
 * is expected, at no runtime cost.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { describeValue, ValidationError } from '../errors.js';

declare const brand: unique symbol;
/** `T` tagged with the nominal brand `B`. */
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** Our idempotency key for an order (≤ 36 chars of `[A-Za-z0-9_-]`). */
export type ClientOrderId = Brand<string, 'ClientOrderId'>;
/** The broker's order id (changes on every modify or cancel). */
export type BrokerOrderId = Brand<string, 'BrokerOrderId'>;
/** Identifier of a strategy instance. */
export type StrategyId = Brand<string, 'StrategyId'>;

const CLIENT_ORDER_ID = /^[A-Za-z0-9_-]{1,36}$/;
const PREFIX = /^[A-Za-z0-9_]{1,12}$/;

/**
 * Validates and brands a client order id.
 *
 * @param value - candidate id
 * @throws {@link ValidationError} (code `invalid-client-order-id`) when not 1–36 chars of `[A-Za-z0-9_-]`
 */
export function clientOrderId(value: unknown): ClientOrderId {
  if (typeof value !== 'string' || !CLIENT_ORDER_ID.test(value)) {
    throw new ValidationError(
      'clientOrderId',
      `clientOrderId: expected 1-36 characters of [A-Za-z0-9_-], found ${describeValue(value)}`,
      {},
      'invalid-client-order-id',
    );
  }
  return value as ClientOrderId;
}

/**
 * A fresh random client order id: a UUID (36 chars), or `<prefix>-<hex>` trimmed to 36 chars.
 *
 * @param prefix - optional 1–12 chars of `[A-Za-z0-9_]`, e.g. a strategy tag
 */
export function newClientOrderId(prefix?: string): ClientOrderId {
  if (prefix === undefined) return randomUUID() as ClientOrderId;
  if (!PREFIX.test(prefix)) {
    throw new ValidationError(
      'prefix',
      `prefix: expected 1-12 characters of [A-Za-z0-9_], found ${describeValue(prefix)}`,
    );
  }
  const hex = randomUUID().replaceAll('-', '');
  return `${prefix}-${hex}`.slice(0, 36) as ClientOrderId;
}

/**
 * Validates and brands a broker order id.
 *
 * @param value - a non-empty string from the broker
 * @throws {@link ValidationError} (code `invalid-broker-order-id`) for an empty or non-string value
 */
export function brokerOrderId(value: unknown): BrokerOrderId {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ValidationError(
      'orderId',
      `orderId: expected a non-empty string, found ${describeValue(value)}`,
      {},
      'invalid-broker-order-id',
    );
  }
  return value as BrokerOrderId;
}

/**
 * Validates and brands a strategy id.
 *
 * @param value - 1–64 chars of `[A-Za-z0-9_.-]`
 * @throws {@link ValidationError} (code `invalid-strategy-id`)
 */
export function strategyId(value: unknown): StrategyId {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(value)) {
    throw new ValidationError(
      'strategyId',
      `strategyId: expected 1-64 characters of [A-Za-z0-9_.-], found ${describeValue(value)}`,
      {},
      'invalid-strategy-id',
    );
  }
  return value as StrategyId;
}

/** A fresh random id for an event or a fill (UUID). */
export function newEventId(): string {
  return randomUUID();
}

/**
 * The broker's error codes: one union of every code the spec's error table names (plus the two the
 * reference adds), and one table from code to HTTP status and condition. The simulator answers
 * with these, the connector maps them, and the risk module denies with them.
 *
 * @module
 */

/** One row of the error table: the HTTP status and what the broker means by the code. */
export interface BrokerErrorSpec {
  /** The status the code comes with. */
  readonly status: number;
  /** Other statuses the spec also shows for the same code (`edge-blocked`, `opposite-pending-order-exists`). */
  readonly alsoSeenWith?: readonly number[];
  /** The spec's condition, briefly. */
  readonly condition: string;
}

/**
 * The spec's error table (plus the reference's `us-modify-quantity-not-supported` and
 * `max-order-amount-exceeded`), keyed by code.
 */
export const BROKER_ERRORS = {
  'invalid-request': { status: 400, condition: 'missing, malformed or unsupported parameter' },
  'confirm-high-value-required': {
    status: 400,
    condition: 'order of 100 million KRW or more without confirmHighValueOrder=true',
  },
  'account-header-required': { status: 400, condition: 'account header missing' },
  'unsupported-date': { status: 400, condition: 'calendar date not supported' },
  'us-modify-quantity-not-supported': { status: 400, condition: 'a US modify carries a quantity' },
  'invalid-token': { status: 401, condition: 'token invalid or malformed' },
  'edge-blocked': {
    status: 401,
    alsoSeenWith: [403, 404],
    condition: 'Authorization missing (401), request not allowed (403), path not supported (404)',
  },
  'expired-token': { status: 401, condition: 'token expired' },
  'login-user-not-found': { status: 401, condition: 'no login matches the token' },
  'token-revoked': { status: 401, condition: 'token replaced by a newer issue' },
  forbidden: { status: 403, condition: 'insufficient permission' },
  'stock-not-found': { status: 404, condition: 'stock unknown (or delisted)' },
  'exchange-rate-not-found': { status: 404, condition: 'no rate for the requested time' },
  'account-not-found': { status: 404, condition: 'account in header not found' },
  'order-not-found': { status: 404, condition: 'no order for orderId' },
  'request-in-progress': { status: 409, condition: 'same clientOrderId still processing' },
  'already-filled': { status: 409, condition: 'modify or cancel target already filled' },
  'already-canceled': { status: 409, condition: 'target already cancelled' },
  'already-modified': { status: 409, condition: 'target already modified' },
  'already-rejected': { status: 409, condition: 'target already rejected' },
  'already-processing': { status: 409, condition: 'a modify or cancel of the same order is processing' },
  'insufficient-buying-power': { status: 422, condition: 'not enough buying power (or sellable quantity)' },
  'order-hours-closed': { status: 422, condition: 'order, modify or cancel not accepted at this time' },
  'stock-restricted': { status: 422, condition: 'stock is restricted' },
  'price-out-of-range': { status: 422, condition: 'price outside the upper and lower limits' },
  'opposite-pending-order-exists': {
    status: 422,
    alsoSeenWith: [409],
    condition: 'opposite-side pending order on the same stock (KR)',
  },
  'order-type-not-allowed': { status: 422, condition: 'quote type not usable now' },
  'prerequisite-required': { status: 422, condition: 'terms, risk notice or suitability incomplete' },
  'market-not-supported-for-stock': {
    status: 422,
    condition: 'stock not tradable in the requested market (KR)',
  },
  'investor-exchange-not-integrated': {
    status: 422,
    condition: 'investor exchange setting not integrated (KR)',
  },
  'amount-order-outside-regular-hours': {
    status: 422,
    condition: 'amount or fractional order outside [US regular start, end − 1 h)',
  },
  'modify-restricted': { status: 422, condition: 'order cannot be modified' },
  'cancel-restricted': { status: 422, condition: 'order cannot be cancelled' },
  'idempotency-key-conflict': { status: 422, condition: 'same clientOrderId with different content' },
  'max-order-amount-exceeded': { status: 422, condition: 'order of 3,000,000,000 KRW or more' },
  'edge-rate-limit-exceeded': { status: 429, condition: 'per-second rate limit exceeded (edge)' },
  'rate-limit-exceeded': { status: 429, condition: 'per-second rate limit exceeded' },
  'internal-error': { status: 500, condition: 'temporary server failure' },
  maintenance: { status: 500, condition: 'system maintenance' },
} as const satisfies Readonly<Record<string, BrokerErrorSpec>>;

/** Every error code the broker answers with (the keys of {@link BROKER_ERRORS}). */
export type BrokerErrorCode = keyof typeof BROKER_ERRORS;

/** The codes, in table order. */
export const BROKER_ERROR_CODES: readonly BrokerErrorCode[] = Object.keys(BROKER_ERRORS) as BrokerErrorCode[];

/**
 * Whether a string is one of the broker's error codes.
 *
 * @param code - any string, e.g. `error.code` of an answer
 */
export function isBrokerErrorCode(code: string): code is BrokerErrorCode {
  return Object.hasOwn(BROKER_ERRORS, code);
}

/**
 * The HTTP status a code comes with (the first the spec names for it).
 *
 * @example
 * ```ts
 * brokerErrorStatus('price-out-of-range'); // 422
 * ```
 */
export function brokerErrorStatus(code: BrokerErrorCode): number {
  return BROKER_ERRORS[code].status;
}

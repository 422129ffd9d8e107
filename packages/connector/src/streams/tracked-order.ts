/**
 * The record an {@link OrderTracker} keeps per broker order id: how the id relates to the order the
 * user placed (its own order, a modify's replacement, a cancel's record), the client order id its
 * events carry, the filled quantity earlier orders of its chain brought, and its last report. Also
 * the pure helpers that build such a record and compare two reports.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { type ClientOrderId, clientOrderId, Decimal } from '@hoga/core';
import type { OrderRecord } from '../schemas/orders.js';
import type { ReadBackoff } from './read-backoff.js';

/** How an order id relates to the order the user placed. */
export type Role = 'order' | 'replacement' | 'cancel';

/** What the tracker keeps about one broker order id. */
export interface Tracked extends ReadBackoff {
  readonly clientOrderId: ClientOrderId;
  readonly role: Role;
  /** Filled quantity of earlier orders of the same chain (before a modify). */
  readonly baseQuantity: Decimal;
  /** The order this one replaced or cancels. */
  readonly originalOrderId: string | null;
  last: OrderRecord | null;
  /** Scheduler time of the first {@link OrderTracker.prune} that saw it in a final state (NaN: not yet). */
  endedAtMs: number;
}

const ZERO = new Decimal(0);

/**
 * A stable client order id for an order placed elsewhere (app, another engine): `ext-` and 32 hex
 * digits of the SHA-256 of the broker's id (broker ids can be long and share prefixes).
 *
 * @param orderId - the broker's order id
 */
export function externalClientOrderId(orderId: string): ClientOrderId {
  return clientOrderId(`ext-${createHash('sha256').update(orderId).digest('hex').slice(0, 32)}`);
}

/**
 * An order of its own (not a modify's or cancel's), tracked from `last` on.
 *
 * @param id - the client order id its events carry
 * @param last - its last report (null: none yet)
 */
export function ownOrder(id: ClientOrderId, last: OrderRecord | null): Tracked {
  return {
    clientOrderId: id,
    role: 'order',
    baseQuantity: ZERO,
    originalOrderId: null,
    last,
    endedAtMs: Number.NaN,
    failedReads: 0,
    skipPolls: 0,
  };
}

/**
 * The order a modify (`replacement`) or cancel (`cancel`) produced, linked to its original: it
 * carries the original's client order id, and a replacement adds what the original filled to the
 * chain's base quantity.
 *
 * @param original - the tracked original order
 * @param originalOrderId - the original's broker order id
 * @param role - `replacement` (modify) or `cancel`
 */
export function linkedOrder(
  original: Tracked,
  originalOrderId: string,
  role: 'replacement' | 'cancel',
): Tracked {
  const filled = original.last?.execution.filledQuantity ?? ZERO;
  return {
    clientOrderId: original.clientOrderId,
    role,
    baseQuantity: original.baseQuantity.plus(role === 'replacement' ? filled : ZERO),
    originalOrderId,
    last: null,
    endedAtMs: Number.NaN,
    failedReads: 0,
    skipPolls: 0,
  };
}

/**
 * Whether `row` shows something new against the last report: its status, filled quantity, price
 * or quantity changed.
 *
 * @param last - the last report taken in
 * @param row - a new report (a row of the OPEN list)
 */
export function reportChanged(last: OrderRecord, row: OrderRecord): boolean {
  return (
    last.status !== row.status ||
    !last.execution.filledQuantity.eq(row.execution.filledQuantity) ||
    !last.quantity.eq(row.quantity) ||
    (last.price === null ? row.price !== null : row.price === null || !last.price.eq(row.price))
  );
}

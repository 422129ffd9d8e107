/**
 * The record an {@link OrderTracker} keeps per broker order id: how the id relates to the order the
 * user placed (its own order, a modify's replacement, a cancel's record), the client order id its
 * events carry, the filled quantity earlier orders of its chain brought, and its last report. Also
 * the helpers that build such a record, compare two reports, and walk a chain of replacements
 * (whether a report is older than the last one is `orders/older-report.ts`, the engine's rule too).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { type ClientOrderId, clientOrderId, Decimal, TERMINAL_BROKER_ORDER_STATUSES } from '@hoga/core';
import type { OrderRecord } from '../schemas/orders.js';
import type { ReadBackoff } from './read-backoff.js';

/** How an order id relates to the order the user placed. */
export type Role = 'order' | 'replacement' | 'cancel';

/** What the tracker keeps about one broker order id. */
export interface Tracked extends ReadBackoff {
  readonly clientOrderId: ClientOrderId;
  readonly role: Role;
  /** Filled quantity of earlier orders of the same chain (before a modify), by their last reports. */
  baseQuantity: Decimal;
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

/**
 * The orders to read together when `orderId` is read, oldest first, each replaced by the next:
 * back to the earliest original that has not reported a final state (its last fills come first,
 * and its replacements' count on top of them; its first report is the chain's `OrderAccepted`),
 * and on through the replacements never read (`OrderModified` tells each one's price and
 * quantity). `[orderId]` when it is read alone. A chain modified several times between two polls
 * is thus told in the order it happened, wherever in it the poll began.
 *
 * @param orders - the tracked orders
 * @param replacementOf - replacement id by original id
 * @param orderId - an order about to be read
 */
export function readChain(
  orders: ReadonlyMap<string, Tracked>,
  replacementOf: ReadonlyMap<string, string>,
  orderId: string,
): string[] {
  const chain = [orderId];
  const seen = new Set(chain);
  for (let tracked = orders.get(orderId); tracked?.role === 'replacement'; ) {
    const originalId = tracked.originalOrderId;
    const original = originalId === null ? undefined : orders.get(originalId);
    if (originalId === null || original === undefined || seen.has(originalId)) break;
    if (original.last !== null && TERMINAL_BROKER_ORDER_STATUSES.has(original.last.status)) break;
    chain.unshift(originalId);
    seen.add(originalId);
    tracked = original;
  }
  for (let next = replacementOf.get(orderId); next !== undefined; next = replacementOf.get(next)) {
    if (seen.has(next) || orders.get(next)?.last !== null) break;
    chain.push(next);
    seen.add(next);
  }
  return chain;
}

/**
 * Sets the base quantity of the replacements down the chain from an order just reported: what
 * their originals filled by their last reports (a link made before an original's last fills
 * would count a replacement's fills from too low).
 *
 * @param orders - the tracked orders
 * @param replacementOf - replacement id by original id
 * @param orderId - the order just reported
 */
export function rebaseChain(
  orders: ReadonlyMap<string, Tracked>,
  replacementOf: ReadonlyMap<string, string>,
  orderId: string,
): void {
  let tracked = orders.get(orderId);
  for (let next = replacementOf.get(orderId); next !== undefined; next = replacementOf.get(next)) {
    const replacement = orders.get(next);
    if (tracked === undefined || replacement === undefined) return;
    replacement.baseQuantity = tracked.baseQuantity.plus(tracked.last?.execution.filledQuantity ?? ZERO);
    tracked = replacement;
  }
}

/**
 * Forgets orders whose final state was first seen at least `retainEndedMs` before `nowMs`, with
 * their replacement links (see `OrderTracker.prune`); marks those that just ended.
 *
 * @param orders - the tracked orders
 * @param replacementOf - replacement id by original id
 * @param nowMs - scheduler time
 * @param retainEndedMs - how long an ended order is remembered
 */
export function pruneEnded(
  orders: Map<string, Tracked>,
  replacementOf: Map<string, string>,
  nowMs: number,
  retainEndedMs: number,
): void {
  for (const t of orders.values()) {
    // (a report answered late may show an ended order working again: then it is read on)
    if (t.last === null || !TERMINAL_BROKER_ORDER_STATUSES.has(t.last.status)) t.endedAtMs = Number.NaN;
    else if (Number.isNaN(t.endedAtMs)) t.endedAtMs = nowMs;
  }
  for (const [id, t] of orders) {
    if (Number.isNaN(t.endedAtMs) || nowMs - t.endedAtMs < retainEndedMs) continue;
    const next = replacementOf.get(id);
    const replacement = next === undefined ? undefined : orders.get(next);
    if (replacement !== undefined && Number.isNaN(replacement.endedAtMs)) continue;
    orders.delete(id);
    replacementOf.delete(id);
  }
  for (const [id, t] of orders) {
    if (t.role === 'cancel' && t.originalOrderId !== null && !orders.has(t.originalOrderId))
      orders.delete(id);
  }
}

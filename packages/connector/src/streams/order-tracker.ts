/**
 * Turns successive reports of the broker's order records into core order events: the fill's own
 * quantity and price are derived from the change of cumulative quantity and amount (or average
 * price), so each fill is emitted exactly once. An order the tracker does not know, seen while
 * order commands of this client are in flight, is held back until they end (or a bounded wait
 * runs out): it may be theirs, and its events must carry the caller's `clientOrderId` from the
 * first one on. A report showing an order `REPLACED` before this client's modify answered waits the
 * same way, so the replacement is linked to it as when the answer came first; when that answer was
 * lost, the replacement is looked for by the modify's terms (`lost-modifies.ts`). A replacement's
 * fills count on top of what its original filled by its last report. This class decides which
 * reports are taken in and keeps the orders; the events a report implies are `report-events.ts`'s.
 *
 * @module
 */
import {
  BrokerOrderStatus,
  type ClientOrderId,
  type Clock,
  clientOrderId,
  type OrderEvent,
  TERMINAL_BROKER_ORDER_STATUSES,
} from '@hoga/core';
import { isOlderReport, progressOf } from '../orders/older-report.js';
import type { OrderRecord } from '../schemas/orders.js';
import { CommandWaits } from './command-waits.js';
import { LostModifies, type UnansweredModify } from './lost-modifies.js';
import { readDue, readFailed } from './read-backoff.js';
import { reportEvents } from './report-events.js';
import {
  externalClientOrderId,
  linkedOrder,
  ownOrder,
  pruneEnded,
  readChain,
  rebaseChain,
  reportChanged,
  type Tracked,
} from './tracked-order.js';

export { externalClientOrderId } from './tracked-order.js';

/**
 * Detail reads in a row answered 404 before an order never read yet (only named by a command's
 * answer, which the broker's records may lag behind) is dropped; one read before is dropped at once.
 */
export const UNREAD_NOT_FOUND_READS = 3;

/** Default longest wait for the answer of an order command before an unknown order is released. */
export const DEFAULT_ORDER_HOLD_MS = 10_000;

/**
 * Default time an order is remembered after it reached a final state (a day): a late listing or
 * detail read of it is then taken for what it is, not for a new order placed elsewhere.
 */
export const DEFAULT_ENDED_ORDER_RETAIN_MS = 86_400_000;

/** Options of {@link OrderTracker}. */
export interface OrderTrackerOptions {
  /**
   * Longest wait (scheduler ms) for commands in flight before an unknown order is taken for one
   * placed elsewhere (default {@link DEFAULT_ORDER_HOLD_MS}); a command that never answers cannot
   * hold an order's events longer.
   */
  readonly holdMs?: number;
  /**
   * How long (scheduler ms) an order is remembered after {@link OrderTracker.prune} first saw it in
   * a final state (default {@link DEFAULT_ENDED_ORDER_RETAIN_MS}); a replaced order is also kept
   * while its replacement is working.
   */
  readonly retainEndedMs?: number;
}

/** Keeps the last report of every live order and diffs new reports against it. */
export class OrderTracker {
  private readonly orders = new Map<string, Tracked>();
  private readonly replacementOf = new Map<string, string>();
  /** Unknown orders waiting for the commands that may have made them (with the first row seen). */
  private readonly held: CommandWaits<{ row: OrderRecord | null; atStart: boolean }>;
  /** Orders read `REPLACED` whose replacement is not known yet, waiting for the modify's answer. */
  private readonly replacedHeld: CommandWaits<null>;
  /** Modifies whose answer was lost, their replacement looked for by their terms. */
  private readonly lostModifies: LostModifies;
  private readonly retainEndedMs: number;

  /**
   * @param clock - stamps `tsInit` (and `tsEvent` when the broker gives no time)
   * @param options - how long unknown orders may be held
   */
  constructor(
    private readonly clock: Clock,
    options: OrderTrackerOptions = {},
  ) {
    this.held = new CommandWaits(options.holdMs ?? DEFAULT_ORDER_HOLD_MS);
    this.replacedHeld = new CommandWaits(options.holdMs ?? DEFAULT_ORDER_HOLD_MS);
    this.lostModifies = new LostModifies(options.holdMs ?? DEFAULT_ORDER_HOLD_MS);
    this.retainEndedMs = options.retainEndedMs ?? DEFAULT_ENDED_ORDER_RETAIN_MS;
  }

  /** How many orders, replacement links and held reports are kept (a long run's memory). */
  sizes(): { orders: number; replacements: number; held: number } {
    const held = this.held.size + this.replacedHeld.size + this.lostModifies.size;
    return { orders: this.orders.size, replacements: this.replacementOf.size, held };
  }

  /** Ids of unknown orders held back (to be decided on each poll, listed or not). */
  heldOrderIds(): string[] {
    return this.held.ids();
  }

  /**
   * Decides whether the events of an order this tracker does not know must wait. While a create,
   * modify or cancel sent through the client is in flight, the order may be the one it made,
   * listed before the answer arrived: it is held until every command in flight when it was first
   * seen has ended, or `holdMs` has passed. Its events then carry the `clientOrderId` the command's
   * notice gave ({@link expectCreated}, {@link expectLinked}); if no notice claimed it, it is taken
   * for an order placed elsewhere (`ext-…`), or for part of the baseline if the first poll listed
   * it. Nothing is observed while it is held, so each fill is still emitted once.
   *
   * Once this answers false the order is tracked: diff it as usual.
   *
   * @param order - its row in the OPEN list, or its id when it is no longer listed
   * @param inFlight - sequence numbers of the commands in flight now
   * @param nowMs - scheduler time
   * @param atStart - listed by the stream's first poll (orders open at start form the baseline)
   */
  holdUnknown(
    order: OrderRecord | string,
    inFlight: readonly number[],
    nowMs: number,
    atStart = false,
  ): boolean {
    const orderId = typeof order === 'string' ? order : order.orderId;
    if (this.orders.has(orderId)) {
      this.held.delete(orderId);
      return false;
    }
    const row = typeof order === 'string' ? null : order;
    const seen = { row, atStart: atStart && row !== null };
    const { held, first } = this.held.check(orderId, inFlight, nowMs, seen);
    if (held) return true;
    // a lost modify's replacement (told while this poll ran): linked by the next poll's linkUnanswered
    if (this.lostModifies.fits(row ?? first.row, nowMs)) return this.held.keep(orderId, first);
    if (first.atStart && first.row !== null) this.baseline(first.row);
    else this.expectCreated(orderId, null);
    return false;
  }

  /**
   * Decides whether a report showing a tracked order `REPLACED`, while its replacement is not
   * known, must wait: a modify sent through this client may have made the replacement, and only
   * its answer names it. The report is then not taken in (the order is read again on the next
   * poll) until every command in flight when it was first seen has ended, or `holdMs` has passed;
   * so `OrderModified` names the replacement, its price and quantity, as when the answer came
   * first. Once this answers false, observe the report.
   *
   * @param order - a report of a tracked order
   * @param inFlight - sequence numbers of the commands in flight now
   * @param nowMs - scheduler time
   */
  holdReplaced(order: OrderRecord, inFlight: readonly number[], nowMs: number): boolean {
    const tracked = this.orders.get(order.orderId);
    if (order.status !== BrokerOrderStatus.PENDING_REPLACE && order.status !== BrokerOrderStatus.REPLACED)
      this.lostModifies.delete(order.orderId); // back to working (or ended): no replacement was made
    if (
      order.status !== BrokerOrderStatus.REPLACED ||
      tracked === undefined ||
      tracked.role === 'cancel' ||
      tracked.last?.status === BrokerOrderStatus.REPLACED ||
      this.replacementOf.has(order.orderId)
    ) {
      this.replacedHeld.delete(order.orderId);
      return false;
    }
    if (this.lostModifies.awaited(order.orderId, nowMs)) return true;
    return this.replacedHeld.check(order.orderId, inFlight, nowMs, null).held;
  }

  /**
   * Takes in a modify whose answer was lost while the order, read instead, showed it applied: its
   * replacement is looked for by its terms ({@link linkUnanswered}) for at most `holdMs`, the
   * original's `REPLACED` report waiting meanwhile ({@link holdReplaced}).
   */
  expectUnanswered(notice: UnansweredModify, nowMs: number): void {
    if (this.orders.has(notice.originalOrderId) && !this.replacementOf.has(notice.originalOrderId))
      this.lostModifies.add(notice, nowMs);
  }

  /** Whether a replacement is looked for (read the newest CLOSED page too: it may have ended at once). */
  awaitsUnanswered(): boolean {
    return this.lostModifies.size > 0;
  }

  /** Links the replacements `candidates` (OPEN list, newest CLOSED page) show ({@link expectUnanswered}). */
  linkUnanswered(candidates: readonly OrderRecord[]): void {
    const unknown = candidates.filter((c) => !this.orders.has(c.orderId));
    for (const [replacement, original] of this.lostModifies.found(unknown))
      this.expectLinked(replacement, original, 'replacement');
  }

  /** The orders to read together when `orderId` is read, oldest first (see `readChain`). */
  chainOf(orderId: string): string[] {
    return readChain(this.orders, this.replacementOf, orderId);
  }

  /**
   * Ids of orders to read when they are not in the OPEN list: those not yet in a final state. A
   * cancel's record is read only while its original has not ended `CANCELED` (that is the
   * cancel's outcome; the record can only add that the cancel was rejected).
   */
  liveOrderIds(): string[] {
    return [...this.orders.entries()]
      .filter(([, t]) => t.last === null || !TERMINAL_BROKER_ORDER_STATUSES.has(t.last.status))
      .filter(([, t]) => {
        if (t.role !== 'cancel' || t.originalOrderId === null) return true;
        const original = this.orders.get(t.originalOrderId);
        return original !== undefined && original.last?.status !== BrokerOrderStatus.CANCELED;
      })
      .map(([id]) => id);
  }

  /**
   * Takes in that the broker has no order under an id (404 `order-not-found`) that the OPEN list
   * does not show either, and forgets it: it is never read again. The record a cancel's answer
   * names may not be an order the broker keeps: that cancel's outcome is read on its original
   * (`cancel`). Any other order (or replacement) was listed or answered before: the broker lost
   * it, and the caller reports that once (`dropped`, with its client order id). An order never
   * read yet is only dropped at its {@link UNREAD_NOT_FOUND_READS}th 404 in a row (`unknown`
   * before: report it as a failed read).
   *
   * @param orderId - the id the detail read was refused for
   */
  notFound(
    orderId: string,
  ): { kind: 'cancel' } | { kind: 'dropped'; clientOrderId: ClientOrderId } | { kind: 'unknown' } {
    const tracked = this.orders.get(orderId);
    if (tracked === undefined) return { kind: 'unknown' };
    if (
      tracked.role !== 'cancel' &&
      tracked.last === null &&
      tracked.failedReads < UNREAD_NOT_FOUND_READS - 1
    )
      return { kind: 'unknown' };
    this.orders.delete(orderId);
    this.replacementOf.delete(orderId);
    if (tracked.role === 'cancel') return { kind: 'cancel' };
    return { kind: 'dropped', clientOrderId: tracked.clientOrderId };
  }

  /**
   * Whether an order's detail is to be read on this poll: after failed reads they back off (see
   * `read-backoff.ts`). Call it once a poll for each order about to be read.
   *
   * @param orderId - a tracked order (an untracked one is always due)
   */
  readDue(orderId: string): boolean {
    const tracked = this.orders.get(orderId);
    return tracked === undefined || readDue(tracked);
  }

  /**
   * Takes in that an order's detail read failed (a 404 of an unlisted order: {@link notFound}).
   *
   * @param orderId - the order whose read failed
   */
  readFailed(orderId: string): void {
    const tracked = this.orders.get(orderId);
    if (tracked !== undefined) readFailed(tracked);
  }

  /**
   * Whether a list row shows something new about an order: unknown so far, or its status, filled
   * quantity, price or quantity changed since the last report.
   *
   * @param row - a row of the OPEN list
   */
  changed(row: OrderRecord): boolean {
    const last = this.orders.get(row.orderId)?.last;
    if (last === undefined || last === null) return true;
    return reportChanged(last, row);
  }

  /** Whether an order id is tracked. */
  has(orderId: string): boolean {
    return this.orders.has(orderId);
  }

  /**
   * Registers an order created through this client (or, with a null id, one taken for placed
   * elsewhere); its next report is diffed against nothing, so it starts with `OrderAccepted`.
   * An order already tracked keeps its id: events never switch ids.
   *
   * @param orderId - broker order id
   * @param id - the client order id (null: one is derived from the order id)
   */
  expectCreated(orderId: string, id: string | null): void {
    this.held.delete(orderId);
    if (this.orders.has(orderId)) return;
    this.orders.set(
      orderId,
      ownOrder(id === null ? externalClientOrderId(orderId) : clientOrderId(id), null),
    );
  }

  /**
   * Links the order a modify or cancel produced to the original order.
   *
   * @param orderId - the new order's id
   * @param originalOrderId - the order that was modified or cancelled
   * @param role - `replacement` (modify) or `cancel`
   */
  expectLinked(orderId: string, originalOrderId: string, role: 'replacement' | 'cancel'): void {
    const original = this.orders.get(originalOrderId);
    if (original === undefined || this.orders.has(orderId)) return;
    this.held.delete(orderId);
    this.orders.set(orderId, linkedOrder(original, originalOrderId, role));
    if (role === 'replacement') {
      this.replacementOf.set(originalOrderId, orderId);
      this.replacedHeld.delete(originalOrderId);
      this.lostModifies.delete(originalOrderId);
    }
  }

  /**
   * Records orders seen before the stream started, without emitting events for their past.
   *
   * @param order - a report
   */
  baseline(order: OrderRecord): void {
    const tracked = this.orders.get(order.orderId);
    if (tracked !== undefined) {
      if (tracked.last === null) return;
      tracked.last = order;
      return;
    }
    this.orders.set(order.orderId, ownOrder(externalClientOrderId(order.orderId), order));
  }

  /**
   * Diffs a new report against the previous one and returns the events it implies
   * (`report-events.ts`).
   *
   * @param order - the latest report of an order (one older than the last taken in, see
   *   `isOlderReport`, is ignored: it emits nothing and is not kept)
   * @param replacementReport - a report of its replacement read with it (see {@link chainOf}), not
   *   taken in yet: `OrderModified` tells its price and quantity
   */
  observe(order: OrderRecord, replacementReport: OrderRecord | null = null): OrderEvent[] {
    let tracked = this.orders.get(order.orderId);
    if (tracked === undefined) {
      tracked = ownOrder(externalClientOrderId(order.orderId), null);
      this.orders.set(order.orderId, tracked);
    }
    const previous = tracked.last;
    tracked.failedReads = 0;
    tracked.skipPolls = 0;
    // an older report than the last (a smaller filled quantity, an ended order working): kept out
    if (previous !== null && isOlderReport(progressOf(previous), progressOf(order))) return [];
    tracked.last = order;
    rebaseChain(this.orders, this.replacementOf, order.orderId);
    const next = this.replacementOf.get(order.orderId);
    const replacement =
      next === undefined
        ? null
        : { orderId: next, last: this.orders.get(next)?.last ?? replacementReport ?? null };
    return reportEvents(tracked, previous, order, replacement, this.clock);
  }

  /**
   * Forgets orders that reached a final state (their events were emitted) at least `retainEndedMs`
   * ago, with their replacement links; a replaced order is kept while its replacement still works.
   * Until then a late report of an ended order (an OPEN list that lags, a detail read answered late)
   * is diffed against its last one, so it emits nothing and is never taken for a new order. A
   * cancel whose record was never read is forgotten with its original.
   *
   * @param nowMs - scheduler time (the same as {@link holdUnknown}'s)
   */
  prune(nowMs: number): void {
    this.lostModifies.expire(nowMs);
    pruneEnded(this.orders, this.replacementOf, nowMs, this.retainEndedMs);
  }
}

/**
 * Modifies whose answer was lost after the broker took them (the client read the order and found
 * it `PENDING_REPLACE` or `REPLACED`). The broker's records carry no link between an order and its
 * replacement, and only the lost answer named it: the replacement is the order placed since the
 * modify was sent, on the original's symbol and side, with the modify's order type, price and
 * quantity (a KR modify's `quantity`; a US one keeps the original's unfilled quantity). An order
 * is taken for it only when it is the one order of the lists that fits, and fits no other such
 * modify; until then, at most `holdMs`, the original's `REPLACED` report waits (see
 * {@link OrderTracker}).
 *
 * @module
 */
import type { OrderCommandNotice } from '../client/order-operations.js';
import { DEFAULT_SEND_SKEW_MS, isOutcomeOf, type PendingCommand } from '../orders/history-match.js';
import type { OrderRecord } from '../schemas/orders.js';

/** The client's notice of a modify whose answer was lost. */
export type UnansweredModify = Extract<OrderCommandNotice, { type: 'modify-unanswered' }>;

/** Clock difference tolerated between the client's send time and the broker's `orderedAt` (ms). */
export const LOST_MODIFY_SKEW_MS = DEFAULT_SEND_SKEW_MS;

/** A modify whose replacement is looked for, until `untilMs` (scheduler time). */
interface LostModify extends UnansweredModify {
  readonly untilMs: number;
  /** The modify as the order history's matching takes it. */
  readonly command: PendingCommand;
}

/**
 * Whether `candidate` has the terms of the replacement `lost` asked for: the rule the engine's
 * order manager finds a lost command's outcome by ({@link isOutcomeOf}).
 *
 * @param lost - the modify
 * @param candidate - an order of the OPEN list or a recent CLOSED page
 */
function fits(lost: LostModify, candidate: OrderRecord): boolean {
  return isOutcomeOf(lost.command, candidate, LOST_MODIFY_SKEW_MS);
}

/** The modifies of this client whose answer was lost, by original order id. */
export class LostModifies {
  private readonly lost = new Map<string, LostModify>();

  /** @param holdMs - how long (scheduler ms) a replacement is looked for */
  constructor(private readonly holdMs: number) {}

  /** How many are looked for. */
  get size(): number {
    return this.lost.size;
  }

  /**
   * Starts looking for the replacement of a modify whose answer was lost.
   *
   * @param notice - the client's notice (the original as read, the request, when it was sent)
   * @param nowMs - scheduler time
   */
  add(notice: UnansweredModify, nowMs: number): void {
    const { request } = notice;
    const command: PendingCommand = {
      kind: 'modify',
      sentAt: notice.sentAtMs,
      target: notice.order,
      content: {
        orderType: request.orderType,
        ...(request.price === undefined ? {} : { price: request.price.toString() }),
        ...(request.quantity === undefined ? {} : { quantity: request.quantity.toString() }),
      },
    };
    this.lost.set(notice.originalOrderId, { ...notice, untilMs: nowMs + this.holdMs, command });
  }

  /** Whether the replacement of an order is still looked for at `nowMs`. */
  awaited(orderId: string, nowMs: number): boolean {
    const lost = this.lost.get(orderId);
    return lost !== undefined && nowMs < lost.untilMs;
  }

  /** Whether `row` has the terms of a replacement still looked for at `nowMs`. */
  fits(row: OrderRecord | null, nowMs: number): boolean {
    if (row === null) return false;
    for (const lost of this.lost.values()) if (nowMs < lost.untilMs && fits(lost, row)) return true;
    return false;
  }

  /** Stops looking for the replacement of an order (found, or the order shows no modify). */
  delete(orderId: string): void {
    this.lost.delete(orderId);
  }

  /** Stops looking once `holdMs` passed. */
  expire(nowMs: number): void {
    for (const [id, lost] of this.lost) if (nowMs >= lost.untilMs) this.lost.delete(id);
  }

  /**
   * The replacements found among `candidates` (orders not tracked yet), as `[replacement, original]`
   * ids: each the only candidate that fits its modify, and fitting no other.
   *
   * @param candidates - untracked orders of the OPEN list and the newest CLOSED page
   */
  found(candidates: readonly OrderRecord[]): Array<[string, string]> {
    const fitting = new Map<string, string[]>();
    const claims = new Map<string, number>();
    for (const [originalId, lost] of this.lost) {
      const ids = candidates.filter((c) => fits(lost, c)).map((c) => c.orderId);
      fitting.set(originalId, ids);
      for (const id of ids) claims.set(id, (claims.get(id) ?? 0) + 1);
    }
    const links: Array<[string, string]> = [];
    for (const [originalId, ids] of fitting) {
      const [only] = ids;
      if (ids.length === 1 && only !== undefined && claims.get(only) === 1) links.push([only, originalId]);
    }
    return links;
  }
}

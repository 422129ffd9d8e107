/**
 * Finding the outcome of a command whose answer was lost, in the order history. The broker's
 * records carry no `clientOrderId`, so a command is matched by content: the order it made has the
 * same symbol and side, the content that was asked for, and was placed after the command was sent.
 * Pure functions; the engine's order manager decides what to do with zero, one or several matches,
 * and `orderUpdates$` ties a modify whose answer was lost to its replacement by the same rule
 * (`streams/lost-modifies.ts`).
 *
 * @module
 */

import { Decimal } from '@hoga/core';
import type { OrderRecord } from '../schemas/orders.js';

/** What a create asked for (the request body as stored before sending). */
export interface CreateContent {
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly quantity?: string;
  readonly price?: string;
  readonly orderAmount?: string;
  readonly timeInForce?: 'DAY' | 'CLS';
  readonly clientOrderId?: string;
  readonly confirmHighValueOrder?: boolean;
}

/** What a modify asked for. */
export interface ModifyContent {
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly price?: string;
  readonly quantity?: string;
  readonly confirmHighValueOrder?: boolean;
}

/** A command whose outcome is looked for. */
export type PendingCommand =
  | { readonly kind: 'create'; readonly sentAt: number; readonly content: CreateContent }
  | {
      readonly kind: 'modify';
      readonly sentAt: number;
      readonly content: ModifyContent;
      /** The order that was modified, as the broker shows it now. */
      readonly target: OrderRecord;
    }
  | { readonly kind: 'cancel'; readonly sentAt: number; readonly target: OrderRecord };

/** Clock difference tolerated between our send time and the broker's `orderedAt` (ms). */
export const DEFAULT_SEND_SKEW_MS = 2_000;

function same(a: Decimal | null, b: string | Decimal | undefined): boolean {
  if (b === undefined) return a === null;
  return a?.equals(b) === true;
}

function remaining(target: OrderRecord): Decimal {
  return Decimal.max(0, target.quantity.minus(target.execution.filledQuantity));
}

/**
 * Whether `candidate` is the order `command` made (content only; the caller excludes orders
 * already linked to another command or order).
 *
 * @param command - the command and what it asked for
 * @param candidate - an order from the history
 * @param skewMs - tolerated clock difference
 */
export function isOutcomeOf(
  command: PendingCommand,
  candidate: OrderRecord,
  skewMs = DEFAULT_SEND_SKEW_MS,
): boolean {
  if (candidate.orderedAt.toMillis() < command.sentAt - skewMs) return false;
  switch (command.kind) {
    case 'create': {
      const c = command.content;
      if (candidate.symbol !== c.symbol || candidate.side !== c.side || candidate.orderType !== c.orderType)
        return false;
      if (c.orderAmount !== undefined) return same(candidate.orderAmount, c.orderAmount);
      if ((c.timeInForce ?? 'DAY') !== candidate.timeInForce) return false;
      return same(candidate.price, c.price) && same(candidate.quantity, c.quantity);
    }
    case 'modify': {
      const { target, content } = command;
      if (candidate.orderId === target.orderId) return false;
      if (candidate.symbol !== target.symbol || candidate.side !== target.side) return false;
      if (candidate.orderType !== content.orderType || !same(candidate.price, content.price)) return false;
      const quantity = content.quantity ?? remaining(target).toString();
      return candidate.quantity.equals(quantity);
    }
    case 'cancel': {
      const { target } = command;
      if (candidate.orderId === target.orderId || candidate.status !== 'CANCELED') return false;
      if (candidate.symbol !== target.symbol || candidate.side !== target.side) return false;
      if (!candidate.execution.filledQuantity.isZero()) return false;
      if (target.orderAmount !== null) return true;
      return candidate.quantity.equals(remaining(target)) && same(candidate.price, target.price ?? undefined);
    }
  }
}

/**
 * The orders in `candidates` that `command` may have made.
 *
 * @param command - the command
 * @param candidates - unlinked orders from the lists and recent closed pages
 * @param skewMs - tolerated clock difference
 */
export function outcomesOf(
  command: PendingCommand,
  candidates: Iterable<OrderRecord>,
  skewMs = DEFAULT_SEND_SKEW_MS,
): OrderRecord[] {
  const found: OrderRecord[] = [];
  for (const candidate of candidates) if (isOutcomeOf(command, candidate, skewMs)) found.push(candidate);
  return found;
}

/** Whether the target of a modify or cancel shows the command took effect. */
export function targetShowsApplied(kind: 'modify' | 'cancel', target: OrderRecord): boolean {
  return kind === 'modify' ? target.status === 'REPLACED' : target.status === 'CANCELED';
}

/** Whether the target of a modify or cancel is still processing it. */
export function targetShowsProcessing(kind: 'modify' | 'cancel', target: OrderRecord): boolean {
  return kind === 'modify' ? target.status === 'PENDING_REPLACE' : target.status === 'PENDING_CANCEL';
}

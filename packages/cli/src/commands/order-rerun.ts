/**
 * `hoga order buy|sell --client-order-id ID` when hoga's store already holds an order under `ID`: the
 * same command run again (after a timeout, a lost connection) reports the order placed the first
 * time and sends nothing; the id asked for another order is refused, naming what differs. The store
 * keeps one order per `clientOrderId`, and the broker replays or refuses a repeated key only within
 * 10 minutes: the store is asked first, whatever the time.
 *
 * @module
 */
import { type Decimal, isTerminalOrderState, type OrderIntent } from '@hoga/core';
import { type OrderManager, type RunLease, takeCommandLease } from '@hoga/engine';
import type { HogaDatabase, OrderRecord as StoredOrder } from '@hoga/store';
import { describeFill } from './order-fill.js';

/** The code of an id already used for another order (the broker's code for the same conflict). */
export const ID_CONFLICT = 'idempotency-key-conflict';

/** What an earlier run left under the id, and what this run does about it. */
export type EarlierOrder =
  /** Placed (the broker answered with its order): reported, nothing sent. */
  | { readonly kind: 'placed'; readonly order: StoredOrder }
  /** Not placed, and hoga cannot send it again under the same id: refused, nothing sent. */
  | {
      readonly kind: 'refused';
      readonly order: StoredOrder;
      readonly code: string;
      readonly message: string;
    };

function text(value: Decimal | null): string {
  return value === null ? 'none' : value.toFixed();
}

/**
 * What `hoga order` says of a create it sent whose answer it did not get: the command to run again.
 *
 * @param id - the order's clientOrderId
 */
export function unansweredText(id: string): string {
  return `sent: ${id}, but the broker's answer did not arrive: whether it was placed is not known yet; run the same command again with --client-order-id ${id} to find out (it is not placed twice)`;
}

/**
 * What `hoga order` says of a create it sent whose rows the store refused (a full disk): what the
 * broker did, why the store refused, and the command that records it once the store takes writes.
 *
 * @param id - the order's clientOrderId
 * @param unstored - the store's reason, and the broker's order id when its answer came
 */
export function unstoredText(id: string, unstored: { reason: string; brokerOrderId: string | null }): string {
  const placed =
    unstored.brokerOrderId === null
      ? `sent: ${id}, but whether it was placed is not known yet`
      : `placed: ${id} (broker order ${unstored.brokerOrderId})`;
  return `${placed}; the store could not record it (${unstored.reason}): once the store takes writes again, run the same command with --client-order-id ${id} to record it (it is not placed twice)`;
}

/** The fields of the order the broker compares, as `name stored (asked …)` where they differ. */
export function differences(intent: OrderIntent, stored: StoredOrder): string[] {
  const out: string[] = [];
  const plain = (name: string, was: string, now: string) => {
    if (was !== now) out.push(`${name} ${was} (asked ${now})`);
  };
  const decimal = (name: string, was: Decimal | null, now: Decimal | null) => {
    if (was === null ? now !== null : now === null || !was.eq(now))
      out.push(`${name} ${text(was)} (asked ${text(now)})`);
  };
  const amount = intent.sizing === 'AMOUNT' ? intent.amount : null;
  plain('symbol', stored.symbol, intent.instrument.symbol);
  plain('side', stored.side, intent.side);
  plain('type', stored.orderType, intent.orderType);
  decimal('quantity', stored.quantity, intent.sizing === 'AMOUNT' ? null : intent.quantity);
  decimal('amount', stored.amount, amount);
  decimal('price', stored.price, intent.orderType === 'LIMIT' ? intent.price : null);
  if (intent.sizing !== 'AMOUNT' && stored.amount === null)
    plain('time in force', stored.timeInForce, intent.timeInForce);
  return out;
}

/**
 * What to do with a buy or sell whose `clientOrderId` the store holds already (`stored`):
 * `placed` when it is the same order and the broker has it; else a refusal saying why.
 *
 * @param intent - the order asked for
 * @param stored - the store's order under the same id
 */
export function judgeEarlier(intent: OrderIntent, stored: StoredOrder): EarlierOrder {
  const id = stored.clientOrderId;
  const differ = differences(intent, stored);
  if (differ.length > 0) {
    return {
      kind: 'refused',
      order: stored,
      code: ID_CONFLICT,
      message: `clientOrderId ${id} already names another order in hoga's store: ${differ.join(', ')}; give another --client-order-id, or none for a new one`,
    };
  }
  if (stored.brokerOrderId !== null) return { kind: 'placed', order: stored };
  if (stored.state === 'REJECTED' || stored.state === 'DENIED') {
    return {
      kind: 'refused',
      order: stored,
      code: 'client-order-id-used',
      message: `order ${id} was refused by the broker${stored.rejectReason === null ? '' : ` (${stored.rejectReason})`}, and hoga keeps one order per clientOrderId: to place it now, give another --client-order-id, or none for a new one`,
    };
  }
  return {
    kind: 'refused',
    order: stored,
    code: isTerminalOrderState(stored.state) ? 'client-order-id-used' : 'outcome-unknown',
    message: `order ${id} was sent by an earlier hoga, and the broker's answer is not known (looked for under its clientOrderId: not found yet); it is not sent again: hoga run on this store goes on looking for it (hoga db orders shows it), or look for it in the broker's order list`,
  };
}

/**
 * The earlier send of the order has no stored answer (the `hoga order` that sent it was killed, or
 * lost the answer): unless a living `hoga order` still sends it, its create is settled now under
 * the command's lease, as a poll would ({@link OrderManager.settleCreate}: re-sent under the same
 * key inside the broker's 10-minute window, which answers with the order placed the first time).
 * Returns the refusal when another process is sending it, else null (the store tells the rest).
 */
async function settleUnanswered(
  stored: StoredOrder,
  manager: OrderManager,
  db: HogaDatabase,
  nowMs: number,
): Promise<EarlierOrder | null> {
  const id = stored.clientOrderId;
  const create = manager.store.commandsOf(id).find((c) => c.kind === 'create');
  if (create === undefined) return null;
  let lease: RunLease;
  try {
    lease = takeCommandLease(db, create.commandId, nowMs);
  } catch {
    return {
      kind: 'refused',
      order: stored,
      code: 'request-in-progress',
      message: `order ${id} is being sent by another hoga order now; it is not sent again: run the command again once that one has ended`,
    };
  }
  try {
    await manager.settleCreate(id);
  } finally {
    lease.release();
  }
  return null;
}

/**
 * What to do with a buy or sell whose `clientOrderId` the store holds already: {@link judgeEarlier},
 * after settling an earlier send that has no stored answer ({@link settleUnanswered}).
 *
 * @param intent - the order asked for
 * @param stored - the store's order under the same id
 * @param manager - the order manager on the store
 * @param db - the store
 * @param nowMs - engine time now
 */
export async function answerEarlier(
  intent: OrderIntent,
  stored: StoredOrder,
  manager: OrderManager,
  db: HogaDatabase,
  nowMs: number,
): Promise<EarlierOrder> {
  const first = judgeEarlier(intent, stored);
  if (first.kind === 'placed' || first.code !== 'outcome-unknown') return first;
  const busy = await settleUnanswered(stored, manager, db, nowMs);
  return busy ?? judgeEarlier(intent, db.orders.get(stored.clientOrderId) ?? stored);
}

/**
 * Prints what {@link judgeEarlier} decided and sets the exit code: a placed order brought up to date
 * with the broker (state, fills), exit 0; a refusal, exit 1. Nothing is sent.
 *
 * @param earlier - the decision
 * @param manager - the order manager on the store (reads the broker's record of the order)
 * @param db - the store
 * @param json - print JSON
 */
export async function reportEarlier(
  earlier: EarlierOrder,
  manager: OrderManager,
  db: HogaDatabase,
  json: boolean,
): Promise<void> {
  const id = earlier.order.clientOrderId;
  if (earlier.kind === 'refused') {
    const out = {
      sent: false,
      outcome: 'not-sent',
      clientOrderId: id,
      brokerOrderId: earlier.order.brokerOrderId,
      state: earlier.order.state,
      code: earlier.code,
      message: earlier.message,
    };
    console.log(json ? JSON.stringify(out) : `not sent: ${earlier.code}: ${earlier.message}`);
    process.exitCode = 1;
    return;
  }
  // the order as the broker has it now (it may have filled since the first run)
  await manager.refreshOrder(id);
  const order = db.orders.get(id) ?? earlier.order;
  const out = {
    sent: false,
    outcome: 'already-placed',
    clientOrderId: id,
    brokerOrderId: order.brokerOrderId,
    events: [],
    state: order.state,
    filledQuantity: order.filledQuantity.toFixed(),
    averageFillPrice: order.averageFillPrice?.toFixed() ?? null,
  };
  console.log(
    json
      ? JSON.stringify(out)
      : `already placed: ${id} (broker order ${order.brokerOrderId}): ${order.state}${describeFill(order)}; placed by an earlier run, nothing sent now`,
  );
  process.exitCode = 0;
}

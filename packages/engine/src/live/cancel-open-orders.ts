/**
 * A stopping live or paper run's cancels of its strategies' open orders (`--cancel-on-stop`, see
 * `LiveRunHandle.cancelOpenOrders`): live, the store's open orders of the run's strategies (not
 * external ones, not manual ones, not those of another live run on the store); paper, the paper
 * venue's working orders of the run's strategies. Each cancel takes the way of a strategy's own `ctx.cancel`: through the
 * risk module (the broker's rules: a cancel outside order hours, or of a US order at the close in
 * its last 10 minutes, is refused as the broker refuses it, in paper as in live) to the venue.
 *
 * @module
 */
import { type ClientOrderId, isOpenOrderState, type OrderState } from '@hoga/core';
import type { EngineRuntime } from '../runtime/engine-runtime.js';
import type { ModeVenue } from './mode-venue.js';
import type { LiveRunOptions } from './run-live.js';

/** Store states of an order that may still be working at the broker. */
const OPEN_STATES: ReadonlySet<OrderState> = new Set<OrderState>([
  'SUBMITTED',
  'ACCEPTED',
  'PARTIALLY_FILLED',
]);

/** What the cancels on stop achieved. */
export interface CancelOnStopResult {
  /** The open orders of the run's strategies found at the stop. */
  readonly open: number;
  /** Those that ended cancelled. */
  readonly canceled: number;
  /**
   * Those still working once the cancels were answered (a cancel refused, e.g.
   * `cancel-restricted` or `order-hours-closed`), by client order id; each refusal reached its
   * strategy as `OrderCancelRejected`.
   */
  readonly stillOpen: readonly string[];
  /**
   * Paper: those the paper venue cancelled whose cancel the store has not taken (it refuses writes):
   * the store still holds them working, so the next paper run works them again. By client order id.
   */
  readonly unstored: readonly string[];
}

/**
 * Cancels each open order of the run's strategies through the runtime (risk gate, then venue),
 * waits for the answers, and says which ended cancelled and which still work.
 *
 * @param o - the run's store
 * @param mode - the venue of the run's mode
 * @param runtime - the run's runtime
 */
export async function cancelOpenOrders(
  o: Pick<LiveRunOptions, 'db'>,
  mode: ModeVenue,
  runtime: EngineRuntime,
): Promise<CancelOnStopResult> {
  const { manager, paperAccount } = mode;
  const open: { clientOrderId: string; strategyId: string }[] = [];
  const running = new Set<string>(runtime.hosts.map((h) => h.strategyId));
  if (manager !== null) {
    // the open ones, looked for in the store (before, among its first 1,000 live orders only: on a
    // store of more, the newest, every working one among them, were never cancelled)
    for (const order of o.db.orders.list({ mode: 'live', state: [...OPEN_STATES] })) {
      if (order.clientOrderId.startsWith('ext-') || order.strategyId === null) continue;
      if (!OPEN_STATES.has(order.state) || !running.has(order.strategyId)) continue;
      open.push({ clientOrderId: order.clientOrderId, strategyId: order.strategyId });
    }
  } else if (paperAccount !== null) {
    // those of the run's strategies (an earlier run's order of a strategy not in this one keeps
    // working, as the run said at its start; before, it was counted here and said "cancel refused")
    open.push(...paperAccount.openOrders().filter((order) => running.has(order.strategyId)));
  }
  const hostOf = (strategyId: string) => runtime.hosts.find((h) => h.strategyId === strategyId);
  for (const { clientOrderId, strategyId } of open) {
    hostOf(strategyId)?.cancel(clientOrderId as ClientOrderId);
  }
  // the gate's verdicts; live, the broker's answers, then a poll that sees the orders cancelled
  // (an acknowledged cancel ends its order once the order history shows it); their events routed
  await runtime.settle();
  if (manager !== null) {
    await manager.idle();
    // a failed poll (the broker gone) leaves the orders as the store has them: still working
    await manager.pollOnce().catch(() => undefined);
  }
  await runtime.settle();
  let canceled = 0;
  const stillOpen: string[] = [];
  const unstored: string[] = [];
  // paper: the venue's working orders (its events reach the strategies only once stored)
  const working =
    paperAccount === null ? null : new Set<string>(paperAccount.openOrders().map((o) => o.clientOrderId));
  for (const { clientOrderId, strategyId } of open) {
    const state = hostOf(strategyId)?.order(clientOrderId as ClientOrderId)?.state;
    if (state === 'CANCELED') canceled++;
    else if (state === undefined || isOpenOrderState(state)) {
      if (working === null || working.has(clientOrderId)) stillOpen.push(clientOrderId);
      else unstored.push(clientOrderId);
    }
  }
  return { open: open.length, canceled, stillOpen, unstored };
}

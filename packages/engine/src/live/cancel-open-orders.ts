/**
 * A stopping live or paper run's cancels of its strategies' open orders (`--cancel-on-stop`, see
 * `LiveRunHandle.cancelOpenOrders`): live, the store's open orders of the run's strategies (not
 * external ones, not manual ones, not those of another live run on the store) through the order
 * manager; paper, the paper venue's working orders.
 *
 * @module
 */
import type { ClientOrderId, StrategyId } from '@hoga/core';
import type { EngineRuntime } from '../runtime/engine-runtime.js';
import type { ModeVenue } from './mode-venue.js';
import type { LiveRunOptions } from './run-live.js';

/** Store states of an order that may still be working at the broker. */
const OPEN_STATES = new Set(['SUBMITTED', 'ACCEPTED', 'PARTIALLY_FILLED']);

/**
 * Hands the venue a cancel of each open order of the run's strategies, then lets the runtime
 * settle.
 *
 * @param o - the run's store and clock
 * @param mode - the venue of the run's mode
 * @param runtime - the run's runtime
 * @returns how many cancels were handed over
 */
export async function cancelOpenOrders(
  o: Pick<LiveRunOptions, 'db' | 'clock'>,
  mode: ModeVenue,
  runtime: EngineRuntime,
): Promise<number> {
  const { manager, paperAccount, venue } = mode;
  const open: { clientOrderId: string; strategyId: string }[] = [];
  if (manager !== null) {
    const running = new Set<string>(runtime.hosts.map((h) => h.strategyId));
    for (const order of o.db.orders.list({ mode: 'live' })) {
      if (order.clientOrderId.startsWith('ext-') || order.strategyId === null) continue;
      if (!OPEN_STATES.has(order.state) || !running.has(order.strategyId)) continue;
      open.push({ clientOrderId: order.clientOrderId, strategyId: order.strategyId });
    }
  } else if (paperAccount !== null) {
    open.push(...paperAccount.openOrders());
  }
  for (const { clientOrderId, strategyId } of open) {
    await venue.execute({
      type: 'CancelOrder',
      commandId: `stop-${clientOrderId}`,
      strategyId: strategyId as StrategyId,
      tsInit: o.clock.nowMs(),
      clientOrderId: clientOrderId as ClientOrderId,
    });
  }
  await runtime.settle();
  return open.length;
}

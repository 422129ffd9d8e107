/**
 * One logical order brought up to date on demand, outside the polls: what `hoga order` (which does
 * not poll) does when it is run on an order, its broker orders read and counted, or its unsettled
 * create settled as a poll would settle it.
 *
 * @module
 */

import { NotFoundError } from '@hoga/connector';
import type { CommandResolver } from './command-resolver.js';
import type { OrderManager } from './order-manager.js';
import { POLL } from './order-manager-options.js';
import { CommandStatus } from './order-manager-store.js';
import type { OrderReports } from './order-reports.js';

/** See the module description. */
export class OrderRefresh {
  /**
   * @param m - the order manager (store, gateway, clock, ownership, report counting)
   * @param reports - counts reports and ends logical orders
   * @param resolver - settles commands whose answer was lost
   * @param sendingHere - ids of the commands the manager is sending now (their first send not settled)
   */
  constructor(
    private readonly m: OrderManager,
    private readonly reports: OrderReports,
    private readonly resolver: CommandResolver,
    private readonly sendingHere: ReadonlySet<string>,
  ) {}

  /** See {@link OrderManager.refreshOrder}. */
  async refreshOrder(clientOrderId: string): Promise<boolean> {
    const m = this.m;
    const executions = m.store.reload(clientOrderId);
    if (executions.length === 0 || m.currentExecution(clientOrderId) === null) return false;
    let known = true;
    for (const execution of executions) {
      if (execution.closed) continue;
      try {
        known = m.applyRecord(await m.gateway.getOrder(execution.brokerOrderId, POLL)) && known;
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        known = false;
      }
    }
    if (!m.ownership.leaves(clientOrderId, m.ownership.others())) this.reports.settleLogical(clientOrderId);
    return known;
  }

  /** See {@link OrderManager.settleCreate}. */
  async settleCreate(clientOrderId: string): Promise<boolean> {
    const m = this.m;
    const others = m.ownership.others();
    const create = m.store
      .commandsOf(clientOrderId)
      .find((c) => c.kind === 'create' && !this.sendingHere.has(c.commandId));
    if (create === undefined || (create.strategyId !== null && others.has(create.strategyId))) return false;
    if (create.status === CommandStatus.SENDING) {
      // its process is gone (the caller holds its lease): interrupted, as a poll finds it
      if (!m.store.interruptIfSending(create.commandId, m.clock.nowMs())) return false;
    } else if (create.status !== CommandStatus.AMBIGUOUS) return false;
    const current = m.store.command(create.commandId);
    if (current === null) return false;
    await this.resolver.resolve(current);
    return true;
  }
}

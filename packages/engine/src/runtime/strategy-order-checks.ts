/**
 * The runtime's own checks of a strategy's order commands, before the risk gate: no order during
 * warm-up (`warm-up`), no order of a shape the broker refuses (`invalid-request`: a fractional buy,
 * a quantity of 0), no modify or cancel of an order it does not have (`order-not-found`) or of one
 * already closed (the broker's code of its end: `already-filled`, `already-canceled`,
 * `already-rejected`; `order-closed` for a denied one), a buy
 * within the strategy's own cash when several strategies share the run's (`risk-strategy-cash`,
 * see strategy-budget.ts), and a sell within its own shares (`risk-strategy-shares`, see
 * strategy-shares.ts). A command refused here is denied to the strategy at once and never sent.
 *
 * @module
 */
import { type BrokerRefusal, isTerminalOrderState, type OrderState } from '@hoga/core';
import type { CancelOrder, ModifyOrder, SubmitOrder } from '../commands/order-commands.js';
import type { Portfolio } from '../portfolio/portfolio.js';
import type { AccountView, OrderView } from '../strategy/strategy-context.js';
import { closedOrderCode } from '../venue/venue-events.js';
import type { CommandPath } from './command-path.js';
import { type LastPriceLookup, type PriceLimitsLookup, StrategyBudgets } from './strategy-budget.js';
import type { StrategyHost } from './strategy-host.js';
import { StrategyShares } from './strategy-shares.js';

/** See the module description. */
export class StrategyOrderChecks {
  private readonly budgets: StrategyBudgets;
  private readonly shares: StrategyShares;

  /**
   * @param path - where a refusal is denied
   * @param hosts - the run's strategies
   * @param limits - the KR price limits a market buy is held at (see strategy-budget.ts)
   * @param brokerLast - last prices read from the broker, for a symbol the portfolio has none of
   */
  constructor(
    private readonly path: CommandPath,
    private readonly hosts: readonly StrategyHost[],
    portfolio: Portfolio,
    account: () => AccountView,
    limits?: PriceLimitsLookup,
    brokerLast?: LastPriceLookup,
  ) {
    this.budgets = new StrategyBudgets(portfolio, limits, brokerLast);
    this.shares = new StrategyShares(hosts, account);
  }

  /**
   * Whether a new order is refused (and denied): during warm-up, of a shape the broker refuses
   * (`shape`: core's `judgeOrderIntent`, denied with the broker's code), past the strategy's cash,
   * past its shares unless it asked for the account's (`fromAccount`).
   */
  refusesSubmit(
    command: SubmitOrder,
    host: StrategyHost,
    fromAccount: boolean,
    shape: BrokerRefusal | null,
  ): boolean {
    if (host.isWarmingUp) {
      this.deny(command, host, 'warm-up', 'orders are not placed during warm-up');
      return true;
    }
    if (shape !== null) {
      this.deny(command, host, shape.code, shape.message);
      return true;
    }
    // several strategies share the run's cash: a buy must fit in its strategy's own, a sell in its shares
    return this.overBudget(command, host) || this.overShares(command, host, fromAccount);
  }

  /**
   * Whether a modify is refused (and denied): of an order the strategy does not have, of a closed
   * order, raising a buy past the cash or a sell past the shares.
   */
  refusesModify(command: ModifyOrder, host: StrategyHost, order: OrderView | undefined): boolean {
    return (
      this.refusedAsUnknown(command, host) ||
      this.refusedAsClosed(command, order?.state, 'modified') ||
      this.overBudget(command, host, order) ||
      this.overShares(command, host, false, order)
    );
  }

  /** Whether a cancel is refused (and denied): of an order the strategy does not have, of a closed order. */
  refusesCancel(command: CancelOrder, host: StrategyHost): boolean {
    return (
      this.refusedAsUnknown(command, host) ||
      this.refusedAsClosed(command, host.order(command.clientOrderId)?.state, 'canceled')
    );
  }

  /**
   * Refuses a modify or cancel of an id the strategy does not have among its open orders and its
   * recent closed ones (code `order-not-found`, as the broker answers an unknown id): an order of
   * an earlier run that ended while the engine was down (an id kept in `ctx.state`), another
   * strategy's, or no order at all. Nothing is sent; the run goes on. True when refused.
   */
  private refusedAsUnknown(command: ModifyOrder | CancelOrder, host: StrategyHost): boolean {
    if (host.owns(command.clientOrderId)) return false;
    const reason =
      `order ${command.clientOrderId} is not an open or recent order of strategy ${host.strategyId} ` +
      '(an order of an earlier run that ended while the engine was down, or not its own)';
    this.path.deny(command, command.strategyId, command.clientOrderId, 'order-not-found', reason);
    return true;
  }

  /** Denies `risk-strategy-shares` a sell (or a modify raising one) past its strategy's shares. */
  private overShares(
    command: SubmitOrder | ModifyOrder,
    host: StrategyHost,
    fromAccount: boolean,
    order?: OrderView,
  ): boolean {
    const short = this.shares.shortfall(command, host, fromAccount, order);
    if (short === null) return false;
    this.deny(command, host, 'risk-strategy-shares', short);
    return true;
  }

  /** Denies `risk-strategy-cash` a create or modify of one of several strategies that its cash does not cover. */
  private overBudget(command: SubmitOrder | ModifyOrder, host: StrategyHost, order?: OrderView): boolean {
    if (this.hosts.length < 2) return false;
    const short = this.budgets.shortfall(command, host.openOrders(), order);
    if (short === null) return false;
    this.deny(command, host, 'risk-strategy-cash', short);
    return true;
  }

  /**
   * Refuses a modify or cancel of an order already closed (the strategy gets the rejection at once,
   * with the code the venue or the broker gives the same request, {@link closedOrderCode}; nothing
   * is sent, as the broker would refuse it): true when refused.
   */
  private refusedAsClosed(
    command: ModifyOrder | CancelOrder,
    state: OrderState | undefined,
    verb: 'modified' | 'canceled',
  ): boolean {
    if (state === undefined || !isTerminalOrderState(state)) return false;
    const reason = `order ${command.clientOrderId} is ${state}: it can no longer be ${verb}`;
    this.path.deny(command, command.strategyId, command.clientOrderId, closedOrderCode(state), reason);
    return true;
  }

  /** Denies a command of `host`; a new order denied no longer counts as open for the next ones. */
  private deny(command: SubmitOrder | ModifyOrder, host: StrategyHost, code: string, reason: string): void {
    const id = command.type === 'SubmitOrder' ? command.intent.clientOrderId : command.clientOrderId;
    this.path.deny(command, command.strategyId, id, code, reason);
    if (command.type === 'SubmitOrder') host.deniedNow(id);
  }
}

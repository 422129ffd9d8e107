/**
 * The order events of the live order manager, and the store states that go with them. One logical
 * order (one `clientOrderId`) gets one event stream whatever broker ids it went through.
 *
 * @module
 */

import { averageFillPrice, usRegularSessionAt } from '@hoga/broker-model';
import type { ModifyContent } from '@hoga/connector';
import { endedAtDayEnd, type OrderRecord } from '@hoga/connector';
import {
  type BrokerOrderId,
  type ClientOrderId,
  type Clock,
  type Currency,
  Decimal,
  type Fill,
  isTerminalOrderState,
  Money,
  newEventId,
  type OrderEvent,
  type OrderIntent,
  type StrategyId,
} from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import type { ModifyOrder } from '../commands/order-commands.js';
import {
  CommandStatus,
  type CountedFill,
  NOT_FOUND_STATUS,
  type OrderManagerStore,
  type StoredExecution,
} from './order-manager-store.js';

/** Why a broker order that ended without a cancel of ours ended, by its last status. */
function canceledBy(status: string): string {
  if (status === 'REPLACED') return 'replaced-elsewhere';
  if (status === NOT_FOUND_STATUS) return 'not-found-at-broker';
  return 'broker';
}

/**
 * Whether a broker report shows a US order at the close (`CLS`) the broker ended at the close, its
 * limit missed by the closing price: `CANCELED` at or after the close of the regular session it was
 * placed in (a cancel asked for is refused in the last 10 minutes before it, `cancel-restricted`).
 */
export function endedAtClose(record: OrderRecord): boolean {
  if (record.status !== 'CANCELED' || record.timeInForce !== 'CLS' || record.canceledAt === null)
    return false;
  const regular = usRegularSessionAt(record.orderedAt.toMillis());
  return regular !== null && record.canceledAt.toMillis() >= regular.end;
}

/** Builds events; see the module description. */
export class OrderEventFactory {
  /**
   * @param store - the manager's tables
   * @param db - the store (logical orders)
   * @param clock - stamps `tsInit`
   */
  constructor(
    private readonly store: OrderManagerStore,
    private readonly db: HogaDatabase,
    private readonly clock: Clock,
  ) {}

  /** Strategy of each logical order (it never changes). */
  private readonly strategies = new Map<string, string | null>();

  /** The strategy of a logical order (null: none, or no such order), read once and kept. */
  strategyOf(clientOrderId: string): string | null {
    let known = this.strategies.get(clientOrderId);
    if (known === undefined) {
      const order = this.db.orders.get(clientOrderId);
      if (order === null) return null;
      known = order.strategyId;
      this.remember(clientOrderId, known);
    }
    return known;
  }

  private remember(clientOrderId: string, strategy: string | null): void {
    if (this.strategies.size > 10_000) this.strategies.clear();
    this.strategies.set(clientOrderId, strategy);
  }

  private base(clientOrderId: string, tsEvent?: number) {
    const now = this.clock.nowMs();
    const strategy = this.strategyOf(clientOrderId);
    return {
      eventId: newEventId(),
      clientOrderId: clientOrderId as ClientOrderId,
      ...(strategy === null ? {} : { strategyId: strategy as StrategyId }),
      tsEvent: tsEvent ?? now,
      tsInit: now,
    };
  }

  /** The logical order's current broker id. */
  currentBrokerOrderId(clientOrderId: string): string | null {
    return this.store.orderHead(clientOrderId)?.brokerOrderId ?? null;
  }

  submitted(intent: OrderIntent, at: number): OrderEvent {
    // The intent names its strategy: its later events need not read the order row for it.
    this.remember(intent.clientOrderId, intent.strategyId ?? null);
    return { ...this.base(intent.clientOrderId, at), type: 'OrderSubmitted', intent };
  }

  accepted(clientOrderId: string, brokerOrderId: string): OrderEvent {
    return {
      ...this.base(clientOrderId),
      type: 'OrderAccepted',
      brokerOrderId: brokerOrderId as BrokerOrderId,
    };
  }

  rejected(clientOrderId: string, code: string, reason: string): OrderEvent {
    return { ...this.base(clientOrderId), type: 'OrderRejected', code, reason };
  }

  denied(clientOrderId: string, strategyId: string, code: string, reason: string): OrderEvent {
    return {
      ...this.base(clientOrderId),
      strategyId: strategyId as StrategyId,
      type: 'OrderDenied',
      code,
      reason,
    };
  }

  modifyRequested(clientOrderId: string, brokerOrderId: string, command: ModifyOrder): OrderEvent {
    return {
      ...this.base(clientOrderId),
      type: 'OrderModifyRequested',
      brokerOrderId: brokerOrderId as BrokerOrderId,
      ...(command.price === undefined ? {} : { price: command.price }),
      ...(command.quantity === undefined ? {} : { quantity: command.quantity }),
    };
  }

  /**
   * @param content - the modify as sent (its KR `quantity` is the new broker order's)
   * @param filledBefore - what the logical order's earlier broker orders filled: the event's
   *   `quantity` is the logical order's new total, this plus the sent quantity
   */
  modified(
    clientOrderId: string,
    brokerOrderId: string,
    previous: string | null,
    content: ModifyContent,
    filledBefore: Decimal,
  ): OrderEvent {
    return {
      ...this.base(clientOrderId),
      type: 'OrderModified',
      brokerOrderId: brokerOrderId as BrokerOrderId,
      ...(previous === null ? {} : { previousBrokerOrderId: previous as BrokerOrderId }),
      ...(content.price === undefined ? {} : { price: new Decimal(content.price) }),
      ...(content.quantity === undefined ? {} : { quantity: filledBefore.plus(content.quantity) }),
    };
  }

  /** A modify refused: by the broker (`sent`), or by the engine before it was sent. */
  modifyRejected(clientOrderId: string, code: string, reason: string, sent: boolean): OrderEvent {
    return { ...this.base(clientOrderId), type: 'OrderModifyRejected', code, reason, sent };
  }

  cancelRequested(clientOrderId: string, brokerOrderId: string): OrderEvent {
    return {
      ...this.base(clientOrderId),
      type: 'OrderCancelRequested',
      brokerOrderId: brokerOrderId as BrokerOrderId,
    };
  }

  /** A cancel refused: by the broker (`sent`), or by the engine before it was sent. */
  cancelRejected(clientOrderId: string, code: string, reason: string, sent: boolean): OrderEvent {
    return { ...this.base(clientOrderId), type: 'OrderCancelRejected', code, reason, sent };
  }

  /** An order's fills so far, over all its broker orders: quantity, and average price as the broker rounds it. */
  private totals(clientOrderId: string, currency: Currency): { quantity: Decimal; average: Decimal | null } {
    let quantity = new Decimal(0);
    let amount = new Decimal(0);
    for (const e of this.store.executionsOf(clientOrderId)) {
      quantity = quantity.plus(e.filledQuantity);
      amount = amount.plus(e.filledAmount);
    }
    return { quantity, average: averageFillPrice(currency, amount, quantity) };
  }

  /**
   * The event of a counted fill: `OrderFilled` when it completes the logical order (its current
   * broker order reports `FILLED`), else `OrderPartiallyFilled`. A modify or cancel of it still
   * unanswered does not hold the end back: the broker refuses a change of a filled order
   * (`already-filled`), and a modify it took would have left that order `REPLACED`, not `FILLED`.
   * Before, such a fill was told as `OrderPartiallyFilled` and nothing followed the change's
   * refusal: the store held the order FILLED, the strategy saw it PARTIALLY_FILLED, open, for good.
   */
  fill(counted: CountedFill, owned: StoredExecution, record: OrderRecord, filledAt: number): OrderEvent {
    const order = counted.order;
    const currency = order?.currency ?? (record.currency === 'USD' ? 'USD' : 'KRW');
    const fill: Fill = {
      fillId: `${owned.brokerOrderId}:${counted.delta.after.filledQuantity.toString()}`,
      clientOrderId: owned.clientOrderId as ClientOrderId,
      brokerOrderId: owned.brokerOrderId as BrokerOrderId,
      symbol: owned.symbol,
      side: owned.side,
      quantity: counted.delta.quantity,
      price: counted.delta.price,
      commission: Money.of(counted.delta.commission, currency),
      tax: Money.of(counted.delta.tax, currency),
      cumulativeQuantity: counted.logicalCumulative,
      tsEvent: filledAt,
    };
    const completes = record.status === 'FILLED' && order?.brokerOrderId === owned.brokerOrderId;
    const quantity = counted.logicalCumulative;
    const average = averageFillPrice(currency, counted.logicalAmount, quantity);
    const now = this.clock.nowMs();
    if (order !== null && !isTerminalOrderState(order.state)) {
      const state = completes
        ? 'FILLED'
        : order.state === 'PENDING_MODIFY' || order.state === 'PENDING_CANCEL'
          ? order.state
          : 'PARTIALLY_FILLED';
      this.store.setOrderState(owned.clientOrderId, state, now, quantity, average, order.state);
    }
    return {
      ...this.base(owned.clientOrderId, filledAt),
      type: completes ? 'OrderFilled' : 'OrderPartiallyFilled',
      fill,
    };
  }

  /**
   * The end of a logical order, once every broker order of it is closed and no command of it is
   * unsettled (null while it is still working, or when it already ended). Judged on what the file
   * holds, not on what this process kept: another process on the same store may have linked or
   * closed its broker orders (before, an engine that kept a replaced broker order as open left the
   * order `PENDING_CANCEL` for ever once the cancel of another process closed the rest). A DAY order
   * the broker ended at the end of its trading day, no cancel of ours asked for, ends `EXPIRED`
   * with `OrderExpired` stamped with the broker's time, as paper and backtest end it (before, live
   * said `OrderCanceled`, reason `broker`, and paper `OrderExpired` for the same order); a CLS order
   * it ended at the close is `OrderCanceled` with reason `close`, as paper's (before: `broker`). A
   * cancel is stamped with the broker's `canceledAt` when the closing report is at hand.
   *
   * @param record - the report that closed one of its broker orders, when there is one
   */
  settle(clientOrderId: string, record?: OrderRecord): OrderEvent | null {
    const executions = this.store.reload(clientOrderId);
    if (executions.length === 0 || executions.some((e) => !e.closed)) return null;
    const order = this.db.orders.get(clientOrderId);
    if (order === null || isTerminalOrderState(order.state)) return null;
    const commands = this.store.commandsOf(clientOrderId);
    if (commands.some((c) => c.status === CommandStatus.SENDING || c.status === CommandStatus.AMBIGUOUS))
      return null;
    const current = order.brokerOrderId === null ? null : this.store.execution(order.brokerOrderId);
    if (current === null) return null;
    const now = this.clock.nowMs();
    const { quantity, average } = this.totals(clientOrderId, order.currency);
    if (current.status === 'FILLED') {
      this.store.setOrderState(clientOrderId, 'FILLED', now, quantity, average);
      return null;
    }
    if (current.status === 'REJECTED') {
      this.store.setOrderState(clientOrderId, 'REJECTED', now, quantity, average);
      return this.rejected(clientOrderId, 'broker-rejected', 'the broker rejected the order');
    }
    const byUs = commands.some((c) => c.kind === 'cancel' && c.status === CommandStatus.DONE);
    // the report that closed the current broker order, when this settle follows it: its time and how it ended
    const closing = record?.orderId === current.brokerOrderId ? record : undefined;
    const at = closing?.canceledAt?.toMillis();
    if (!byUs && closing !== undefined && endedAtDayEnd(closing)) {
      this.store.setOrderState(clientOrderId, 'EXPIRED', now, quantity, average);
      return { ...this.base(clientOrderId, at), type: 'OrderExpired' };
    }
    this.store.setOrderState(clientOrderId, 'CANCELED', now, quantity, average);
    return {
      ...this.base(clientOrderId, at),
      type: 'OrderCanceled',
      brokerOrderId: current.brokerOrderId as BrokerOrderId,
      reason: byUs
        ? 'user'
        : closing !== undefined && endedAtClose(closing)
          ? 'close'
          : canceledBy(current.status),
    };
  }
}

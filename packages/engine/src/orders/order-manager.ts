/**
 * The live order manager: the engine owns order identity and fill accounting, persisted in the
 * store. Every command is written with its full content before it is sent; a logical order keeps
 * its `clientOrderId` across the new broker ids that modifies and cancels produce; fills are the
 * changes of each broker order's cumulative execution, counted once per broker order whatever
 * repeats (polls, restarts, re-subscriptions). Outcomes the broker did not answer are settled by a
 * keyed re-send (creates inside their 10-minute window) or found in the order history; what cannot
 * be matched with certainty is reported as unknown and never re-sent.
 *
 * The broker offers no push channel: {@link OrderManager.pollOnce} reads the open orders, the newest
 * closed pages since the last poll and the detail of owned orders missing from both, within a
 * per-poll request budget (the `ORDER_HISTORY` group is shared with the strategy's reads).
 *
 * @module
 */

import type { OrderRecord } from '@hoga/connector';
import type { Clock, OrderEvent } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import { type Observable, Subject } from 'rxjs';
import type { CancelOrder, ModifyOrder, OrderCommand, SubmitOrder } from '../commands/order-commands.js';
import { CommandResolver } from './command-resolver.js';
import type { CreateContent, ModifyContent } from './history-match.js';
import { DEFAULT_SEND_SKEW_MS } from './history-match.js';
import { OrderEventFactory } from './order-event-factory.js';
import { ambiguous, codeOf, type OrderManagerOptions } from './order-manager-options.js';
import {
  CommandStatus,
  OrderManagerStore,
  type StoredCommand,
  type StoredExecution,
} from './order-manager-store.js';
import { OrderPoller } from './order-poll.js';
import { OrderReports } from './order-reports.js';
import {
  createContent,
  createRequest,
  createRequestOf,
  modifyContent,
  modifyRequest,
  newOrderOf,
  type OrderGateway,
  type OrderManagerAlert,
} from './order-requests.js';
import type { ReconcileReport } from './reconciliation.js';
import { comparePositions, reconcileWithBroker } from './reconciliation.js';

export { type OrderManagerOptions, POLL } from './order-manager-options.js';
export type { ReconcileReport } from './reconciliation.js';

/** See the module description. */
export class OrderManager {
  readonly store: OrderManagerStore;
  private readonly events = new Subject<OrderEvent>();
  private readonly alerts = new Subject<OrderManagerAlert>();
  private readonly factory: OrderEventFactory;
  private readonly reports: OrderReports;
  private readonly resolver: CommandResolver;
  private readonly poller: OrderPoller;
  private readonly pending = new Set<Promise<unknown>>();
  private polling: Promise<void> | null = null;
  /** Events held back while a batch of reports is being written. */
  private held: OrderEvent[] | null = null;
  readonly options: Required<OrderManagerOptions>;

  /** Every order event, own and adopted orders, in the order they happened. */
  readonly events$: Observable<OrderEvent> = this.events.asObservable();
  /** Unknown outcomes, position differences, adoptions. */
  readonly alerts$: Observable<OrderManagerAlert> = this.alerts.asObservable();

  /**
   * @param gateway - the broker calls (a `BrokerClient`)
   * @param db - the store
   * @param clock - the engine clock (follows the broker's)
   * @param options - tunables
   */
  constructor(
    readonly gateway: OrderGateway,
    db: HogaDatabase,
    readonly clock: Clock,
    options: OrderManagerOptions = {},
  ) {
    this.options = {
      clientOrderIdWindowMs: options.clientOrderIdWindowMs ?? 600_000,
      windowMarginMs: options.windowMarginMs ?? 30_000,
      unknownAfterMs: options.unknownAfterMs ?? 120_000,
      minChecks: options.minChecks ?? 5,
      maxClosedPages: options.maxClosedPages ?? 2,
      maxDetailReads: options.maxDetailReads ?? 3,
      skewMs: options.skewMs ?? DEFAULT_SEND_SKEW_MS,
      commandDurability: options.commandDurability ?? 'normal',
    };
    this.store = new OrderManagerStore(db, this.options.commandDurability);
    this.factory = new OrderEventFactory(this.store, db, clock);
    this.reports = new OrderReports(this.store, this.factory, clock, this.options.skewMs, this);
    this.resolver = new CommandResolver(this);
    this.poller = new OrderPoller(this, this.resolver);
  }

  /** Emits an order event. @internal */
  emit(event: OrderEvent | null): void {
    if (event === null) return;
    if (this.held !== null) this.held.push(event);
    else this.events.next(event);
  }

  /**
   * Counts many broker reports in one store transaction (see {@link OrderReports.applyRecords});
   * the events go out after the commit. Returns how many were counted.
   */
  applyRecords(records: Iterable<OrderRecord>, unresolved = this.store.unresolvedCommands()): number {
    return this.reports.applyRecords(records, unresolved, () => {
      const held: OrderEvent[] = [];
      this.held = held;
      return () => {
        this.held = null;
        for (const event of held) this.events.next(event);
      };
    });
  }

  /** Emits an alert. @internal */
  alert(alert: OrderManagerAlert): void {
    this.alerts.next(alert);
  }

  /** Hands a command to the manager; resolves once it is stored and its first send settled. */
  async execute(command: OrderCommand): Promise<void> {
    const work =
      command.type === 'SubmitOrder'
        ? this.submit(command)
        : command.type === 'ModifyOrder'
          ? this.modify(command)
          : this.cancel(command);
    this.pending.add(work);
    try {
      await work;
    } finally {
      this.pending.delete(work);
    }
  }

  /** Whether trading a symbol is barred (its position differs from the broker's holdings). */
  isBlocked(symbol: string): boolean {
    return this.store.blocked().has(symbol);
  }

  private async submit(command: SubmitOrder): Promise<void> {
    const intent = command.intent;
    const now = this.clock.nowMs();
    const symbol = intent.instrument.symbol;
    if (this.isBlocked(symbol)) {
      this.emit(
        this.factory.denied(
          intent.clientOrderId,
          command.strategyId,
          'symbol-blocked',
          `${symbol} is blocked`,
        ),
      );
      return;
    }
    const content = createContent(intent);
    const strategyId = intent.strategyId ?? null;
    // Written before it is sent: the command with its full body, one small commit.
    this.store.recordCreate(
      command.commandId,
      intent.clientOrderId,
      { symbol, side: intent.side, strategyId },
      JSON.stringify(content),
      now,
    );
    const stored: StoredCommand = {
      commandId: command.commandId,
      clientOrderId: intent.clientOrderId,
      kind: 'create',
      targetBrokerOrderId: null,
      symbol,
      side: intent.side,
      content: content as unknown as Record<string, unknown>,
      strategyId,
      status: CommandStatus.SENDING,
      resultBrokerOrderId: null,
      error: null,
      checks: 0,
      createdAt: now,
      sentAt: now,
    };
    // The request leaves first (built from the intent's own decimals, equal to the stored body);
    // then the logical order's row, and the strategy hears of it (OrderSubmitted) while it is on
    // its way.
    await this.sendCreate(stored, createRequestOf(intent), () => {
      this.store.recordIntent(newOrderOf(intent, now));
      this.emit(this.factory.submitted(intent, now));
    });
  }

  /** Sends (or re-sends, same key) a stored create. @internal */
  async sendCreate(
    stored: StoredCommand,
    request = createRequest(stored.content as unknown as CreateContent),
    sent?: () => void,
  ): Promise<void> {
    try {
      const answer = this.gateway.createOrder(request);
      sent?.();
      const result = await answer;
      this.onCreated(stored, result.orderId, null);
    } catch (error) {
      this.onCommandError(stored, error);
    }
  }

  /** A create's order is known: link it, settle the command, report it. @internal */
  onCreated(stored: StoredCommand, brokerOrderId: string, record: OrderRecord | null): void {
    const now = this.clock.nowMs();
    if (this.settled(stored.commandId)) return;
    if (this.store.execution(brokerOrderId) === null) {
      this.store.link(
        stored.clientOrderId,
        brokerOrderId,
        'create',
        { symbol: stored.symbol, side: stored.side, orderedAt: record?.orderedAt.toMillis() ?? null },
        now,
      );
    }
    this.store.settleCommand(stored.commandId, CommandStatus.DONE, now, { result: brokerOrderId });
    this.store.setOrderState(stored.clientOrderId, 'ACCEPTED', now);
    this.emit(this.factory.accepted(stored.clientOrderId, brokerOrderId));
    if (record !== null) this.applyRecord(record);
  }

  private async modify(command: ModifyOrder): Promise<void> {
    const target = this.currentExecution(command.clientOrderId);
    if (target === null || target.closed) {
      this.emit(
        this.factory.modifyRejected(
          command.clientOrderId,
          'order-not-open',
          'no open broker order to modify',
        ),
      );
      return;
    }
    const content = modifyContent(command);
    const now = this.clock.nowMs();
    this.store.recordChange(command.commandId, 'modify', target, command.strategyId, { ...content }, now);
    this.store.setOrderState(command.clientOrderId, 'PENDING_MODIFY', now);
    this.emit(this.factory.modifyRequested(command.clientOrderId, target.brokerOrderId, command));
    await this.sendChange(this.requireCommand(command.commandId));
  }

  private async cancel(command: CancelOrder): Promise<void> {
    const target = this.currentExecution(command.clientOrderId);
    if (target === null || target.closed) {
      this.emit(
        this.factory.cancelRejected(
          command.clientOrderId,
          'order-not-open',
          'no open broker order to cancel',
        ),
      );
      return;
    }
    const now = this.clock.nowMs();
    this.store.recordChange(command.commandId, 'cancel', target, command.strategyId, {}, now);
    this.store.setOrderState(command.clientOrderId, 'PENDING_CANCEL', now);
    this.emit(this.factory.cancelRequested(command.clientOrderId, target.brokerOrderId));
    await this.sendChange(this.requireCommand(command.commandId));
  }

  private async sendChange(stored: StoredCommand): Promise<void> {
    const target = stored.targetBrokerOrderId ?? '';
    try {
      const outcome =
        stored.kind === 'modify'
          ? await this.gateway.modifyOrder(target, modifyRequest(stored.content as unknown as ModifyContent))
          : await this.gateway.cancelOrder(target);
      if (outcome.kind === 'acknowledged') {
        this.onChanged(stored, outcome.orderId, null);
        return;
      }
      // The answer was lost; the connector read the order instead. Its state tells whether the
      // change happened, never which new order it made: that is looked for in the history.
      this.applyRecord(outcome.order);
      if (outcome.applied) {
        this.store.settleCommand(stored.commandId, CommandStatus.AMBIGUOUS, this.clock.nowMs(), {
          error: 'answer lost; order shows the change',
        });
        await this.resolver.resolve(this.requireCommand(stored.commandId));
      } else {
        this.rejectChange(stored, 'order-closed', `the order was already ${outcome.order.status}`);
      }
    } catch (error) {
      this.onCommandError(stored, error);
    }
  }

  /** A modify or cancel made `brokerOrderId`: link it, settle, report. @internal */
  onChanged(stored: StoredCommand, brokerOrderId: string, record: OrderRecord | null): void {
    const now = this.clock.nowMs();
    if (this.settled(stored.commandId)) return;
    const kind = stored.kind === 'cancel' ? 'cancel' : 'modify';
    if (this.store.execution(brokerOrderId) === null) {
      this.store.link(
        stored.clientOrderId,
        brokerOrderId,
        kind,
        { symbol: stored.symbol, side: stored.side, orderedAt: record?.orderedAt.toMillis() ?? null },
        now,
      );
    }
    this.store.settleCommand(stored.commandId, CommandStatus.DONE, now, { result: brokerOrderId });
    if (kind === 'modify') {
      this.store.setOrderState(stored.clientOrderId, 'ACCEPTED', now);
      this.emit(
        this.factory.modified(
          stored.clientOrderId,
          brokerOrderId,
          stored.targetBrokerOrderId,
          stored.content as unknown as ModifyContent,
        ),
      );
    }
    if (record !== null) this.applyRecord(record);
    this.settleLogical(stored.clientOrderId);
  }

  /** A modify or cancel did not take effect. @internal */
  rejectChange(stored: StoredCommand, code: string, reason: string): void {
    const now = this.clock.nowMs();
    this.store.settleCommand(stored.commandId, CommandStatus.REJECTED, now, { error: `${code}: ${reason}` });
    this.store.setOrderState(stored.clientOrderId, 'ACCEPTED', now);
    this.emit(
      stored.kind === 'modify'
        ? this.factory.modifyRejected(stored.clientOrderId, code, reason)
        : this.factory.cancelRejected(stored.clientOrderId, code, reason),
    );
    this.settleLogical(stored.clientOrderId);
  }

  private onCommandError(stored: StoredCommand, error: unknown): void {
    const now = this.clock.nowMs();
    if (ambiguous(error)) {
      this.store.settleCommand(stored.commandId, CommandStatus.AMBIGUOUS, now, { error: codeOf(error) });
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    if (stored.kind === 'create') {
      this.store.settleCommand(stored.commandId, CommandStatus.REJECTED, now, { error: codeOf(error) });
      this.store.setOrderState(stored.clientOrderId, 'REJECTED', now);
      this.emit(this.factory.rejected(stored.clientOrderId, codeOf(error), reason));
    } else {
      this.rejectChange(stored, codeOf(error), reason);
    }
  }

  /** Whether a command was already settled (done, rejected or unknown). */
  private settled(commandId: string): boolean {
    return !this.store.unresolvedCommands().some((c) => c.commandId === commandId);
  }

  /** The stored command with this id. @internal */
  requireCommand(commandId: string): StoredCommand {
    const found = this.store.unresolvedCommands().find((c) => c.commandId === commandId);
    if (found !== undefined) return found;
    throw new Error(`command ${commandId} is not pending`);
  }

  /** The logical order's current broker order. */
  currentExecution(clientOrderId: string): StoredExecution | null {
    const current = this.factory.currentBrokerOrderId(clientOrderId);
    return current === null ? null : this.store.execution(current);
  }

  /**
   * Counts one broker report of an owned order (or adopts an order placed elsewhere), and settles
   * the logical order. Returns false when the report was deferred (an unsettled command may own it).
   * @internal
   */
  applyRecord(record: OrderRecord, unresolved?: readonly StoredCommand[]): boolean {
    return this.reports.applyRecord(record, unresolved);
  }

  /** Adopts an order placed elsewhere as an external logical order. @internal */
  adopt(record: OrderRecord, baseline: boolean): StoredExecution {
    return this.reports.adopt(record, baseline);
  }

  private settleLogical(clientOrderId: string): void {
    this.reports.settleLogical(clientOrderId);
  }

  /**
   * One poll: open orders, the newest closed pages since the last poll, the detail of owned open
   * orders missing from both, then the unsettled commands. Polls never overlap.
   */
  pollOnce(maxClosedPages = this.options.maxClosedPages): Promise<void> {
    if (this.polling !== null) return this.polling;
    this.polling = this.poller.poll(maxClosedPages).finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  /**
   * Startup reconciliation: interrupted commands become unsettled; on the first run the open
   * orders are adopted at their current execution and the positions copied from the holdings;
   * later runs read everything closed since the last poll; then the positions are compared with
   * the holdings and a symbol that still differs is barred.
   */
  reconcile(): Promise<ReconcileReport> {
    return reconcileWithBroker(this);
  }

  /** Compares the positions with the broker's holdings; bars or frees symbols. Returns the barred. */
  checkPositions(): Promise<string[]> {
    return comparePositions(this);
  }

  /** Waits for the commands being sent and the poll running. */
  async idle(): Promise<void> {
    while (this.pending.size > 0 || this.polling !== null) {
      await Promise.allSettled([...this.pending, this.polling ?? Promise.resolve()]);
    }
  }
}

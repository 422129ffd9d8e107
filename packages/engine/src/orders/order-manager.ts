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
import type { Clock, OrderEvent, OrderFilled, OrderPartiallyFilled } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import { type Observable, Subject } from 'rxjs';
import type { OrderCommand } from '../commands/order-commands.js';
import { StateWriteHold } from '../store/state-write-hold.js';
import { CommandAnswers } from './command-answers.js';
import { CommandResolver } from './command-resolver.js';
import { OrderEventFactory } from './order-event-factory.js';
import { type ManagerSettings, type OrderManagerOptions, withDefaults } from './order-manager-options.js';
import { OrderManagerStore, type StoredCommand, type StoredExecution } from './order-manager-store.js';
import { OrderOwnership } from './order-ownership.js';
import { OrderPoller } from './order-poll.js';
import { OrderRefresh } from './order-refresh.js';
import { OrderReports } from './order-reports.js';
import type { OrderGateway, OrderManagerAlert } from './order-requests.js';
import { CommandSender } from './order-sending.js';
import { OutsideChanges } from './outside-changes.js';
import type { ReconcileReport } from './reconciliation.js';
import { comparePositions, reconcileWithBroker } from './reconciliation.js';
import { addToldFill, isNotedEvent } from './untold-events.js';

export { type OrderManagerOptions, POLL } from './order-manager-options.js';
export type { ReconcileReport } from './reconciliation.js';

/** See the module description. */
export class OrderManager {
  readonly store: OrderManagerStore;
  /** The strategies' state writes held while fills are told (committed with the notes' drop). */
  private readonly stateHold: StateWriteHold;
  /** Which logical orders it reports on (not those of strategies another live run works). */
  readonly ownership: OrderOwnership;
  private readonly events = new Subject<OrderEvent>();
  private readonly alerts = new Subject<OrderManagerAlert>();
  private readonly factory: OrderEventFactory;
  private readonly reports: OrderReports;
  private readonly resolver: CommandResolver;
  private readonly answers: CommandAnswers;
  private readonly sender: CommandSender;
  private readonly poller: OrderPoller;
  private readonly refresh: OrderRefresh;
  /** Ids of the commands this process is sending now (their first send not settled). */
  private readonly sendingHere = new Set<string>();
  /** Modifies of its orders made by another process, told as its own are. @internal */
  readonly outside: OutsideChanges;
  private readonly pending = new Set<Promise<unknown>>();
  private polling: Promise<void> | null = null;
  /** How many polls have started. */
  private pollsBegun = 0;
  private readonly polled = new Subject<number>();
  /** Events held back while a batch of reports is being written. */
  private held: OrderEvent[] | null = null;
  /** The fills among {@link OrderManager.held} whose notes wait for their telling ({@link OrderManager.emit}). */
  private heldNoted: Set<OrderEvent> | null = null;
  readonly options: ManagerSettings;

  /** Every order event, own and adopted orders, in the order they happened. */
  readonly events$: Observable<OrderEvent> = this.events.asObservable();
  /** Unknown outcomes, position differences, adoptions. */
  readonly alerts$: Observable<OrderManagerAlert> = this.alerts.asObservable();
  /**
   * The number ({@link OrderManager.pollsStarted} when it started) of each poll that read every
   * list it meant to, once it ended and its events went out: whatever the broker had of the
   * manager's orders when that poll started has been reported by then.
   */
  readonly polled$: Observable<number> = this.polled.asObservable();

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
    this.options = withDefaults(options);
    if (this.options.checkpointEveryMs > 0) {
      db.deferCheckpoints(this.options.checkpointEveryMs, { onError: options.onCheckpointError });
    }
    this.store = new OrderManagerStore(db, this.options.commandDurability);
    this.stateHold = StateWriteHold.of(db);
    this.factory = new OrderEventFactory(this.store, db, clock);
    this.outside = new OutsideChanges(this.store, this.factory, (event) => this.emit(event));
    this.ownership = new OrderOwnership(db, options.strategies ?? [], (id) => this.factory.strategyOf(id));
    this.reports = new OrderReports(
      this.store,
      this.factory,
      clock,
      this.options.skewMs,
      this,
      this.ownership,
      this.options,
    );
    this.resolver = new CommandResolver(this);
    this.answers = new CommandAnswers(this, this.factory, this.reports, this.outside);
    this.sender = new CommandSender(this, this.factory, this.answers, this.resolver);
    this.poller = new OrderPoller(this, this.resolver);
    this.refresh = new OrderRefresh(this, this.reports, this.resolver, this.sendingHere);
  }

  /** Emits an order event. @internal */
  emit(event: OrderEvent | null): void {
    if (event === null) return;
    this.outside.sent(event);
    // a fill or an end of an order of a strategy this process does not run: told at its next start
    // (a fill is emitted inside the transaction that stores it: noted in it)
    if (isNotedEvent(event) && this.ownership.tellsLater(event.strategyId)) this.store.noteUntold(event);
    if (this.held !== null) {
      // a fill of a strategy this process runs, held until the transaction that stores it commits:
      // noted in it too, and the note dropped once told (a kill between the commit and the telling
      // leaves it, and the next start tells the fill; before, it was stored and never told)
      if (isFillEvent(event) && this.ownership.runsHere(event.strategyId) && this.store.inTransaction) {
        this.store.noteUntold(event);
        this.heldNoted?.add(event);
      }
      this.held.push(event);
    } else this.events.next(event);
  }

  /**
   * Counts many broker reports in one store transaction (see {@link OrderReports.applyRecords});
   * the events go out after the commit. Returns how many were counted.
   */
  applyRecords(records: Iterable<OrderRecord>, unresolved = this.store.unresolvedCommands()): number {
    return this.reports.applyRecords(records, unresolved, this.hold);
  }

  /** Starts holding events back; returns a function that releases them (nested: the outer one does). */
  private readonly hold = (): (() => void) => {
    if (this.held !== null) return () => undefined;
    const held: OrderEvent[] = [];
    const noted = new Set<OrderEvent>();
    this.held = held;
    this.heldNoted = noted;
    return () => {
      this.held = null;
      this.heldNoted = null;
      // (a strategy told may act at once: a hold of its own then begins and ends inside this loop)
      const told = new Map<string, Set<string>>();
      // the notes of the fills told dropped with the state their strategies wrote as they heard
      // them (a release rolled back drops none: nothing was stored)
      this.stateHold.telling(
        () => {
          for (const event of held) {
            this.events.next(event);
            if (noted.has(event) && isFillEvent(event) && event.strategyId !== undefined)
              addToldFill(told, event.strategyId, event.fill.fillId);
          }
        },
        () => {
          if (told.size > 0) this.store.dropTold(told);
        },
      );
    };
  };

  /** Marks the commands whose broker answer the store could not take as ambiguous, once it can. @internal */
  markUnstored(): void {
    this.sender.markUnstored();
  }

  /**
   * A create of `clientOrderId` this process sent whose rows the store refused (a full disk) and
   * has not written yet: the store's reason, and the broker's order id when its answer came.
   */
  unstoredCreate(clientOrderId: string): { reason: string; brokerOrderId: string | null } | undefined {
    return this.sender.unstoredCreate(clientOrderId);
  }

  /** Emits an alert. @internal */
  alert(alert: OrderManagerAlert): void {
    this.alerts.next(alert);
  }

  /** Hands a command to the manager; resolves once it is stored and its first send settled. */
  async execute(command: OrderCommand): Promise<void> {
    this.sendingHere.add(command.commandId);
    const work =
      command.type === 'SubmitOrder'
        ? this.sender.submit(command)
        : command.type === 'ModifyOrder'
          ? this.sender.modify(command)
          : this.sender.cancel(command);
    this.pending.add(work);
    try {
      await work;
    } finally {
      this.pending.delete(work);
      this.sendingHere.delete(command.commandId);
    }
  }

  /**
   * Whether a command stored `sending` was left so by a process that is gone: not being sent by
   * this one, not another live run's, not a living `hoga order`'s (a `hoga order` killed while
   * its create was on its way). @internal
   */
  orphaned(
    command: { readonly commandId: string; readonly strategyId: string | null },
    others: ReadonlySet<string>,
    inFlight: ReadonlySet<string>,
  ): boolean {
    return (
      !this.sendingHere.has(command.commandId) && !this.ownership.leavesCommand(command, others, inFlight)
    );
  }

  /** Whether trading a symbol is barred (its position differs from the broker's holdings). */
  isBlocked(symbol: string): boolean {
    return this.store.blocked().has(symbol);
  }

  /** Sends (or re-sends, same key) a stored create. @internal */
  sendCreate(stored: StoredCommand): Promise<void> {
    return this.sender.sendCreate(stored);
  }

  /** A create's order is known: link it, settle the command, report it. @internal */
  onCreated(stored: StoredCommand, brokerOrderId: string, record: OrderRecord | null): void {
    this.answers.onCreated(stored, brokerOrderId, record);
  }

  /** A modify or cancel made `brokerOrderId`: link it, settle, report. @internal */
  onChanged(stored: StoredCommand, brokerOrderId: string, record: OrderRecord | null): void {
    this.answers.onChanged(stored, brokerOrderId, record);
  }

  /** A change lost on a broker order found `REPLACED`: sent on to the replacement. @internal */
  followReplaced(stored: StoredCommand): Promise<void> {
    return this.sender.followReplaced(stored);
  }

  /** A modify or cancel did not take effect. @internal */
  rejectChange(stored: StoredCommand, code: string, reason: string): void {
    this.answers.rejectChange(stored, code, reason);
  }

  /** The stored command with this id, still unsettled. @internal */
  requireCommand(commandId: string): StoredCommand {
    return this.answers.requireCommand(commandId);
  }

  /** The logical order's current broker order. */
  currentExecution(clientOrderId: string): StoredExecution | null {
    const current = this.factory.currentBrokerOrderId(clientOrderId);
    return current === null ? null : this.store.execution(current);
  }

  /**
   * The logical order's newest broker order as the store file holds it now (another process on
   * the same store may have modified or cancelled it since this one last looked): the target of a
   * modify or cancel.
   */
  newestExecution(clientOrderId: string): StoredExecution | null {
    this.store.reload(clientOrderId);
    return this.currentExecution(clientOrderId);
  }

  /**
   * Counts one broker report of an owned order (or adopts an order placed elsewhere), and settles
   * the logical order; its events go out after the commit. Returns false when the report was
   * deferred (an unsettled command may own it). @internal
   */
  applyRecord(record: OrderRecord, unresolved?: readonly StoredCommand[]): boolean {
    return this.reports.applyRecord(record, unresolved, this.hold);
  }

  /** Ends an owned broker order the broker has no record of (see `NOT_FOUND_STATUS`). @internal */
  endMissing(execution: StoredExecution): void {
    this.reports.endMissing(execution);
  }

  /** Adopts an order placed elsewhere as an external logical order. @internal */
  adopt(record: OrderRecord, baseline: boolean): StoredExecution {
    return this.reports.adopt(record, baseline);
  }

  /**
   * One poll: open orders, the newest closed pages since the last poll, the detail of owned open
   * orders missing from both, then the unsettled commands; then the logical orders whose broker
   * orders all closed are ended ({@link OrderManager.settleFinished}). Polls never overlap.
   */
  pollOnce(maxClosedPages = this.options.maxClosedPages): Promise<void> {
    if (this.polling !== null) return this.polling;
    const index = ++this.pollsBegun;
    this.polling = this.poller
      .poll(maxClosedPages)
      .then((complete) => {
        this.settleFinished();
        if (complete) this.polled.next(index);
      })
      .finally(() => {
        this.polling = null;
      });
    return this.polling;
  }

  /** How many polls have started (the number of the last one). */
  pollsStarted(): number {
    return this.pollsBegun;
  }

  /**
   * Ends the live logical orders the store still holds open although every broker order of them is
   * closed (and no command of them unsettled), as their current broker order's status says
   * (`FILLED`, `CANCELED`, ...). A poll ends a logical order when it counts the report that closes
   * its last broker order; one whose broker orders another process closed, or that an older hoga
   * left open so, is ended here, at the next poll or start (before, it stayed `PENDING_CANCEL` for
   * ever: counted open by its strategy, a modify refused `order-not-open`, warned of at every run).
   * @internal
   */
  settleFinished(): void {
    // an order of a strategy another live run works is that run's to end (and to tell its strategy)
    const others = this.ownership.others();
    for (const clientOrderId of this.store.finishedOpenOrders())
      if (!this.ownership.leaves(clientOrderId, others)) {
        this.outside.catchUp(clientOrderId, null); // another process's modifies first
        this.reports.settleLogical(clientOrderId);
      }
  }

  /**
   * Startup reconciliation: interrupted commands become unsettled; on the first run the open
   * orders are adopted at their current execution and the positions copied from the holdings;
   * later runs read everything closed since the last poll; then the positions are compared with
   * the holdings and a symbol that still differs is barred. From then on the modifies another
   * process makes of the open orders are told ({@link OutsideChanges}).
   */
  async reconcile(): Promise<ReconcileReport> {
    const report = await reconcileWithBroker(this);
    this.outside.seed();
    return report;
  }

  /**
   * Brings one logical order up to date with the broker (`hoga order`, which does not poll): reads
   * the broker's record of each of its broker orders the store holds open (the current one, and
   * one a modify or cancel replaced that no poll saw closed), counts what changed, fills included,
   * once, and ends the order once they are all closed (a cancel's original and its record both
   * `CANCELED`: before, only the current one was read and the order stayed `PENDING_CANCEL` until
   * an engine polled); but an order of a strategy another live run works is left to that run (it
   * reports the change to the strategy). False when the order is not known here or the broker has
   * no record of one of them.
   */
  refreshOrder(clientOrderId: string): Promise<boolean> {
    return this.refresh.refreshOrder(clientOrderId);
  }

  /**
   * Settles the unsettled create of one logical order now, as a poll settles a lost answer or an
   * interrupted send (`hoga order` run again under the same `clientOrderId`, holding the command's
   * lease): inside its window it is re-sent under its key and the broker answers with the order it
   * placed the first time; past it, the order history is looked at. A create this process is
   * sending, or of a strategy another live run works, is left alone. True when one was checked.
   */
  settleCreate(clientOrderId: string): Promise<boolean> {
    return this.refresh.settleCreate(clientOrderId);
  }

  /** Compares the positions with the broker's holdings; bars or frees symbols. Returns the barred. */
  checkPositions(): Promise<string[]> {
    return comparePositions(this);
  }

  private barredCheckedAt = Number.NEGATIVE_INFINITY;

  /**
   * After a poll: while a symbol is barred, compares the barred ones with the holdings again (at
   * most every `barredRecheckMs`) and frees those that match; it never bars another symbol (a
   * holding and the fills that made it can be a poll apart during a run).
   */
  async recheckBarred(): Promise<void> {
    if (this.store.blocked().size === 0) return;
    const now = this.clock.nowMs();
    if (now - this.barredCheckedAt < this.options.barredRecheckMs) return;
    this.barredCheckedAt = now;
    await comparePositions(this, { barNew: false });
  }

  /** Waits for the commands being sent and the poll running. */
  async idle(): Promise<void> {
    while (this.pending.size > 0 || this.polling !== null) {
      await Promise.allSettled([...this.pending, this.polling ?? Promise.resolve()]);
    }
  }
}

/** A fill event. */
function isFillEvent(event: OrderEvent): event is OrderFilled | OrderPartiallyFilled {
  return event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled';
}

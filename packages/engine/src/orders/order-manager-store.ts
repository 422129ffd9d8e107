/**
 * The order manager's persistence: commands written with their full content before they are sent,
 * which broker order belongs to which logical order, the cumulative execution counted per broker
 * order, and the positions those fills built. Order identity and fills are mirrored into the
 * store's `orders`, `order_broker_ids` and `fills` (what `hoga db` shows); the manager's own tables
 * (migration 4) are the source of truth after a restart.
 *
 * @module
 */
import { Currency, Decimal, formatDecimal, Market, type OrderState } from '@hoga/core';
import type { HogaDatabase, NewOrder } from '@hoga/store';
import type { CumulativeExecution, ExecutionDelta } from './execution-delta.js';
import type { CreateContent } from './history-match.js';
import {
  type CommandRow,
  type CommandStatus,
  type CountedFill,
  command,
  type ExecutionRow,
  execution,
  type OrderHead,
  type Statement,
  type StoredCommand,
  type StoredExecution,
  type Transaction,
} from './order-manager-rows.js';
import { OrderManagerTables } from './order-manager-tables.js';

export {
  CommandStatus,
  type CountedFill,
  type OrderHead,
  type StoredCommand,
  type StoredExecution,
} from './order-manager-rows.js';

/** A command's `order_commands` row as statement parameters (and as its command-log entry). */
export interface CommandParams {
  readonly commandId: string;
  readonly clientOrderId: string;
  readonly kind: 'create' | 'modify' | 'cancel';
  readonly target: string | null;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly content: string;
  readonly strategyId: string | null;
  readonly at: number;
}

/** A create in the command log whose rows are written after its send. */
export interface LoggedCreate {
  readonly seq: number;
  readonly row: CommandParams;
}

/** Reads and writes the manager's tables; see the module description. */
export class OrderManagerStore extends OrderManagerTables {
  /**
   * @param db - an open, migrated database
   * @param durability - `full`: commands and links are fsynced before they are acted on; `normal`:
   *   they survive a process crash (WAL), not power loss
   */
  constructor(
    db: HogaDatabase,
    private readonly durability: 'full' | 'normal' = 'normal',
  ) {
    super(db);
    this.setFull = this.conn.prepare('PRAGMA synchronous = FULL') as unknown as Statement;
    this.setNormal = this.conn.prepare('PRAGMA synchronous = NORMAL') as unknown as Statement;
  }

  private readonly setFull: Statement;
  private readonly setNormal: Statement;

  /**
   * Runs one write statement as its own commit (no BEGIN / COMMIT statements around it), fsynced
   * with `full` durability; inside a caller's transaction it joins it, as a nested one would.
   */
  private durableRun(statement: Statement, ...params: unknown[]): unknown {
    if (this.durability === 'normal' || this.conn.inTransaction) return statement.run(...params);
    this.setFull.run();
    try {
      return statement.run(...params);
    } finally {
      this.setNormal.run();
    }
  }

  /**
   * Runs several writes as one commit with `normal` durability; with `full` they run as they are
   * (a durable write commits on its own: SQLite cannot change `synchronous` inside a transaction).
   */
  together(fn: () => void): void {
    if (this.durability === 'normal') this.runTx(fn);
    else fn();
  }

  private durable<A extends unknown[], T>(tx: Transaction<(...args: A) => T>, ...args: A): T {
    if (this.durability === 'normal') return tx.immediate(...args);
    this.setFull.run();
    try {
      return tx.immediate(...args);
    } finally {
      this.setNormal.run();
    }
  }

  /**
   * Writes a create before it is sent: the command with its full request body as one entry of the
   * command log (a single-B-tree append: one small commit, fsynced with `full` durability). The
   * command's row and the logical order's follow right after the send
   * ({@link OrderManagerStore.recordSent}); after a crash in between,
   * {@link OrderManagerStore.repairInterrupted} builds them from the log.
   *
   * @param content - the request body, already serialised (JSON)
   */
  recordCreate(
    commandId: string,
    clientOrderId: string,
    info: { readonly symbol: string; readonly side: 'BUY' | 'SELL'; readonly strategyId: string | null },
    content: string,
    at: number,
  ): LoggedCreate {
    // A command id is written once: a second create under it is refused before anything is sent.
    if (this.statements.commandExists.get(commandId) !== undefined)
      throw new Error(`command ${commandId} is already stored; it is not sent again`);
    const row: CommandParams = {
      commandId,
      clientOrderId,
      kind: 'create',
      target: null,
      symbol: info.symbol,
      side: info.side,
      content,
      strategyId: info.strategyId,
      at,
    };
    const { lastInsertRowid } = this.durableRun(this.statements.appendLog, JSON.stringify(row)) as {
      lastInsertRowid: number | bigint;
    };
    return { seq: Number(lastInsertRowid), row };
  }

  /**
   * After a create's request left: its command row (state `sending`) and its logical order (state
   * SUBMITTED), and its log entry removed, in one transaction.
   */
  recordSent(logged: LoggedCreate, order: NewOrder): void {
    this.runTx(() => {
      this.statements.insertCommandIfNew.run(logged.row);
      this.recordIntent(order);
      this.statements.deleteLog.run(logged.seq);
    });
  }

  /**
   * At startup: the creates a crash left in the command log (their request may have left) become
   * command rows (`sending`, settled by reconciliation), and creates without a logical order get it.
   */
  repairInterrupted(): void {
    this.runTx(() => {
      for (const entry of this.statements.logEntries.all() as { seq: number; row: string }[]) {
        this.statements.insertCommandIfNew.run(JSON.parse(entry.row) as CommandParams);
        this.statements.deleteLog.run(entry.seq);
      }
      this.repairIntents();
    });
  }

  /** Stores a logical order of the manager's (state SUBMITTED) unless it is stored already. */
  recordIntent(order: NewOrder): void {
    const text = (d: Decimal | null): string | null => (d === null ? null : formatDecimal(d));
    this.statements.insertIntent.run({
      clientOrderId: order.clientOrderId,
      strategyId: order.strategyId,
      mode: order.mode,
      symbol: order.symbol,
      market: order.market,
      currency: order.currency,
      side: order.side,
      orderType: order.orderType,
      timeInForce: order.timeInForce,
      price: text(order.price),
      quantity: text(order.quantity),
      amount: text(order.amount),
      at: order.createdAt,
    });
  }

  /** Rebuilds the logical orders of creates a crash interrupted between the command and its row. */
  private repairIntents(): void {
    for (const row of this.statements.createsWithoutOrder.all() as CommandRow[]) {
      const content = JSON.parse(row.content) as CreateContent;
      const market = /^[0-9]/.test(content.symbol) ? Market.KR : Market.US;
      const decimal = (v: string | undefined): Decimal | null => (v === undefined ? null : new Decimal(v));
      this.recordIntent({
        clientOrderId: row.client_order_id,
        strategyId: row.strategy_id,
        mode: 'live',
        symbol: content.symbol,
        market,
        currency: market === Market.KR ? Currency.KRW : Currency.USD,
        side: content.side,
        orderType: content.orderType,
        timeInForce: content.timeInForce ?? 'DAY',
        price: decimal(content.price),
        quantity: decimal(content.quantity),
        amount: decimal(content.orderAmount),
        createdAt: row.created_at,
      });
    }
  }

  /** Records an order placed elsewhere (adopted as external) when it is not stored yet. */
  recordExternal(order: NewOrder): void {
    if (this.db.orders.get(order.clientOrderId) === null) this.db.orders.recordIntent(order);
  }

  /** Writes a modify or cancel durably before it is sent. */
  recordChange(
    commandId: string,
    kind: 'modify' | 'cancel',
    target: StoredExecution,
    strategyId: string | null,
    content: Record<string, unknown>,
    at: number,
  ): void {
    this.durableRun(this.statements.insertCommand, {
      commandId,
      clientOrderId: target.clientOrderId,
      kind,
      target: target.brokerOrderId,
      symbol: target.symbol,
      side: target.side,
      content: JSON.stringify(content),
      strategyId,
      at,
    });
  }

  /** Changes a command's status (and result or error). */
  settleCommand(
    commandId: string,
    status: CommandStatus,
    at: number,
    extra: { readonly result?: string; readonly error?: string; readonly checks?: number } = {},
  ): void {
    const current = this.statements.commandChecks.get(commandId) as { checks: number } | undefined;
    this.statements.updateCommand.run({
      id: commandId,
      status,
      result: extra.result ?? null,
      error: extra.error ?? null,
      checks: extra.checks ?? current?.checks ?? 0,
      at,
    });
  }

  /** Commands still being sent or looked for, oldest first. */
  unresolvedCommands(): StoredCommand[] {
    return (this.statements.unresolved.all() as CommandRow[]).map(command);
  }

  /** The command with this id, or null. */
  command(commandId: string): StoredCommand | null {
    const row = this.statements.commandById.get(commandId) as CommandRow | undefined;
    return row === undefined ? null : command(row);
  }

  /** Every command of a logical order, oldest first. */
  commandsOf(clientOrderId: string): StoredCommand[] {
    return (this.statements.commandsOf.all(clientOrderId) as CommandRow[]).map(command);
  }

  /** The broker order with this id, if the manager owns it. */
  execution(brokerOrderId: string): StoredExecution | null {
    const row = this.statements.execution.get(brokerOrderId) as ExecutionRow | undefined;
    return row === undefined ? null : execution(row);
  }

  /** The owned broker orders among these ids, by id (one read for a poll's reports). */
  executionsById(brokerOrderIds: readonly string[]): Map<string, StoredExecution> {
    const found = new Map<string, StoredExecution>();
    if (brokerOrderIds.length === 0) return found;
    const rows = this.statements.executionsIn.all(JSON.stringify(brokerOrderIds)) as ExecutionRow[];
    for (const row of rows) found.set(row.broker_order_id, execution(row));
    return found;
  }

  /** Owned broker orders not seen closed yet. */
  openExecutions(): StoredExecution[] {
    return (this.statements.openExecutions.all() as ExecutionRow[]).map(execution);
  }

  /** The broker orders of one logical order. */
  executionsOf(clientOrderId: string): StoredExecution[] {
    return (this.statements.executionsOf.all(clientOrderId) as ExecutionRow[]).map(execution);
  }

  /**
   * Makes a broker order part of a logical order (durably), starting from `baseline` (zero for an
   * order the manager made; the current totals for an order adopted at the first start, whose
   * fills the holdings already contain).
   */
  link(
    clientOrderId: string,
    brokerOrderId: string,
    kind: 'create' | 'modify' | 'cancel',
    info: { readonly symbol: string; readonly side: 'BUY' | 'SELL'; readonly orderedAt: number | null },
    at: number,
    baseline: CumulativeExecution | null = null,
  ): void {
    // The broker order and the logical order's lineage in one transaction (one commit).
    this.durable(this.runTx, () => {
      this.statements.insertExecution.run({
        id: brokerOrderId,
        clientOrderId,
        symbol: info.symbol,
        side: info.side,
        status: 'PENDING',
        q: (baseline?.filledQuantity ?? 0).toString(),
        a: (baseline?.filledAmount ?? 0).toString(),
        c: (baseline?.commission ?? 0).toString(),
        t: (baseline?.tax ?? 0).toString(),
        orderedAt: info.orderedAt,
        at,
      });
      const order = this.orderKey(clientOrderId);
      if (order === null || this.statements.linkOwner.get(brokerOrderId) !== undefined) return;
      const { n } = this.statements.nextOrdinal.get(order.id) as { n: number };
      this.statements.insertLink.run(brokerOrderId, order.id, n, kind, at);
      this.statements.setCurrentBrokerId.run(brokerOrderId, at, order.id);
    });
  }

  /** Repairs lineage links a crash left out (the manager's table is written first). */
  repairLinks(at: number): void {
    for (const row of this.statements.unlinked.all() as {
      broker_order_id: string;
      client_order_id: string;
    }[]) {
      if (this.db.orders.get(row.client_order_id) !== null)
        this.db.orders.linkBrokerOrderId(row.client_order_id, row.broker_order_id, 'create', at);
    }
  }

  /**
   * Counts a broker report: stores the new totals and status and, when quantity was added, the
   * fill (store `fills`, positions) in one transaction. Returns the fill, or null.
   */
  applyReport(
    owned: StoredExecution,
    status: string,
    closed: boolean,
    delta: ExecutionDelta | null,
    filledAt: number,
    at: number,
  ): CountedFill | null {
    const body = (): CountedFill | null => {
      const after = delta?.after ?? owned;
      // Status and `closed` rarely change; leaving them out then spares the index on `closed`.
      if (status === owned.status && closed === owned.closed)
        this.statements.updateTotals.run(
          after.filledQuantity.toString(),
          after.filledAmount.toString(),
          after.commission.toString(),
          after.tax.toString(),
          at,
          owned.brokerOrderId,
        );
      else
        this.statements.updateExecution.run({
          id: owned.brokerOrderId,
          status,
          closed: closed ? 1 : 0,
          q: after.filledQuantity.toString(),
          a: after.filledAmount.toString(),
          c: after.commission.toString(),
          t: after.tax.toString(),
          at,
        });
      if (delta === null) return null;
      // The logical order's totals over its broker orders, and its row (two reads: SQLite's join
      // of the two took five times as long).
      let logical = new Decimal(0);
      let amount = new Decimal(0);
      for (const row of this.statements.sumFilled.all(owned.clientOrderId) as {
        filled_quantity: string;
        filled_amount: string;
      }[]) {
        logical = logical.plus(row.filled_quantity);
        amount = amount.plus(row.filled_amount);
      }
      const order = this.orderHead(owned.clientOrderId);
      if (order !== null) {
        this.db.fills.record({
          orderId: order.id,
          brokerOrderId: owned.brokerOrderId,
          symbol: owned.symbol,
          side: owned.side,
          quantity: delta.quantity,
          price: delta.price,
          commission: delta.commission,
          commissionCurrency: order.currency,
          tax: delta.tax,
          filledAt,
          cumulativeQuantity: logical,
        });
      }
      const signed = owned.side === 'BUY' ? delta.quantity : delta.quantity.negated();
      this.addToPosition(owned.symbol, signed, at);
      return {
        brokerOrderId: owned.brokerOrderId,
        clientOrderId: owned.clientOrderId,
        delta,
        logicalCumulative: logical,
        logicalAmount: amount,
        order,
      };
    };
    // inside a poll's batch already: no savepoint per fill
    return this.conn.inTransaction ? body() : (this.runTx(body) as CountedFill | null);
  }

  /** Row id and currency of each logical order (they never change). */
  private readonly orderKeys = new Map<string, { readonly id: number; readonly currency: Currency }>();

  private orderKey(clientOrderId: string): { readonly id: number; readonly currency: Currency } | null {
    let key = this.orderKeys.get(clientOrderId);
    if (key === undefined) {
      const order = this.db.orders.get(clientOrderId);
      if (order === null) return null;
      key = { id: order.id, currency: order.currency };
      if (this.orderKeys.size > 10_000) this.orderKeys.clear();
      this.orderKeys.set(clientOrderId, key);
    }
    return key;
  }

  /** The logical order's state and fill totals in the store's `orders`. */
  setOrderState(
    clientOrderId: string,
    state: OrderState,
    at: number,
    filled?: Decimal,
    average?: Decimal | null,
    from?: OrderState,
  ): void {
    const averageText = average === undefined || average === null ? null : formatDecimal(average);
    const changed = (
      filled === undefined
        ? this.statements.setState.run(state, at, clientOrderId)
        : state === from // the state column (indexed) is left alone when it stays
          ? this.statements.setFilled.run(at, formatDecimal(filled), averageText, clientOrderId)
          : this.statements.setStateFilled.run(state, at, formatDecimal(filled), averageText, clientOrderId)
    ) as { changes: number };
    // An adopted order may have no row; an own order without one is a defect: the store says so.
    if (changed.changes === 0 && !clientOrderId.startsWith('ext-'))
      this.db.orders.updateState(clientOrderId, { state, updatedAt: at });
  }

  /** The logical order's row id, currency, state and current broker id (a narrow read), or null. */
  orderHead(clientOrderId: string): OrderHead | null {
    const row = this.statements.orderHead.get(clientOrderId) as
      | { id: number; currency: Currency; state: OrderState; broker_order_id: string | null }
      | undefined;
    return row === undefined
      ? null
      : { id: row.id, currency: row.currency, state: row.state, brokerOrderId: row.broker_order_id };
  }

  /** Whether a command of the logical order is still being sent or looked for. */
  hasUnsettled(clientOrderId: string): boolean {
    return this.statements.unsettledOf.get(clientOrderId) !== undefined;
  }
}

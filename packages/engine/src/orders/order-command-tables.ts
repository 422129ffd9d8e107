/**
 * The command side of the order manager's persistence: a create appended to the command log before
 * its send and its rows written after it, modifies and cancels written before theirs, the commands'
 * settlement, and the repair of what a crash interrupted; with the durability (`normal` or `full`)
 * every write before a send commits at.
 *
 * @module
 */
import type { CommandJournal, HogaDatabase, NewOrder } from '@hoga/store';
import { journalRow } from './journal-line.js';
import { OrderIntentTables } from './order-intent-tables.js';
import {
  type CommandRow,
  type CommandStatus,
  command,
  type Statement,
  type StoredCommand,
  type StoredExecution,
  type Transaction,
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
  /** Its entry in the `om_command_log` table, or -1 for a line of the command journal file. */
  readonly seq: number;
  readonly row: CommandParams;
}

/** See the module description. */
export class OrderCommandTables extends OrderIntentTables {
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
    this.journal = db.commandJournal();
    this.setFull = this.conn.prepare('PRAGMA synchronous = FULL') as unknown as Statement;
    this.setNormal = this.conn.prepare('PRAGMA synchronous = NORMAL') as unknown as Statement;
  }

  private readonly setFull: Statement;
  private readonly setNormal: Statement;
  /** Where creates are written before their send (null for `:memory:`: the log table instead). */
  private readonly journal: CommandJournal | null;

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

  protected durable<A extends unknown[], T>(tx: Transaction<(...args: A) => T>, ...args: A): T {
    if (this.durability === 'normal') return tx.immediate(...args);
    this.setFull.run();
    try {
      return tx.immediate(...args);
    } finally {
      this.setNormal.run();
    }
  }

  /**
   * Writes a create before it is sent: the command with its full request body as one line of the
   * database's command journal (one `write` call; fdatasynced with `full` durability), or, for a
   * `:memory:` database, one entry of the `om_command_log` table. The command's row and the
   * logical order's follow right after the send ({@link OrderManagerStore.recordSent}); after a
   * crash in between, {@link OrderManagerStore.repairInterrupted} builds them from the journal.
   *
   * @param content - the request body, already serialised (JSON)
   * @throws {@link CommandAlreadyStored} when the command id is stored already, else the store's
   *   error when the line could not be written (nothing is written or sent either way)
   */
  recordCreate(
    commandId: string,
    clientOrderId: string,
    info: { readonly symbol: string; readonly side: 'BUY' | 'SELL'; readonly strategyId: string | null },
    content: string,
    at: number,
  ): LoggedCreate {
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
    const journal = this.journal;
    if (journal !== null) {
      // A command id is written once: a second create under it is refused before anything is sent.
      // The ids are the runtime's fresh UUIDs, so a second create under one can only come from
      // this process handing the same command over again: the journal's memory of what this
      // process appended answers that without a read of the database (a read transaction's locks
      // cost as much as the append itself). Modifies and cancels are written to the table.
      if (journal.has(commandId)) throw alreadyStored(commandId);
      journal.append(commandId, JSON.stringify(row), this.durability === 'full');
      return { seq: -1, row };
    }
    const { changes, lastInsertRowid } = this.durableRun(
      this.statements.appendLogIfNew,
      JSON.stringify(row),
      commandId,
    ) as { changes: number; lastInsertRowid: number | bigint };
    if (changes === 0) throw alreadyStored(commandId);
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
      if (logged.seq >= 0) this.statements.deleteLog.run(logged.seq);
    });
    const journal = this.journal;
    if (logged.seq >= 0 || journal === null) return;
    journal.settle(logged.row.commandId);
    if (!journal.shouldCompact()) return;
    try {
      this.durable(this.runTx, () => this.foldJournal(journal));
      this.compactFolded(journal);
    } catch {
      // housekeeping: the create's rows are stored; the lines stay for the next fold (a damaged
      // one is named at the next start)
    }
  }

  /**
   * Stores every complete line of the journal as its command row unless the command is stored
   * already (inside the caller's transaction); {@link compactFolded} drops the stored lines once
   * that committed (a crash before folds the same lines again, to the same effect).
   */
  private foldJournal(journal: CommandJournal): number {
    let stored = 0;
    for (const [i, line] of journal.entries().entries()) {
      const { changes } = this.statements.insertCommandIfNew.run(journalRow(line, i, journal.path)) as {
        changes: number;
      };
      stored += changes;
    }
    return stored;
  }

  /**
   * After a fold committed (not while an outer transaction has yet to commit it): drops the
   * journal's lines whose commands are stored, keeping any line another process appended since the
   * fold read the file. The database's write lock (`BEGIN IMMEDIATE`) is held through it, so two
   * processes never compact the journal at once; appenders take no lock. A compaction that fails
   * (the store locked for longer than the busy timeout) leaves the file as it is, to the next one.
   */
  private compactFolded(journal: CommandJournal): void {
    if (this.conn.inTransaction) return;
    try {
      this.runTx.immediate(() => journal.compact((line) => this.isStored(line)));
    } catch {
      // the lines stay: the next fold stores them again, to the same effect
    }
  }

  /** Whether a journal line's command has its row (a damaged line is kept, to be named). */
  private isStored(line: string): boolean {
    try {
      return this.statements.commandById.get(journalRow(line, 0, '').commandId) !== undefined;
    } catch {
      return false;
    }
  }

  /**
   * At startup: the creates a crash left in the command journal or log (their request may have
   * left) become command rows (`sending`, settled by reconciliation), and creates without a
   * logical order get it. The journal's stored lines are dropped once they are committed (a crash
   * before that stores them again, idempotently, at the next start).
   *
   * @throws Error naming the journal's file and line when a line other than the last is not a
   *   command (the file is left as it is)
   */
  repairInterrupted(): void {
    const journal = this.journal;
    // with `full` durability committed as such: the journal's lines go once it is
    this.durable(this.runTx, () => {
      for (const entry of this.statements.logEntries.all() as { seq: number; row: string }[]) {
        this.statements.insertCommandIfNew.run(JSON.parse(entry.row) as CommandParams);
        this.statements.deleteLog.run(entry.seq);
      }
      if (journal !== null) this.foldJournal(journal);
      this.repairIntents();
    });
    if (journal !== null) this.compactFolded(journal);
  }

  /**
   * While the engine runs: stores the creates the command journal holds and the tables do not (a
   * process that died, or gave up on a locked store, between its send and its rows: `hoga order`,
   * another run), with their logical orders, and answers whether it stored any. The file is left
   * as it is (its lines may still be pending). A damaged line is left to the next start, which
   * names it. Called before an order nobody knows is adopted as one from another channel.
   */
  foldJournalNow(): boolean {
    const journal = this.journal;
    if (journal === null) return false;
    try {
      return this.runTx(() => {
        const stored = this.foldJournal(journal);
        if (stored > 0) this.repairIntents();
        return stored > 0;
      }) as boolean;
    } catch {
      return false;
    }
  }

  /**
   * Writes a modify or cancel before it is sent, and what `alongside` writes (its logical order's
   * `PENDING_MODIFY` / `PENDING_CANCEL`), as one commit (durable with `full`): a store that refuses
   * either write (full, locked past the busy timeout, an I/O error) keeps neither, and throws.
   */
  recordChange(
    commandId: string,
    kind: 'modify' | 'cancel',
    target: StoredExecution,
    strategyId: string | null,
    content: Record<string, unknown>,
    at: number,
    alongside: () => void = () => undefined,
  ): void {
    this.durable(this.runTx, () => {
      this.statements.insertCommand.run({
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
      alongside();
    });
  }

  /**
   * Points a modify or cancel at another broker order of its logical order (the newest one, after
   * the broker refused it on the one it targeted), durably, before it is sent again.
   */
  retargetCommand(commandId: string, brokerOrderId: string, at: number): void {
    this.durableRun(this.statements.retarget, brokerOrderId, at, commandId);
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

  /**
   * Settles a command left `sending` by a process that is gone as interrupted (`ambiguous`, to be
   * looked for), in one statement that changes it only if it is still `sending`: the process read
   * as gone may have settled it (and given up its lease) after the command was read.
   *
   * @returns whether the command was still `sending` (and is now `ambiguous`)
   */
  interruptIfSending(commandId: string, at: number): boolean {
    const result = this.statements.interruptSending.run({ id: commandId, error: 'interrupted', at });
    return (result as { readonly changes: number }).changes === 1;
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

  /**
   * The pending state the logical order's changes keep it in, as core's `ORDER_TRANSITIONS` has it
   * (a pending cancel outranks a modify): `PENDING_CANCEL` while a cancel of it is being sent or
   * looked for, or was done (the broker took it: the order is on its way out, and the poll that
   * reads its end records it); else `PENDING_MODIFY` while a modify of it is; else null.
   */
  pendingChange(clientOrderId: string): 'PENDING_CANCEL' | 'PENDING_MODIFY' | null {
    const row = this.statements.pendingChangeOf.get(clientOrderId) as { cancel: number | null };
    return row.cancel === null ? null : row.cancel === 1 ? 'PENDING_CANCEL' : 'PENDING_MODIFY';
  }
}

/** A create under a command id stored already: refused before anything is written or sent. */
export class CommandAlreadyStored extends Error {
  /** @param commandId - the command's id */
  constructor(readonly commandId: string) {
    super(`command ${commandId} is already stored; it is not sent again`);
    this.name = 'CommandAlreadyStored';
  }
}

function alreadyStored(commandId: string): Error {
  return new CommandAlreadyStored(commandId);
}

/**
 * Transactions with two durability levels on one connection.
 *
 * The connection runs with `synchronous=NORMAL` (in WAL mode a commit survives a process crash,
 * and may be lost only on power loss or an OS crash). A durable transaction switches the
 * connection to `synchronous=FULL` for its commit, so the WAL is fsynced before the commit
 * returns: what it wrote survives power loss too. SQLite refuses to change the setting inside a
 * transaction, so a durable transaction cannot be nested inside a normal one.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { StoreError, StoreErrorCode } from './store-error.js';

/** Runs functions inside transactions of normal or full durability. */
export class TransactionRunner {
  private readonly setFull: Database.Statement;
  private readonly setNormal: Database.Statement;
  private durableDepth = 0;

  /** @param db - the connection (its default must be `synchronous=NORMAL`) */
  constructor(private readonly db: Database.Database) {
    this.setFull = db.prepare('PRAGMA synchronous = FULL');
    this.setNormal = db.prepare('PRAGMA synchronous = NORMAL');
  }

  /**
   * Runs `fn` in a transaction committed with `synchronous=NORMAL` (a savepoint when nested).
   * An exception rolls everything back and is rethrown. It takes the write lock as it begins
   * (`BEGIN IMMEDIATE`, waiting up to the busy timeout): a deferred one that read first could not
   * write once another connection had committed meanwhile (SQLite refuses that upgrade with
   * SQLITE_BUSY at once, without the busy timeout: `database is locked`).
   */
  run<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Runs `fn` in a transaction committed with `synchronous=FULL` (fsync before returning), as
   * required for order intents. Nested inside another durable transaction it joins it.
   *
   * @throws {@link StoreError} `durability-conflict` when called inside a normal transaction
   */
  durable<T>(fn: () => T): T {
    if (this.durableDepth > 0) return this.db.transaction(fn)();
    if (this.db.inTransaction) {
      throw new StoreError(
        StoreErrorCode.DURABILITY_CONFLICT,
        'a durable (synchronous=FULL) write was requested inside a normal transaction; ' +
          'open the outer transaction with durableTransaction() instead',
      );
    }
    this.setFull.run();
    this.durableDepth++;
    try {
      return this.db.transaction(fn).immediate();
    } finally {
      this.durableDepth--;
      this.setNormal.run();
    }
  }

  /** Whether a durable transaction is running. */
  get inDurable(): boolean {
    return this.durableDepth > 0;
  }
}

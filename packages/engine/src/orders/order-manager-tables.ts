/**
 * The order manager's tables besides commands and executions: the positions its fills built (written
 * once per batch of reports), the symbols barred from trading, and its progress values; and the
 * connection, statements and transaction the rest of {@link OrderManagerStore} shares.
 *
 * @module
 */
import { Currency, Decimal, Market } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import { type Connection, prepareStatements, type Transaction } from './order-manager-rows.js';

/** See the module description. */
export class OrderManagerTables {
  protected readonly conn: Connection;
  protected readonly statements: ReturnType<typeof prepareStatements>;
  /**
   * Runs a function in a transaction (a savepoint when nested). When it fails (rolled back), what
   * the subclass keeps in memory of the tables is dropped ({@link OrderManagerTables.forget}).
   */
  protected readonly runTx: Transaction<(fn: () => unknown) => unknown>;

  /** @param db - an open, migrated database */
  constructor(protected readonly db: HogaDatabase) {
    this.conn = db.connection;
    this.statements = prepareStatements(this.conn);
    const tx = this.conn.transaction((fn: () => unknown) => fn());
    const guard = <T>(run: () => T): T => {
      try {
        return run();
      } catch (error) {
        this.forget();
        throw error;
      }
    };
    const runTx = (fn: () => unknown): unknown => guard(() => tx(fn));
    runTx.immediate = (fn: () => unknown): unknown => guard(() => tx.immediate(fn));
    this.runTx = runTx;
  }

  /** Drops what is kept in memory of the tables (a transaction that wrote it was rolled back). */
  protected forget(): void {}

  /**
   * Runs `fn` in one (normal-durability) write transaction, taken at its start (`BEGIN IMMEDIATE`):
   * what it reads stays what other processes sharing the store leave it until it commits.
   */
  batch<T>(fn: () => T): T {
    if (this.pendingPositions !== null) return this.runTx(fn) as T;
    // The positions the batch's fills change are written once each, at its end.
    const pending = new Map<string, { quantity: Decimal; at: number }>();
    this.pendingPositions = pending;
    const tx = this.conn.inTransaction ? this.runTx : this.runTx.immediate;
    try {
      return tx(() => {
        const result = fn();
        for (const [symbol, p] of pending)
          this.statements.setPosition.run(symbol, p.quantity.toString(), p.at);
        return result;
      }) as T;
    } finally {
      this.pendingPositions = null;
    }
  }

  /** Positions changed by the running batch, not written yet. */
  private pendingPositions: Map<string, { quantity: Decimal; at: number }> | null = null;

  /** Adds a fill's signed quantity to a position (at the batch's end when one is running). */
  protected addToPosition(symbol: string, signed: Decimal, at: number): void {
    const position = this.position(symbol).plus(signed);
    if (this.pendingPositions !== null) this.pendingPositions.set(symbol, { quantity: position, at });
    else this.statements.setPosition.run(symbol, position.toString(), at);
  }

  /** A symbol's position as the fills built it. */
  position(symbol: string): Decimal {
    const pending = this.pendingPositions?.get(symbol);
    if (pending !== undefined) return pending.quantity;
    const row = this.statements.position.get(symbol) as { quantity: string } | undefined;
    return row === undefined ? new Decimal(0) : new Decimal(row.quantity);
  }

  /** Every position (zero ones included once they existed). */
  positions(): Map<string, Decimal> {
    const rows = this.statements.positions.all() as { symbol: string; quantity: string }[];
    const all = new Map(rows.map((r) => [r.symbol, new Decimal(r.quantity)]));
    for (const [symbol, p] of this.pendingPositions ?? []) all.set(symbol, p.quantity);
    return all;
  }

  /** Sets a position (the baseline copied from the holdings at the first start). */
  setPosition(symbol: string, quantity: Decimal, at: number): void {
    this.pendingPositions?.delete(symbol);
    this.statements.setPosition.run(symbol, quantity.toString(), at);
  }

  /**
   * Saves the positions as a `position_snapshots` record (a history of what the engine held at
   * each start and stop; `hoga db positions` reads `om_positions` itself). The order manager counts
   * quantities only: each item's average is `averages`' (the broker's average purchase price of a
   * holding equal to the position), else NULL, and its realized PnL NULL (not known). Before, both
   * were written 0, which read as figures.
   */
  snapshotPositions(at: number, averages: ReadonlyMap<string, Decimal> = new Map()): void {
    const positions = [...this.positions()].map(([symbol, quantity]) => {
      const market = /^[0-9]/.test(symbol) ? Market.KR : Market.US;
      return {
        symbol,
        market,
        currency: market === Market.KR ? Currency.KRW : Currency.USD,
        quantity,
        averagePrice: averages.get(symbol) ?? null,
        realizedPnl: null,
      };
    });
    this.db.positions.save({ ts: at, mode: 'live', strategyId: null, positions });
  }

  /** Bars a symbol from trading until its position matches the broker's holdings. */
  block(symbol: string, reason: string, at: number): void {
    this.statements.block.run(symbol, reason, at);
    this.blockedCache = null;
  }

  /** Lifts a bar. */
  unblock(symbol: string): void {
    this.statements.unblock.run(symbol);
    this.blockedCache = null;
  }

  private blockedCache: Map<string, string> | null = null;

  /** The barred symbols and why (read once, then kept: only this class changes them). */
  blocked(): ReadonlyMap<string, string> {
    if (this.blockedCache === null) {
      const rows = this.statements.blocked.all() as { symbol: string; reason: string }[];
      this.blockedCache = new Map(rows.map((r) => [r.symbol, r.reason]));
    }
    return this.blockedCache;
  }

  /** A progress value. */
  meta(key: string): string | null {
    return (this.statements.getMeta.get(key) as { value: string } | undefined)?.value ?? null;
  }

  /** Sets a progress value. */
  setMeta(key: string, value: string): void {
    this.statements.setMeta.run(key, value);
  }
}

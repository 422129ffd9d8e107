/**
 * A key-value state per strategy (JSON values), for strategies that must remember something across
 * restarts.
 *
 * @module
 */
import type { Clock } from '@hoga/core';
import type Database from 'better-sqlite3';
import { fromJsonText, toJsonText } from '../codec.js';

/** Reads and writes `strategy_state`. */
export class StrategyStateRepository {
  private readonly selectOne: Database.Statement;
  private readonly selectAll: Database.Statement;
  private readonly upsert: Database.Statement;
  private readonly deleteOne: Database.Statement;

  /**
   * @param db - an open, migrated connection
   * @param clock - stamps `updated_at`
   */
  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.selectOne = db.prepare('SELECT value FROM strategy_state WHERE strategy_id = ? AND key = ?');
    this.selectAll = db.prepare('SELECT key, value FROM strategy_state WHERE strategy_id = ? ORDER BY key');
    this.upsert = db.prepare(
      `INSERT INTO strategy_state (strategy_id, key, value, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (strategy_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    );
    this.deleteOne = db.prepare('DELETE FROM strategy_state WHERE strategy_id = ? AND key = ?');
  }

  /** The value stored under `key`, or `undefined`. Decimals come back as strings. */
  get(strategyId: string, key: string): unknown {
    const row = this.selectOne.get(strategyId, key) as { value: string } | undefined;
    return row === undefined ? undefined : fromJsonText(row.value, 'strategy_state.value');
  }

  /** Stores a JSON-serialisable value (a `Decimal` is written as its plain string). */
  set(strategyId: string, key: string, value: unknown): void {
    this.upsert.run(strategyId, key, toJsonText(value), this.clock.nowMs());
  }

  /** Removes `key`; returns whether it existed. */
  delete(strategyId: string, key: string): boolean {
    return this.deleteOne.run(strategyId, key).changes > 0;
  }

  /** Every key and value of a strategy, by key. */
  entries(strategyId: string): Map<string, unknown> {
    const rows = this.selectAll.all(strategyId) as { key: string; value: string }[];
    return new Map(rows.map((r) => [r.key, fromJsonText(r.value, 'strategy_state.value')]));
  }
}

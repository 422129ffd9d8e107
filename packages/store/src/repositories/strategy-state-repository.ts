/**
 * A key-value state per strategy (JSON values), for strategies that must remember something across
 * restarts.
 *
 * @module
 */
import { type Clock, Decimal } from '@hoga/core';
import type Database from 'better-sqlite3';
import { fromJsonText, toJsonText } from '../codec.js';
import { StoreError, StoreErrorCode } from '../store-error.js';

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

  /**
   * Stores a JSON value (a `Decimal` and a bigint are written as strings, a `Date` as its ISO text;
   * an object's `undefined` property is left out, as JSON does). `undefined` removes the key, so
   * `get` gives `undefined` back (before, it was stored as JSON `null` and read back as `null`).
   *
   * @throws {@link StoreError} `invalid-argument` naming the key and the place of a part JSON would
   * lose or cannot write (a Map, a Set, a function, NaN or an infinity, a cycle, an `undefined` in
   * an array); nothing is stored
   */
  set(strategyId: string, key: string, value: unknown): void {
    const text = this.textOf(strategyId, key, value);
    if (text === undefined) this.delete(strategyId, key);
    else this.setText(strategyId, key, text);
  }

  /**
   * The JSON text {@link set} would store for `value`, checked as `set` checks it (`undefined`: the
   * key removed): a write made now and stored later ({@link setText}), as the value is now.
   *
   * @throws {@link StoreError} `invalid-argument`, as {@link set}
   */
  textOf(strategyId: string, key: string, value: unknown): string | undefined {
    if (value === undefined) return undefined;
    const lost = jsonLoss(value, key, []);
    if (lost !== null) {
      throw new StoreError(
        StoreErrorCode.INVALID_ARGUMENT,
        `state key '${key}' of ${strategyId}: ${lost}; store plain objects, arrays, strings, numbers, booleans and null`,
      );
    }
    return toJsonText(value);
  }

  /** Stores the JSON text {@link textOf} made. */
  setText(strategyId: string, key: string, text: string): void {
    this.upsert.run(strategyId, key, text, this.clock.nowMs());
  }

  /** A value as {@link get} reads it back from the JSON text {@link textOf} made. */
  static valueOf(text: string): unknown {
    return fromJsonText(text, 'strategy_state.value');
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

/** What of `value` (at `path`) JSON would lose or cannot write, or null when it keeps all of it. */
function jsonLoss(value: unknown, path: string, parents: object[]): string | null {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? null : `${path} is ${String(value)}`;
    case 'function':
      return `${path} is a function`;
    case 'symbol':
      return `${path} is a symbol`;
    case 'object':
      break;
    default:
      return null;
  }
  if (value === null || Decimal.isDecimal(value)) return null;
  if (value instanceof Map) return `${path} is a Map`;
  if (value instanceof Set) return `${path} is a Set`;
  if (parents.includes(value)) return `${path} refers back to itself`;
  // an object with its own JSON form (a Date, a luxon DateTime) is written as that
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return null;
  const inner = [...parents, value];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      // JSON writes an array's undefined (or hole) as null: it would come back as null
      if (value[i] === undefined) return `${path}[${i}] is undefined (JSON would write null)`;
      const lost = jsonLoss(value[i], `${path}[${i}]`, inner);
      if (lost !== null) return lost;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const lost = jsonLoss(v, `${path}.${k}`, inner);
    if (lost !== null) return lost;
  }
  return null;
}

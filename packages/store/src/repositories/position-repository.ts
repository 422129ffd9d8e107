/**
 * Position snapshots: the positions of an account or a strategy at an instant, written whole.
 *
 * @module
 */
import { Currency, type Decimal, Market } from '@hoga/core';
import type Database from 'better-sqlite3';
import {
  decimalToText,
  nullableDecimalToText,
  textToDecimal,
  textToMember,
  textToNullableDecimal,
} from '../codec.js';
import { TRADING_MODES, type TradingMode } from '../trading-mode.js';

/** One position inside a snapshot. */
export interface PositionEntry {
  readonly symbol: string;
  readonly market: Market;
  readonly currency: Currency;
  /** Signed share quantity. */
  readonly quantity: Decimal;
  /** Average entry price; null when not known (a live position the broker's holding does not match). */
  readonly averagePrice: Decimal | null;
  /** Realised profit or loss so far, in `currency`; null when not known (live). */
  readonly realizedPnl: Decimal | null;
}

/** The positions of one scope at one instant. */
export interface PositionSnapshot {
  /** When the positions were true (epoch ms). */
  readonly ts: number;
  readonly mode: TradingMode;
  /** The strategy, or `null` for the whole account. */
  readonly strategyId: string | null;
  readonly positions: readonly PositionEntry[];
}

/** A stored snapshot. */
export interface PositionSnapshotRecord extends PositionSnapshot {
  /** Row id. */
  readonly id: number;
}

const MARKETS: ReadonlySet<string> = new Set(Object.values(Market));
const CURRENCIES: ReadonlySet<string> = new Set(Object.values(Currency));

interface ItemRow {
  symbol: string;
  market: string;
  currency: string;
  quantity: string;
  average_price: string | null;
  realized_pnl: string | null;
}

/** Reads and writes `position_snapshots` and `position_snapshot_items`. */
export class PositionRepository {
  private readonly insertSnapshot: Database.Statement;
  private readonly insertItem: Database.Statement;
  private readonly selectLatest: Database.Statement;
  private readonly selectItems: Database.Statement;
  private readonly saveTx: (snapshot: PositionSnapshot) => number;

  /** @param db - an open, migrated connection */
  constructor(db: Database.Database) {
    this.insertSnapshot = db.prepare(
      'INSERT INTO position_snapshots (ts, mode, strategy_id) VALUES (?, ?, ?)',
    );
    this.insertItem = db.prepare(
      `INSERT INTO position_snapshot_items (snapshot_id, symbol, market, currency, quantity, average_price,
         realized_pnl) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectLatest = db.prepare(
      `SELECT id, ts, mode, strategy_id FROM position_snapshots
       WHERE mode = ? AND strategy_id = ? AND ts <= ? ORDER BY ts DESC, id DESC LIMIT 1`,
    );
    this.selectItems = db.prepare(
      `SELECT symbol, market, currency, quantity, average_price, realized_pnl
       FROM position_snapshot_items WHERE snapshot_id = ? ORDER BY symbol`,
    );
    this.saveTx = db.transaction((snapshot: PositionSnapshot): number => {
      const id = Number(
        this.insertSnapshot.run(snapshot.ts, snapshot.mode, snapshot.strategyId ?? '').lastInsertRowid,
      );
      for (const p of snapshot.positions) {
        this.insertItem.run(
          id,
          p.symbol,
          p.market,
          p.currency,
          decimalToText(p.quantity),
          nullableDecimalToText(p.averagePrice),
          nullableDecimalToText(p.realizedPnl),
        );
      }
      return id;
    });
  }

  /**
   * Saves a snapshot in one transaction.
   *
   * @returns its row id
   */
  save(snapshot: PositionSnapshot): number {
    return this.saveTx(snapshot);
  }

  /**
   * The latest snapshot of a scope taken at or before `at`, or `null`.
   *
   * @param mode - the mode
   * @param strategyId - the strategy, or `null` for the account
   * @param at - upper bound (epoch ms); newest when omitted
   */
  latest(
    mode: TradingMode,
    strategyId: string | null,
    at: number = Number.MAX_SAFE_INTEGER,
  ): PositionSnapshotRecord | null {
    const head = this.selectLatest.get(mode, strategyId ?? '', at) as
      | { id: number; ts: number; mode: string; strategy_id: string }
      | undefined;
    if (head === undefined) return null;
    const items = this.selectItems.all(head.id) as ItemRow[];
    return {
      id: head.id,
      ts: head.ts,
      mode: textToMember(head.mode, TRADING_MODES, 'position_snapshots.mode'),
      strategyId: head.strategy_id === '' ? null : head.strategy_id,
      positions: items.map((r) => ({
        symbol: r.symbol,
        market: textToMember(r.market, MARKETS, 'position_snapshot_items.market'),
        currency: textToMember(r.currency, CURRENCIES, 'position_snapshot_items.currency'),
        quantity: textToDecimal(r.quantity, 'position_snapshot_items.quantity'),
        averagePrice: textToNullableDecimal(r.average_price, 'position_snapshot_items.average_price'),
        realizedPnl: textToNullableDecimal(r.realized_pnl, 'position_snapshot_items.realized_pnl'),
      })),
    };
  }
}

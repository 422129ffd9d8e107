/**
 * Fills (executions). The same fill reported twice — same order, same cumulative filled quantity —
 * is stored once: the broker's order records only carry totals, so a fill is identified by the
 * cumulative quantity it brought the order to.
 *
 * @module
 */
import { type BrokerOrderId, Currency, type Decimal, OrderSide } from '@hoga/core';
import type Database from 'better-sqlite3';
import {
  decimalToText,
  nullableDecimalToText,
  textToDecimal,
  textToMember,
  textToNullableDecimal,
} from '../codec.js';
import type { TradingMode } from '../trading-mode.js';

/** A fill to record. Times are epoch ms. */
export interface NewFill {
  /** Our order row id ({@link OrderRecord.id}). */
  readonly orderId: number;
  /** The broker id the fill was reported under, if known. */
  readonly brokerOrderId: string | null;
  readonly symbol: string;
  readonly side: OrderSide;
  /** Quantity of this fill. */
  readonly quantity: Decimal;
  /** Price of this fill. */
  readonly price: Decimal;
  /** Commission charged for this fill. */
  readonly commission: Decimal;
  readonly commissionCurrency: Currency;
  /** Tax charged for this fill, if known. */
  readonly tax?: Decimal | null | undefined;
  /** Execution time. */
  readonly filledAt: number;
  /** The order's total filled quantity after this fill (the identity of the fill). */
  readonly cumulativeQuantity: Decimal;
}

/** A stored fill. */
export interface FillRecord extends Omit<NewFill, 'brokerOrderId' | 'tax'> {
  /** Row id. */
  readonly id: number;
  readonly brokerOrderId: BrokerOrderId | null;
  readonly tax: Decimal | null;
}

/** Filters of {@link FillRepository.list}; all optional, combined with AND. */
export interface FillQuery {
  readonly orderId?: number | undefined;
  readonly symbol?: string | undefined;
  /** Only the fills of orders of this mode (`orders.mode`). */
  readonly mode?: TradingMode | undefined;
  /** Only the fills of this strategy's orders (`orders.strategy_id`). */
  readonly strategyId?: string | undefined;
  /** Filled at or after (epoch ms). */
  readonly from?: number | undefined;
  /** Filled before (epoch ms). */
  readonly to?: number | undefined;
  /** Most rows (default 10,000). */
  readonly limit?: number | undefined;
  /** With `limit`: keep the newest rows rather than the oldest (still returned oldest first). */
  readonly newest?: boolean | undefined;
}

interface FillRow {
  id: number;
  order_id: number;
  broker_order_id: string | null;
  symbol: string;
  side: string;
  quantity: string;
  price: string;
  commission: string;
  commission_currency: string;
  tax: string | null;
  filled_at: number;
  cumulative_quantity: string;
}

const COLUMNS =
  'id, order_id, broker_order_id, symbol, side, quantity, price, commission, commission_currency, tax, ' +
  'filled_at, cumulative_quantity';
const SIDES: ReadonlySet<string> = new Set(Object.values(OrderSide));
const CURRENCIES: ReadonlySet<string> = new Set(Object.values(Currency));

/** Reads and writes `fills`. */
export class FillRepository {
  private readonly insert: Database.Statement;
  private readonly insertMany: (fills: readonly NewFill[]) => number;
  private readonly listStatements = new Map<string, Database.Statement>();

  /** @param db - an open, migrated connection */
  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(
      `INSERT OR IGNORE INTO fills (order_id, broker_order_id, symbol, side, quantity, price, commission,
         commission_currency, tax, filled_at, cumulative_quantity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertMany = db.transaction((fills: readonly NewFill[]): number => {
      let added = 0;
      for (const fill of fills) if (this.insertOne(fill)) added++;
      return added;
    });
  }

  /**
   * Records a fill (in the caller's transaction, if any).
   *
   * @returns `true` when it was new, `false` when the same fill was already stored
   */
  record(fill: NewFill): boolean {
    return this.insertOne(fill);
  }

  /**
   * Records fills in one transaction, all or none.
   *
   * @returns how many were new
   */
  recordMany(fills: readonly NewFill[]): number {
    return this.insertMany(fills);
  }

  /** Fills of one order, oldest first. */
  byOrder(orderId: number): FillRecord[] {
    return this.list({ orderId });
  }

  /** Fills matching every filter given, by time. */
  list(query: FillQuery = {}): FillRecord[] {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (query.orderId !== undefined) {
      where.push('order_id = ?');
      params.push(query.orderId);
    }
    if (query.symbol !== undefined) {
      where.push('symbol = ?');
      params.push(query.symbol);
    }
    if (query.mode !== undefined) {
      where.push('order_id IN (SELECT id FROM orders WHERE mode = ?)');
      params.push(query.mode);
    }
    if (query.strategyId !== undefined) {
      where.push('order_id IN (SELECT id FROM orders WHERE strategy_id = ?)');
      params.push(query.strategyId);
    }
    if (query.from !== undefined) {
      where.push('filled_at >= ?');
      params.push(query.from);
    }
    if (query.to !== undefined) {
      where.push('filled_at < ?');
      params.push(query.to);
    }
    const sql =
      `SELECT ${COLUMNS} FROM fills` +
      (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
      (query.newest === true
        ? ' ORDER BY filled_at DESC, id DESC LIMIT ?'
        : ' ORDER BY filled_at, id LIMIT ?');
    params.push(query.limit ?? 10_000);
    let statement = this.listStatements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.listStatements.set(sql, statement);
    }
    const rows = (statement.all(...params) as FillRow[]).map(decode);
    return query.newest === true ? rows.reverse() : rows;
  }

  private insertOne(fill: NewFill): boolean {
    return (
      this.insert.run(
        fill.orderId,
        fill.brokerOrderId,
        fill.symbol,
        fill.side,
        decimalToText(fill.quantity),
        decimalToText(fill.price),
        decimalToText(fill.commission),
        fill.commissionCurrency,
        nullableDecimalToText(fill.tax),
        fill.filledAt,
        decimalToText(fill.cumulativeQuantity),
      ).changes === 1
    );
  }
}

function decode(row: FillRow): FillRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    brokerOrderId: row.broker_order_id as BrokerOrderId | null,
    symbol: row.symbol,
    side: textToMember(row.side, SIDES, 'fills.side'),
    quantity: textToDecimal(row.quantity, 'fills.quantity'),
    price: textToDecimal(row.price, 'fills.price'),
    commission: textToDecimal(row.commission, 'fills.commission'),
    commissionCurrency: textToMember(row.commission_currency, CURRENCIES, 'fills.commission_currency'),
    tax: textToNullableDecimal(row.tax, 'fills.tax'),
    filledAt: row.filled_at,
    cumulativeQuantity: textToDecimal(row.cumulative_quantity, 'fills.cumulative_quantity'),
  };
}

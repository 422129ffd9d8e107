/**
 * The daily profit-and-loss ledger: one row per trading date, currency, mode and scope.
 *
 * @module
 */
import { Currency, type Decimal } from '@hoga/core';
import type Database from 'better-sqlite3';
import { decimalToText, textToDecimal, textToMember } from '../codec.js';
import { TRADING_MODES, type TradingMode } from '../trading-mode.js';

/** One day's figures in one currency. */
export interface PnlEntry {
  /** Trading date, `YYYY-MM-DD`. */
  readonly tradingDate: string;
  readonly currency: Currency;
  readonly mode: TradingMode;
  /** The strategy, or `null` for the whole account. */
  readonly strategyId: string | null;
  /** Realised profit or loss of the day. */
  readonly realized: Decimal;
  /** Unrealised profit or loss at the end of the day (or at `updatedAt`). */
  readonly unrealized: Decimal;
  /** Commissions paid that day. */
  readonly commission: Decimal;
  /** Taxes paid that day. */
  readonly tax: Decimal;
  /** Last update (epoch ms). */
  readonly updatedAt: number;
}

/** Filters of {@link PnlLedgerRepository.list}; all optional. Dates are inclusive. */
export interface PnlQuery {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly currency?: Currency | undefined;
  readonly mode?: TradingMode | undefined;
  /** `null` for the account rows; omitted for all. */
  readonly strategyId?: string | null | undefined;
}

interface PnlRow {
  trading_date: string;
  currency: string;
  mode: string;
  strategy_id: string;
  realized: string;
  unrealized: string;
  commission: string;
  tax: string;
  updated_at: number;
}

const CURRENCIES: ReadonlySet<string> = new Set(Object.values(Currency));

/** Reads and writes `pnl_ledger`. */
export class PnlLedgerRepository {
  private readonly upsertStatement: Database.Statement;
  private readonly selectAll: Database.Statement;

  /** @param db - an open, migrated connection */
  constructor(db: Database.Database) {
    this.upsertStatement = db.prepare(
      `INSERT INTO pnl_ledger (trading_date, currency, mode, strategy_id, realized, unrealized, commission, tax,
         updated_at) VALUES (@trading_date, @currency, @mode, @strategy_id, @realized, @unrealized, @commission,
         @tax, @updated_at)
       ON CONFLICT (trading_date, currency, mode, strategy_id) DO UPDATE SET realized = excluded.realized,
         unrealized = excluded.unrealized, commission = excluded.commission, tax = excluded.tax,
         updated_at = excluded.updated_at`,
    );
    this.selectAll = db.prepare(
      `SELECT trading_date, currency, mode, strategy_id, realized, unrealized, commission, tax, updated_at
       FROM pnl_ledger
       WHERE trading_date >= @from AND trading_date <= @to
         AND (@currency IS NULL OR currency = @currency) AND (@mode IS NULL OR mode = @mode)
         AND (@any_strategy OR strategy_id = @strategy_id)
       ORDER BY trading_date, currency, mode, strategy_id`,
    );
  }

  /** Writes (or replaces) the row of the entry's date, currency, mode and scope. */
  upsert(entry: PnlEntry): void {
    this.upsertStatement.run({
      trading_date: entry.tradingDate,
      currency: entry.currency,
      mode: entry.mode,
      strategy_id: entry.strategyId ?? '',
      realized: decimalToText(entry.realized),
      unrealized: decimalToText(entry.unrealized),
      commission: decimalToText(entry.commission),
      tax: decimalToText(entry.tax),
      updated_at: entry.updatedAt,
    });
  }

  /** Rows matching every filter given, by date. */
  list(query: PnlQuery = {}): PnlEntry[] {
    const rows = this.selectAll.all({
      from: query.from ?? '0000-00-00',
      to: query.to ?? '9999-99-99',
      currency: query.currency ?? null,
      mode: query.mode ?? null,
      any_strategy: query.strategyId === undefined ? 1 : 0,
      strategy_id: query.strategyId ?? '',
    }) as PnlRow[];
    return rows.map((r) => ({
      tradingDate: r.trading_date,
      currency: textToMember(r.currency, CURRENCIES, 'pnl_ledger.currency'),
      mode: textToMember(r.mode, TRADING_MODES, 'pnl_ledger.mode'),
      strategyId: r.strategy_id === '' ? null : r.strategy_id,
      realized: textToDecimal(r.realized, 'pnl_ledger.realized'),
      unrealized: textToDecimal(r.unrealized, 'pnl_ledger.unrealized'),
      commission: textToDecimal(r.commission, 'pnl_ledger.commission'),
      tax: textToDecimal(r.tax, 'pnl_ledger.tax'),
      updatedAt: r.updated_at,
    }));
  }
}

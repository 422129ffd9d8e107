/**
 * The exchange-rate cache: what the broker's exchange-rate endpoint answered for a currency pair at
 * a requested instant — a rate with its validity window, or "no rate for this time" (404
 * `exchange-rate-not-found`) — so that a backtest asks for the rate of a past instant once.
 *
 * Only history is kept. The current rate changes every minute, and "no rate" for a recent time may
 * only mean the broker has not published it yet, so {@link FxRateCache.store} refuses (stores
 * nothing, returns false) a rate whose window has not ended, and any answer for a time less than
 * {@link FX_HISTORY_AGE_MS} before now.
 *
 * @module
 */
import type { Clock, Decimal } from '@hoga/core';
import type Database from 'better-sqlite3';
import { decimalToText, textToDecimal } from '../codec.js';
import { StoreError, StoreErrorCode } from '../store-error.js';

/** How old a requested time must be (ms before now) for its answer to be history: a day. */
export const FX_HISTORY_AGE_MS = 86_400_000;

/** Which rate: a currency pair at a requested instant. */
export interface FxRateKey {
  /** `USD` in a USD/KRW rate (KRW per USD). */
  readonly baseCurrency: string;
  readonly quoteCurrency: string;
  /** The instant the broker was asked about (its `dateTime`), epoch ms. */
  readonly at: number;
}

/** What the broker answered for a {@link FxRateKey}. */
export type FxRateAnswer =
  | {
      readonly type: 'rate';
      readonly rate: Decimal;
      /** Start of the rate's validity window (epoch ms), when known. */
      readonly validFrom: number | null;
      /** End of the rate's validity window (epoch ms), when known. */
      readonly validUntil: number | null;
    }
  /** The broker has no rate for that time (before its history). */
  | { readonly type: 'no-rate' };

/** A cached answer, with when it was fetched. */
export type CachedFxRate = FxRateAnswer & {
  /** When the answer was stored (epoch ms, the store's clock). */
  readonly fetchedAt: number;
};

interface FxRateRow {
  rate: string | null;
  valid_from: number | null;
  valid_until: number | null;
  fetched_at: number;
}

/**
 * Reads and writes `fx_rates` (migration 9).
 *
 * @example
 * ```ts
 * const key = { baseCurrency: 'USD', quoteCurrency: 'KRW', at };
 * const cached = db.fxRates.get(key);
 * if (cached === undefined) {
 *   const answer = await client.getExchangeRate({ dateTime: formatKst(DateTime.fromMillis(at)) });
 *   db.fxRates.store(key, { type: 'rate', rate: answer.rate,
 *     validFrom: answer.validFrom.toMillis(), validUntil: answer.validUntil.toMillis() });
 * }
 * ```
 */
export class FxRateCache {
  private readonly selectOne: Database.Statement;
  private readonly upsert: Database.Statement;

  /**
   * @param db - an open, migrated connection
   * @param clock - "now" for what is history, and the stamp of `fetched_at`
   */
  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.selectOne = db.prepare(
      `SELECT rate, valid_from, valid_until, fetched_at FROM fx_rates
       WHERE base_currency = ? AND quote_currency = ? AND at = ?`,
    );
    this.upsert = db.prepare(
      `INSERT OR REPLACE INTO fx_rates
         (base_currency, quote_currency, at, rate, valid_from, valid_until, fetched_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** The cached answer for `key`, or `undefined` when the broker has not been asked yet. */
  get(key: FxRateKey): CachedFxRate | undefined {
    const row = this.selectOne.get(key.baseCurrency, key.quoteCurrency, key.at) as FxRateRow | undefined;
    if (row === undefined) return undefined;
    if (row.rate === null) return { type: 'no-rate', fetchedAt: row.fetched_at };
    return {
      type: 'rate',
      rate: textToDecimal(row.rate, 'fx_rates.rate'),
      validFrom: row.valid_from,
      validUntil: row.valid_until,
      fetchedAt: row.fetched_at,
    };
  }

  /**
   * Stores the broker's answer for `key` (replacing a cached one) when it is history: the time
   * asked about lies at least {@link FX_HISTORY_AGE_MS} before now and, for a rate, its window has
   * ended. Anything else is left out.
   *
   * @returns whether the answer was stored
   * @throws {@link StoreError} `invalid-argument` for a time that is not integer epoch ms, or a rate
   *   that is not a positive finite decimal
   */
  store(key: FxRateKey, answer: FxRateAnswer): boolean {
    assertTime(key.at, 'at');
    if (answer.type === 'rate') {
      if (!answer.rate.isFinite() || answer.rate.lte(0)) {
        throw new StoreError(
          StoreErrorCode.INVALID_ARGUMENT,
          `${key.baseCurrency}/${key.quoteCurrency} rate: expected a positive decimal, found ${answer.rate.toString()}`,
        );
      }
      if (answer.validFrom !== null) assertTime(answer.validFrom, 'validFrom');
      if (answer.validUntil !== null) assertTime(answer.validUntil, 'validUntil');
    }
    const now = this.clock.nowMs();
    if (key.at > now - FX_HISTORY_AGE_MS) return false;
    if (answer.type === 'rate' && answer.validUntil !== null && answer.validUntil > now) return false;
    const k = [key.baseCurrency, key.quoteCurrency, key.at] as const;
    if (answer.type === 'no-rate') this.upsert.run(...k, null, null, null, now);
    else {
      this.upsert.run(...k, decimalToText(answer.rate), answer.validFrom, answer.validUntil, now);
    }
    return true;
  }
}

function assertTime(ms: number, name: string): void {
  if (!Number.isSafeInteger(ms)) {
    throw new StoreError(StoreErrorCode.INVALID_ARGUMENT, `${name}: expected integer epoch ms, found ${ms}`);
  }
}

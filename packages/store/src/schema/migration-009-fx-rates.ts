/**
 * Migration 9: the exchange-rate history the broker answered, so that a backtest asks for the rate
 * of a past instant once (the endpoint is in the MARKET_INFO group: 3 requests per second). One row
 * per currency pair and requested instant: the rate, or NULL when the broker has no rate for that
 * time (404 `exchange-rate-not-found`), with the window the broker said the rate is valid in. Only
 * history is stored (see the store's `fx-rate-cache` module): the current rate changes every minute.
 *
 * @module
 */

/** The DDL of migration 9. */
export const MIGRATION_009_FX_RATES_SQL = `
  CREATE TABLE fx_rates (
    base_currency  TEXT NOT NULL,
    quote_currency TEXT NOT NULL,
    at             INTEGER NOT NULL,
    rate           TEXT,
    valid_from     INTEGER,
    valid_until    INTEGER,
    fetched_at     INTEGER NOT NULL,
    CHECK (rate IS NOT NULL OR (valid_from IS NULL AND valid_until IS NULL)),
    PRIMARY KEY (base_currency, quote_currency, at)
  ) WITHOUT ROWID;
`;

/**
 * Migration 11: the market calendars the broker answered, so that `hoga` commands run one after
 * another (each its own rate limiter) read a day's KR and US calendars once rather than once each
 * (the endpoints are in the MARKET_INFO group: 3 requests per second). One row per broker address,
 * market and date asked about: the answer as the broker gave it (JSON), whether it is final (every
 * day it holds was over when it was read) and when it was read. Which rows are used is the store's
 * `market-calendar-cache` module: a final answer always, another only briefly.
 *
 * @module
 */

/** The DDL of migration 11. */
export const MIGRATION_011_MARKET_CALENDARS_SQL = `
  CREATE TABLE market_calendars (
    broker     TEXT NOT NULL,
    market     TEXT NOT NULL CHECK (market IN ('KR', 'US')),
    date       TEXT NOT NULL,
    answer     TEXT NOT NULL,
    final      INTEGER NOT NULL CHECK (final IN (0, 1)),
    fetched_at INTEGER NOT NULL,
    PRIMARY KEY (broker, market, date)
  ) WITHOUT ROWID;
`;

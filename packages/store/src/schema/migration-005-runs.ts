/**
 * Migration 5: runs (backtest, paper, live) with their parameters and statistics, the fills they
 * made and their equity curves, under a run id.
 *
 * @module
 */

/** The DDL of migration 5. */
export const MIGRATION_005_RUNS_SQL = `
  CREATE TABLE runs (
    run_id        TEXT PRIMARY KEY,
    kind          TEXT NOT NULL CHECK (kind IN ('backtest', 'paper', 'live')),
    strategy_path TEXT,
    strategy_name TEXT NOT NULL,
    params        TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'stopped')),
    started_at    INTEGER NOT NULL,
    ended_at      INTEGER,
    stats         TEXT
  );
  CREATE INDEX runs_started ON runs (started_at);

  CREATE TABLE run_trades (
    run_id      TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    time        INTEGER NOT NULL,
    strategy_id TEXT,
    symbol      TEXT NOT NULL,
    side        TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
    quantity    TEXT NOT NULL,
    price       TEXT NOT NULL,
    currency    TEXT NOT NULL,
    commission  TEXT NOT NULL,
    tax         TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
  ) WITHOUT ROWID;

  CREATE TABLE run_equity (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    time   INTEGER NOT NULL,
    equity REAL NOT NULL,
    PRIMARY KEY (run_id, seq)
  ) WITHOUT ROWID;
`;

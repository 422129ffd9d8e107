/**
 * Migration 13: a position snapshot item's average price and realized PnL may be unknown (NULL).
 * The live order manager counts quantities only: it wrote an average of 0 and a realized PnL of 0
 * for every position, which read as figures. It now stores the broker's average purchase price
 * where its position equals the broker's holding, and NULL otherwise; realized PnL NULL. The live
 * snapshots stored before get NULL for their 0 average and their realized PnL (they were never
 * known); backtest and paper snapshots are copied as they are.
 *
 * @module
 */

/** The DDL of migration 13. */
export const MIGRATION_013_POSITION_SNAPSHOT_UNKNOWNS_SQL = `
  CREATE TABLE position_snapshot_items_new (
    snapshot_id   INTEGER NOT NULL REFERENCES position_snapshots (id) ON DELETE CASCADE,
    symbol        TEXT NOT NULL,
    market        TEXT NOT NULL,
    currency      TEXT NOT NULL,
    quantity      TEXT NOT NULL,
    average_price TEXT,
    realized_pnl  TEXT,
    PRIMARY KEY (snapshot_id, symbol)
  ) WITHOUT ROWID;
  INSERT INTO position_snapshot_items_new
    SELECT i.snapshot_id, i.symbol, i.market, i.currency, i.quantity,
      CASE WHEN s.mode = 'live' AND i.average_price IN ('0', '0.0') THEN NULL ELSE i.average_price END,
      CASE WHEN s.mode = 'live' THEN NULL ELSE i.realized_pnl END
    FROM position_snapshot_items i JOIN position_snapshots s ON s.id = i.snapshot_id;
  DROP TABLE position_snapshot_items;
  ALTER TABLE position_snapshot_items_new RENAME TO position_snapshot_items;
`;

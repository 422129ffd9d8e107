/**
 * Migration 8: the candle cache as columnar blocks, for the backtest's read path. A block holds
 * every cached candle of one series stamped in `[start_ts, end_ts)` as packed numbers in base64
 * (see the store's `candle-blocks` module for the layout, the spans and why TEXT): one row read
 * instead of one per candle. Blocks are derived data, built by the reader from `candles` when it
 * finds none; the triggers below delete the block covering any candle inserted, replaced, updated
 * or deleted (in the same statement, so in the writer's transaction), whichever code writes it, so
 * a block never outlives a change to its candles. Blocks of a series never overlap.
 *
 * @module
 */

/** Deletes the block of `series` covering `ts` (at most one: blocks never overlap). */
function deleteCoveringBlock(row: 'NEW' | 'OLD'): string {
  return `DELETE FROM candle_blocks WHERE rowid = (
      SELECT rowid FROM candle_blocks
      WHERE symbol = ${row}.symbol AND interval = ${row}.interval AND adjusted = ${row}.adjusted
        AND start_ts <= ${row}.ts
      ORDER BY start_ts DESC LIMIT 1
    ) AND end_ts > ${row}.ts;`;
}

/** The DDL of migration 8. */
export const MIGRATION_008_CANDLE_BLOCKS_SQL = `
  CREATE TABLE candle_blocks (
    symbol   TEXT NOT NULL,
    interval TEXT NOT NULL,
    adjusted INTEGER NOT NULL CHECK (adjusted IN (0, 1)),
    start_ts INTEGER NOT NULL,
    end_ts   INTEGER NOT NULL CHECK (end_ts > start_ts),
    count    INTEGER NOT NULL CHECK (count > 0),
    data     TEXT NOT NULL,
    UNIQUE (symbol, interval, adjusted, start_ts)
  );

  CREATE TRIGGER candles_insert_drops_block AFTER INSERT ON candles BEGIN
    ${deleteCoveringBlock('NEW')}
  END;

  CREATE TRIGGER candles_update_drops_blocks AFTER UPDATE ON candles BEGIN
    ${deleteCoveringBlock('OLD')}
    ${deleteCoveringBlock('NEW')}
  END;

  CREATE TRIGGER candles_delete_drops_block AFTER DELETE ON candles BEGIN
    ${deleteCoveringBlock('OLD')}
  END;
`;

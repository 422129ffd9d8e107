/**
 * `hoga db positions`: the positions the engine holds. Live: the order manager's positions (built
 * from the broker's holdings at the first start and every fill since); paper: the paper account's
 * ledger. Symbols barred from trading until their position matches the broker are marked.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { counted } from '@hoga/core';
import { PAPER_STATE_ID } from '@hoga/engine';
import { type HogaDatabase, resolveDatabasePath } from '@hoga/store';
import { directoryDatabase } from '../../runtime/database-path.js';
import { type DbCommandIo, formatRows } from './db-io.js';
import { openForReading } from './open-for-reading.js';

/** Flags of `db positions`. */
export interface DbPositionsFlags {
  readonly db?: string;
  readonly json?: boolean;
  /** Print CSV instead of a table. */
  readonly csv?: boolean;
  readonly mode?: string;
}

interface PositionRow {
  readonly symbol: string;
  readonly quantity: string;
  readonly averagePrice: string | null;
  readonly blocked: string | null;
}

function hasTable(db: HogaDatabase, name: string): boolean {
  return (
    db.connection.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
    undefined
  );
}

/**
 * Whether a live run has set the order manager's baseline (the broker's holdings at its first
 * start); before one, `om_positions` holds only the fills `hoga order` recorded, not the account.
 */
function hasLiveBaseline(db: HogaDatabase): boolean {
  if (!hasTable(db, 'om_meta')) return false;
  return db.connection.prepare("SELECT 1 FROM om_meta WHERE key = 'baseline_at'").get() !== undefined;
}

function livePositions(db: HogaDatabase): PositionRow[] {
  if (!hasTable(db, 'om_positions')) return [];
  const blocked = new Map(
    (
      db.connection.prepare('SELECT symbol, reason FROM om_blocked_symbols').all() as {
        symbol: string;
        reason: string;
      }[]
    ).map((r) => [r.symbol, r.reason]),
  );
  const rows = db.connection.prepare('SELECT symbol, quantity FROM om_positions ORDER BY symbol').all() as {
    symbol: string;
    quantity: string;
  }[];
  return rows
    .filter((r) => Number(r.quantity) !== 0 || blocked.has(r.symbol))
    .map((r) => ({
      symbol: r.symbol,
      quantity: r.quantity,
      averagePrice: null,
      blocked: blocked.get(r.symbol) ?? null,
    }));
}

function paperPositions(db: HogaDatabase): PositionRow[] {
  const ledger = db.strategyState.get(PAPER_STATE_ID, 'ledger') as
    | { holdings: Record<string, { quantity: string; averagePrice: string }> }
    | undefined;
  if (ledger === undefined) return [];
  return Object.entries(ledger.holdings)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([symbol, h]) => ({ symbol, quantity: h.quantity, averagePrice: h.averagePrice, blocked: null }));
}

/**
 * Prints the positions.
 *
 * @param flags - `--db`, `--json`, `--mode live|paper` (default live)
 * @param io - output
 */
export function dbPositions(flags: DbPositionsFlags, io: DbCommandIo): void {
  const file = resolveDatabasePath(flags.db);
  // a missing file or a directory is bad usage, exit 2, as for the other db commands (before: exit 1,
  // and a directory "unexpected error: EISDIR")
  if (file !== ':memory:' && !existsSync(file)) {
    io.failure([`no database at ${file} (give --db or HOGA_DB)`], 2, { prefix: 'hoga' });
    return;
  }
  const directory = directoryDatabase(file);
  if (directory !== undefined) {
    io.failure([directory], 2, { prefix: 'hoga' });
    return;
  }
  // read-only, as every read command: also a file the user may read but not write
  // one snapshot: the baseline, the positions and the paper ones of one moment, while a run writes
  const reading = openForReading(file, { snapshot: true });
  const db = reading.db;
  try {
    const live = flags.mode !== 'paper';
    // before the first live run, the fills of `hoga order` alone would read as positions (a sale
    // of 5 shares held as -5): nothing is listed, and stderr says where the account's are
    const baseline = !live || hasLiveBaseline(db);
    if (!baseline) {
      io.err(
        `hoga: no live run has started on this store (${file}) yet: the engine's live positions start from ` +
          "the broker's holdings at the first one (hoga holdings shows the broker's now)\n",
      );
    }
    const rows = !live ? paperPositions(db) : baseline ? livePositions(db) : [];
    // a store of paper runs: without --mode, say where their positions are (before, "no live
    // positions" alone, as if the paper runs had left nothing)
    const paperHeld = live && rows.length === 0 ? paperPositions(db).length : 0;
    if (paperHeld > 0) {
      io.err(
        `hoga: the paper account on this store holds ${counted(paperHeld, 'position')}: ` +
          'hoga db positions --mode paper lists them\n',
      );
    }
    if (flags.json === true) {
      io.out(`${JSON.stringify(rows, null, 2)}\n`);
      return;
    }
    io.out(
      formatRows(
        ['symbol', 'quantity', 'avg price', 'blocked'],
        rows.map((r) => [r.symbol, r.quantity, r.averagePrice ?? '', r.blocked ?? '']),
        flags,
        `no ${live ? 'live' : 'paper'} positions in ${file}`,
      ),
    );
  } finally {
    reading.close();
  }
}

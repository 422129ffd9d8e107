/**
 * Store benchmark: fills recorded per second (one per transaction and in batches), order state
 * updates per second and durable order intents per second, each next to the raw better-sqlite3
 * rate of the same rows on the same schema and pragmas with no repository code around it, measured
 * in the same run. Inputs (Decimals for the store, strings for raw) are built before timing.
 * Prints rates and ratios; asserts nothing about wall time.
 *
 * Run: `pnpm --filter @hoga/store bench`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Decimal, VirtualClock } from '@hoga/core';
import { HogaDatabase } from '../src/hoga-database.js';
import type { NewFill } from '../src/repositories/fill-repository.js';
import type { NewOrder, OrderUpdate } from '../src/repositories/order-record.js';
import { sampleOrder } from '../test/support.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-bench-'));
let files = 0;
let serial = 0;
const clock = new VirtualClock('2026-11-23T09:00:00+09:00');
const ROUNDS = 3;
const ORDERS_FOR_UPDATES = 1_000;

function order(): NewOrder {
  return sampleOrder(`bench-${serial++}`, {
    strategyId: 'bench',
    mode: 'live',
    quantity: new Decimal('1000000'),
    createdAt: clock.nowMs(),
  });
}

const RAW_FILL_SQL = `INSERT OR IGNORE INTO fills (order_id, broker_order_id, symbol, side, quantity, price, commission,
  commission_currency, tax, filled_at, cumulative_quantity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const RAW_UPDATE_SQL =
  'UPDATE orders SET state = ?, updated_at = ?, filled_quantity = ?, average_fill_price = ? WHERE client_order_id = ?';
const RAW_INTENT_SQL = `INSERT INTO orders (client_order_id, strategy_id, mode, symbol, market, currency, side,
  order_type, time_in_force, price, quantity, amount, state, created_at, updated_at)
  VALUES (?, 'bench', 'live', '005930', 'KR', 'KRW', 'BUY', 'LIMIT', 'DAY', '72100', '1000000', NULL, 'INITIALIZED', ?, ?)`;

function fillsFor(orderId: number, n: number): NewFill[] {
  return Array.from({ length: n }, (_, i) => ({
    orderId,
    brokerOrderId: 'B-1',
    symbol: '005930',
    side: 'BUY',
    quantity: new Decimal(1),
    price: new Decimal('72100.5'),
    commission: new Decimal('10.815'),
    commissionCurrency: 'KRW',
    tax: null,
    filledAt: clock.nowMs() + i,
    cumulativeQuantity: new Decimal(i + 1),
  }));
}

function rawFillRows(orderId: number, n: number): unknown[][] {
  return Array.from({ length: n }, (_, i) => [
    orderId,
    'B-1',
    '005930',
    'BUY',
    '1',
    '72100.5',
    '10.815',
    'KRW',
    null,
    clock.nowMs() + i,
    String(i + 1),
  ]);
}

function updatesFor(n: number): [string, OrderUpdate][] {
  return Array.from({ length: n }, (_, i) => [
    `bench-${i % ORDERS_FOR_UPDATES}`,
    {
      state: 'PARTIALLY_FILLED',
      updatedAt: i,
      filledQuantity: new Decimal(i),
      averageFillPrice: new Decimal('72100.5'),
    },
  ]);
}

function seedOrders(db: HogaDatabase): void {
  serial = 0;
  db.durableTransaction(() => {
    for (let i = 0; i < ORDERS_FOR_UPDATES; i++) db.orders.recordIntent(order());
  });
}

/** One side of a comparison: `prepare` (untimed) builds the input of `n` rows, `run` (timed) writes it. */
interface Side<T> {
  readonly prepare: (db: HogaDatabase, n: number) => T;
  readonly run: (db: HogaDatabase, input: T) => void;
}

/** Rows per second of one round on a fresh file, after a small warm-up on it. */
function once<T>(n: number, side: Side<T>): number {
  const db = HogaDatabase.open(join(dir, `bench-${files++}.sqlite`), { clock });
  try {
    side.run(db, side.prepare(db, Math.min(200, n)));
    const input = side.prepare(db, n);
    const start = performance.now();
    side.run(db, input);
    return n / ((performance.now() - start) / 1_000);
  } finally {
    db.close();
  }
}

/**
 * Best rows per second of the store and of raw SQLite over {@link ROUNDS} rounds, alternating the
 * two so that a change in the machine's load hits both alike.
 */
function compare<S, R>(n: number, store: Side<S>, raw: Side<R>): { store: number; raw: number } {
  const best = { store: 0, raw: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    best.store = Math.max(best.store, once(n, store));
    best.raw = Math.max(best.raw, once(n, raw));
  }
  return best;
}

interface Row {
  readonly name: string;
  readonly store: number;
  readonly raw: number;
  readonly aim: string;
}
const rows: Row[] = [];

rows.push({
  name: 'fills, one per transaction',
  aim: '≥ 20k/s',
  ...compare(
    10_000,
    {
      prepare: (db, n) => fillsFor(db.orders.recordIntent(order()).id, n),
      run: (db, fills) => {
        for (const f of fills) db.fills.record(f);
      },
    },
    {
      prepare: (db, n) => rawFillRows(db.orders.recordIntent(order()).id, n),
      run: (db, rowsIn) => {
        const stmt = db.connection.prepare(RAW_FILL_SQL);
        for (const row of rowsIn) stmt.run(...row);
      },
    },
  ),
});

rows.push({
  name: 'fills, batches of 1,000',
  aim: '≥ 200k/s',
  ...compare(
    50_000,
    {
      prepare: (db, n) => fillsFor(db.orders.recordIntent(order()).id, n),
      run: (db, fills) => {
        for (let i = 0; i < fills.length; i += 1_000) db.fills.recordMany(fills.slice(i, i + 1_000));
      },
    },
    {
      prepare: (db, n) => rawFillRows(db.orders.recordIntent(order()).id, n),
      run: (db, rowsIn) => {
        const stmt = db.connection.prepare(RAW_FILL_SQL);
        const batch = db.connection.transaction((slice: unknown[][]) => {
          for (const row of slice) stmt.run(...row);
        });
        for (let i = 0; i < rowsIn.length; i += 1_000) batch(rowsIn.slice(i, i + 1_000));
      },
    },
  ),
});

rows.push({
  name: 'order state updates, one per transaction',
  aim: '',
  ...compare(
    10_000,
    {
      prepare: (db, n) => {
        if (db.orders.get('bench-0') === null) seedOrders(db);
        return updatesFor(n);
      },
      run: (db, list) => {
        for (const [id, update] of list) db.orders.updateState(id, update);
      },
    },
    {
      prepare: (db, n) => {
        if (db.orders.get('bench-0') === null) seedOrders(db);
        return Array.from({ length: n }, (_, i) => [
          'PARTIALLY_FILLED',
          i,
          String(i),
          '72100.5',
          `bench-${i % ORDERS_FOR_UPDATES}`,
        ]);
      },
      run: (db, list) => {
        const stmt = db.connection.prepare(RAW_UPDATE_SQL);
        for (const row of list) stmt.run(...row);
      },
    },
  ),
});

rows.push({
  name: 'order intents (synchronous=FULL)',
  aim: '',
  ...compare(
    500,
    {
      prepare: (_, n) => Array.from({ length: n }, order),
      run: (db, list) => {
        for (const o of list) db.orders.recordIntent(o);
      },
    },
    {
      prepare: (_, n) => Array.from({ length: n }, () => `raw-${serial++}`),
      run: (db, ids) => {
        db.connection.pragma('synchronous = FULL');
        const stmt = db.connection.prepare(RAW_INTENT_SQL);
        for (const id of ids) stmt.run(id, 0, 0);
        db.connection.pragma('synchronous = NORMAL');
      },
    },
  ),
});

const fmt = (x: number): string => `${Math.round(x).toLocaleString('en-US')}/s`;
console.log(
  `store benchmark: rows per second, best of ${ROUNDS} fresh files; raw = bare better-sqlite3, same pragmas`,
);
console.log(`${'measure'.padEnd(42)}${'store'.padStart(12)}${'raw'.padStart(12)}${'ratio'.padStart(8)}  aim`);
for (const r of rows) {
  const ratio = (r.store / r.raw).toFixed(2);
  console.log(
    `${r.name.padEnd(42)}${fmt(r.store).padStart(12)}${fmt(r.raw).padStart(12)}${ratio.padStart(8)}  ratio ≥ 0.5${r.aim === '' ? '' : `, ${r.aim}`}`,
  );
}
rmSync(dir, { recursive: true, force: true });

/**
 * Helpers shared by the store's tests: temporary directories and sample records.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal, VirtualClock } from '@hoga/core';
import Database from 'better-sqlite3';
import { HogaDatabase } from '../src/hoga-database.js';
import type { NewFill } from '../src/repositories/fill-repository.js';
import type { NewOrder } from '../src/repositories/order-record.js';
import { migrate } from '../src/schema/migrator.js';

/** A fresh temporary directory, and a function removing it. */
export function tempDir(prefix = 'hoga-store-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** 2026-11-23T09:00:00+09:00 in epoch ms. */
export const T0 = Date.parse('2026-11-23T09:00:00+09:00');

/** Opens a fresh database file in a new temp dir with a virtual clock at {@link T0}. */
export function openTemp(): { db: HogaDatabase; file: string; clock: VirtualClock; cleanup: () => void } {
  const { dir, cleanup } = tempDir();
  const file = join(dir, 'hoga.sqlite');
  const clock = new VirtualClock(T0);
  const db = HogaDatabase.open(file, { clock });
  return {
    db,
    file,
    clock,
    cleanup: () => {
      db.close();
      cleanup();
    },
  };
}

/** A KR limit buy of 10 × 72,100 with the given `clientOrderId`; fields overridable. */
export function sampleOrder(clientOrderId: string, overrides: Partial<NewOrder> = {}): NewOrder {
  return {
    clientOrderId,
    strategyId: 'sma-cross',
    mode: 'paper',
    symbol: '005930',
    market: 'KR',
    currency: 'KRW',
    side: 'BUY',
    orderType: 'LIMIT',
    timeInForce: 'DAY',
    price: new Decimal('72100'),
    quantity: new Decimal('10'),
    amount: null,
    createdAt: T0,
    ...overrides,
  };
}

/** A fill of `quantity` at `price` bringing the order to `cumulative`. */
export function sampleFill(
  orderId: number,
  quantity: string,
  cumulative: string,
  overrides: Partial<NewFill> = {},
): NewFill {
  return {
    orderId,
    brokerOrderId: 'B-1',
    symbol: '005930',
    side: 'BUY',
    quantity: new Decimal(quantity),
    price: new Decimal('72100'),
    commission: new Decimal('10.8150'),
    commissionCurrency: 'KRW',
    tax: null,
    filledAt: T0 + 1_000,
    cumulativeQuantity: new Decimal(cumulative),
    ...overrides,
  };
}

/**
 * A database file in `dir` as an older hoga left it: migrated to `version` only, holding one
 * strategy state row (`s`/`k` = 1) that a later migration must keep, then handed to `setup` (rows
 * of that version, reads of the file unmigrated) before it is closed. Answers the file's path.
 */
export function fileAtVersion(
  dir: string,
  version: number,
  setup: (raw: Database.Database) => void = () => {},
): string {
  const file = join(dir, `v${version}.sqlite`);
  const raw = new Database(file);
  try {
    migrate(raw, file, T0, version);
    raw
      .prepare("INSERT INTO strategy_state (strategy_id, key, value, updated_at) VALUES ('s', 'k', '1', 1)")
      .run();
    setup(raw);
  } finally {
    raw.close();
  }
  return file;
}

import { Decimal } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp, T0 } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';
import type { PnlEntry } from './pnl-ledger-repository.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

const day = (tradingDate: string, overrides: Partial<PnlEntry> = {}): PnlEntry => ({
  tradingDate,
  currency: 'KRW',
  mode: 'live',
  strategyId: null,
  realized: new Decimal('15000'),
  unrealized: new Decimal('-2300.5'),
  commission: new Decimal('108.15'),
  tax: new Decimal('0'),
  updatedAt: T0,
  ...overrides,
});

describe('PnlLedgerRepository', () => {
  describe('.upsert', () => {
    it('keeps one row per date, currency, mode and scope, the last write winning', () => {
      db.pnl.upsert(day('2026-11-23'));
      db.pnl.upsert(day('2026-11-23', { realized: new Decimal('16000'), updatedAt: T0 + 1 }));
      db.pnl.upsert(day('2026-11-23', { currency: 'USD', realized: new Decimal('12.34') }));
      db.pnl.upsert(day('2026-11-23', { strategyId: 's1' }));
      const rows = db.pnl.list();
      expect(rows).toHaveLength(3);
      expect(rows.find((r) => r.currency === 'KRW' && r.strategyId === null)).toEqual(
        day('2026-11-23', { realized: new Decimal('16000'), updatedAt: T0 + 1 }),
      );
    });
  });

  describe('.list', () => {
    it('filters by inclusive date range, currency, mode and scope', () => {
      for (const d of ['2026-11-20', '2026-11-23', '2026-11-24']) db.pnl.upsert(day(d));
      db.pnl.upsert(day('2026-11-23', { currency: 'USD' }));
      db.pnl.upsert(day('2026-11-23', { mode: 'paper', strategyId: 's1' }));
      const dates = (q: Parameters<typeof db.pnl.list>[0]) =>
        db.pnl.list(q).map((r) => `${r.tradingDate} ${r.currency}`);
      expect(dates({ from: '2026-11-23', to: '2026-11-23', mode: 'live' })).toEqual([
        '2026-11-23 KRW',
        '2026-11-23 USD',
      ]);
      expect(dates({ currency: 'USD' })).toEqual(['2026-11-23 USD']);
      expect(dates({ strategyId: 's1' })).toEqual(['2026-11-23 KRW']);
      expect(dates({ strategyId: null, from: '2026-11-24' })).toEqual(['2026-11-24 KRW']);
    });
  });
});

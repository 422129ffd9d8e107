import { Decimal, VirtualClock } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileAtVersion, openTemp, T0, tempDir } from '../../test/support.js';
import { HogaDatabase } from '../hoga-database.js';
import { LATEST_SCHEMA_VERSION } from '../schema/migrations.js';
import { FX_HISTORY_AGE_MS, type FxRateAnswer, type FxRateKey } from './fx-rate-cache.js';

const DAY = 86_400_000;
const MINUTE = 60_000;
/** 2026-10-01T00:00:00+09:00: long enough before {@link T0} to be history. */
const OCT1 = Date.parse('2026-10-01T00:00:00+09:00');
const usdKrw = (at: number): FxRateKey => ({ baseCurrency: 'USD', quoteCurrency: 'KRW', at });
const rateAt = (rate: string, validFrom: number, validUntil = validFrom + MINUTE): FxRateAnswer => ({
  type: 'rate',
  rate: new Decimal(rate),
  validFrom,
  validUntil,
});

let db: HogaDatabase;
let clock: VirtualClock;
let cleanup: () => void;
beforeEach(() => {
  ({ db, clock, cleanup } = openTemp());
});
afterEach(() => cleanup());

describe('FxRateCache', () => {
  describe('.store', () => {
    it('keeps a rate of the past with its window, and gives it back to the last digit', () => {
      expect(db.fxRates.store(usdKrw(OCT1), rateAt('1385.27', OCT1))).toBe(true);
      const inverse = { baseCurrency: 'KRW', quoteCurrency: 'USD', at: OCT1 };
      expect(db.fxRates.store(inverse, rateAt('0.00072188', OCT1))).toBe(true);

      const cached = db.fxRates.get(usdKrw(OCT1));
      expect(cached).toMatchObject({
        type: 'rate',
        validFrom: OCT1,
        validUntil: OCT1 + MINUTE,
        fetchedAt: T0,
      });
      expect(cached?.type === 'rate' && cached.rate.toFixed()).toBe('1385.27');
      const small = db.fxRates.get(inverse);
      expect(small?.type === 'rate' && small.rate.equals(new Decimal('0.00072188'))).toBe(true);
      // decimal TEXT in the file, never REAL
      const stored = db.connection.prepare('SELECT rate FROM fx_rates ORDER BY base_currency').pluck().all();
      expect(stored).toEqual(['0.00072188', '1385.27']);
    });

    it('keeps "no rate for this time" apart from "not asked yet"', () => {
      const before2020 = Date.parse('2019-06-01T00:00:00+09:00');
      expect(db.fxRates.store(usdKrw(before2020), { type: 'no-rate' })).toBe(true);
      expect(db.fxRates.get(usdKrw(before2020))).toEqual({ type: 'no-rate', fetchedAt: T0 });
      expect(db.fxRates.get(usdKrw(before2020 + 1))).toBeUndefined();
      expect(db.fxRates.get({ baseCurrency: 'KRW', quoteCurrency: 'USD', at: before2020 })).toBeUndefined();
    });

    it('replaces the answer cached for the same pair and time', () => {
      db.fxRates.store(usdKrw(OCT1), { type: 'no-rate' });
      clock.advance(5 * MINUTE);
      db.fxRates.store(usdKrw(OCT1), rateAt('1390', OCT1));
      expect(db.fxRates.get(usdKrw(OCT1))).toMatchObject({ type: 'rate', fetchedAt: T0 + 5 * MINUTE });
    });

    it.each([
      ['a rate of a time less than a day ago', T0 - FX_HISTORY_AGE_MS + 1, rateAt('1380', T0 - DAY + 1)],
      ['a rate of now (its window not ended)', T0, rateAt('1380', T0 - 30_000, T0 + 30_000)],
      ['a rate whose window has not ended', OCT1, rateAt('1380', OCT1, T0 + 1)],
      ['"no rate" for a time less than a day ago', T0 - FX_HISTORY_AGE_MS + 1, { type: 'no-rate' } as const],
      ['"no rate" for a time in the future', T0 + DAY, { type: 'no-rate' } as const],
    ])('refuses %s: not history yet, nothing stored', (_, at, answer) => {
      expect(db.fxRates.store(usdKrw(at), answer)).toBe(false);
      expect(db.fxRates.get(usdKrw(at))).toBeUndefined();
      expect(db.connection.prepare('SELECT count(*) FROM fx_rates').pluck().get()).toBe(0);
    });

    it('takes a time exactly a day ago, and a rate without a window when its time is history', () => {
      const dayAgo = T0 - FX_HISTORY_AGE_MS;
      expect(db.fxRates.store(usdKrw(dayAgo), rateAt('1380.5', dayAgo))).toBe(true);
      const noWindow = {
        type: 'rate',
        rate: new Decimal('1379'),
        validFrom: null,
        validUntil: null,
      } as const;
      expect(db.fxRates.store(usdKrw(OCT1), noWindow)).toBe(true);
      expect(db.fxRates.get(usdKrw(OCT1))).toMatchObject({ validFrom: null, validUntil: null });
    });

    it.each([
      [
        'a time that is not integer ms',
        usdKrw(OCT1 + 0.5),
        rateAt('1380', OCT1),
        'at: expected integer epoch ms',
      ],
      ['a zero rate', usdKrw(OCT1), rateAt('0', OCT1), 'expected a positive decimal, found 0'],
      ['a NaN rate', usdKrw(OCT1), rateAt('NaN', OCT1), 'expected a positive decimal, found NaN'],
    ])('throws invalid-argument for %s', (_, key, answer, message) => {
      expect(() => db.fxRates.store(key, answer)).toThrow(
        expect.objectContaining({ code: 'invalid-argument', message: expect.stringContaining(message) }),
      );
    });
  });

  describe('migration 9', () => {
    let dir: string;
    let removeDir: () => void;
    beforeEach(() => {
      ({ dir, cleanup: removeDir } = tempDir());
    });
    afterEach(() => removeDir());

    it('brings a version-8 file up with an empty cache, keeping what the file held', () => {
      const file = fileAtVersion(dir, 8);

      const opened = HogaDatabase.open(file, { clock: new VirtualClock(T0) });
      try {
        expect(opened.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
        expect(opened.strategyState.get('s', 'k')).toBe(1);
        expect(opened.fxRates.get(usdKrw(OCT1))).toBeUndefined();
        expect(opened.fxRates.store(usdKrw(OCT1), rateAt('1385.27', OCT1))).toBe(true);
        const meta = opened.connection
          .prepare("SELECT value FROM meta WHERE key = 'migration.9'")
          .pluck()
          .get();
        expect(JSON.parse(meta as string)).toMatchObject({ appliedAt: T0 });
      } finally {
        opened.close();
      }
      const again = HogaDatabase.open(file, { clock: new VirtualClock(T0) });
      try {
        const cached = again.fxRates.get(usdKrw(OCT1));
        expect(cached?.type === 'rate' && cached.rate.toFixed()).toBe('1385.27');
      } finally {
        again.close();
      }
    });
  });
});

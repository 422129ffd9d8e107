import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { FxProcess } from './fx.js';
import { SimMarket } from './sim-market.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON-ready payloads
type Json = any;

const q = (params: Record<string, string>): URLSearchParams => new URLSearchParams(params);
const USD_KRW = { baseCurrency: 'USD', quoteCurrency: 'KRW' };

function rate(at: string, params: Record<string, string>): Json {
  return new SimMarket({ seed: 7, clock: new VirtualClock(at) }).exchangeRate(q(params));
}

function failure(at: string, params: Record<string, string>): SimApiError {
  try {
    rate(at, params);
  } catch (error) {
    if (error instanceof SimApiError) return error;
    throw error;
  }
  throw new Error('expected a SimApiError');
}

describe(FxProcess, () => {
  describe('.usdKrw', () => {
    it('stays within 1,300–1,450 KRW over years of minutes', () => {
      const fx = new FxProcess(7);
      const start = Date.parse('2020-01-01T00:00:00+09:00');
      for (let i = 0; i < 1500; i++) {
        const value = fx.usdKrw(start + i * 41 * 3_600_000 + i * 60_000).toNumber();
        expect(value).toBeGreaterThanOrEqual(1300);
        expect(value).toBeLessThanOrEqual(1450);
      }
    });
  });

  describe('.window (via SimMarket.exchangeRate)', () => {
    it('answers the window of the current minute', () => {
      const result = rate('2026-11-23T10:00:42+09:00', USD_KRW);
      expect(result).toEqual(
        expect.objectContaining({
          baseCurrency: 'USD',
          quoteCurrency: 'KRW',
          validFrom: '2026-11-23T10:00:00.000+09:00',
          validUntil: '2026-11-23T10:01:00.000+09:00',
        }),
      );
      expect(['UP', 'DOWN', 'EQUAL']).toContain(result.rateChangeType);
      const bp = ((Number(result.rate) - Number(result.midRate)) / Number(result.midRate)) * 10_000;
      expect(Number(result.basisPoint)).toBeCloseTo(bp, 1);
      expect(result.rateChangeType).toBe(bp > 0 ? 'UP' : bp < 0 ? 'DOWN' : 'EQUAL');
    });

    it('refreshes every minute and holds within the minute', () => {
      const a = rate('2026-11-23T10:00:01+09:00', USD_KRW);
      const b = rate('2026-11-23T10:00:59+09:00', USD_KRW);
      expect(a).toEqual(b);
      const rates = new Set<string>();
      for (let m = 0; m < 30; m++) {
        rates.add(rate(`2026-11-23T10:${String(m).padStart(2, '0')}:00+09:00`, USD_KRW).rate);
      }
      expect(rates.size).toBeGreaterThan(5);
    });

    it('answers a past instant given by dateTime', () => {
      const result = rate('2026-11-23T10:00:00+09:00', { ...USD_KRW, dateTime: '2024-03-04T12:34:56+09:00' });
      expect(result.validFrom).toBe('2024-03-04T12:34:00.000+09:00');
    });

    it('gives the inverse for KRW→USD', () => {
      const usd = rate('2026-11-23T10:00:00+09:00', USD_KRW);
      const krw = rate('2026-11-23T10:00:00+09:00', { baseCurrency: 'KRW', quoteCurrency: 'USD' });
      expect(Number(krw.rate) * Number(usd.rate)).toBeCloseTo(1, 5);
      const flipped: Record<string, string> = { UP: 'DOWN', DOWN: 'UP', EQUAL: 'EQUAL' };
      expect(krw.rateChangeType).toBe(flipped[usd.rateChangeType]);
    });

    it.each([
      [
        { baseCurrency: 'EUR', quoteCurrency: 'KRW' },
        { field: 'baseCurrency', allowedValues: ['KRW', 'USD'] },
      ],
      [
        { baseCurrency: 'USD', quoteCurrency: 'JPY' },
        { field: 'quoteCurrency', allowedValues: ['KRW', 'USD'] },
      ],
      [{ quoteCurrency: 'KRW' }, { field: 'baseCurrency', allowedValues: ['KRW', 'USD'] }],
      [{ baseCurrency: 'USD', quoteCurrency: 'USD' }, { field: 'baseCurrency,quoteCurrency' }],
      [{ ...USD_KRW, dateTime: 'now' }, { field: 'dateTime' }],
    ])('rejects %j with 400 and %j', (params, data) => {
      const error = failure('2026-11-23T10:00:00+09:00', params);
      expect([error.status, error.code]).toEqual([400, 'invalid-request']);
      expect(error.data).toEqual(data);
    });

    it.each([
      ['2019-12-31T23:59:59+09:00'],
      ['2026-11-23T10:05:00+09:00'], // the future has no rate yet
    ])('answers 404 exchange-rate-not-found for %s', (dateTime) => {
      const error = failure('2026-11-23T10:00:00+09:00', { ...USD_KRW, dateTime });
      expect([error.status, error.code]).toEqual([404, 'exchange-rate-not-found']);
    });

    it('answers for the first instant of its history', () => {
      const result = rate('2026-11-23T10:00:00+09:00', { ...USD_KRW, dateTime: '2020-01-01T00:00:00+09:00' });
      expect(result.validFrom).toBe('2020-01-01T00:00:00.000+09:00');
    });
  });
});

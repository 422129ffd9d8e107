/**
 * The USD/KRW display rate: a new rate every simulated minute, from a keyed random walk over
 * days (the day's mid rate, kept within 1,300–1,450) and a small keyed walk within the day.
 *
 * @module
 */
import { Decimal, formatDecimal } from '@hoga/core';
import { brownianAt } from './brownian.js';
import { kstIso } from './candles.js';
import { hash32, Stream } from './rng.js';
import { dayNumber, kstDay, kstMs } from './trading-calendar.js';

const MINUTE_MS = 60_000;

/** First instant with a rate: 2020-01-01T00:00:00+09:00. */
export const FX_HISTORY_START_MS = kstMs(dayNumber('2020-01-01'), 0);

/** One rate window as the wire shows it. */
export interface ExchangeRateJson {
  readonly baseCurrency: 'KRW' | 'USD';
  readonly quoteCurrency: 'KRW' | 'USD';
  readonly rate: string;
  readonly midRate: string;
  readonly basisPoint: string;
  readonly rateChangeType: 'UP' | 'EQUAL' | 'DOWN';
  readonly validFrom: string;
  readonly validUntil: string;
}

/** The seeded USD/KRW process. */
export class FxProcess {
  private readonly key: number;

  /** @param seed - market seed */
  constructor(seed: number) {
    this.key = hash32(seed, Stream.FX);
  }

  /** Mid (base) rate of the KST day containing `ms`, 2 decimals. */
  midRate(ms: number): Decimal {
    const dn = kstDay(ms);
    const w = brownianAt(this.key, Stream.FX, dn) - brownianAt(this.key, Stream.FX, dayNumber('2026-11-20'));
    return new Decimal((1375 + 70 * Math.tanh(0.08 * w - 0.05)).toFixed(2));
  }

  /** KRW per USD in the minute containing `ms`, 2 decimals, within 1,300–1,450. */
  usdKrw(ms: number): Decimal {
    const dn = kstDay(ms);
    const minute = Math.floor((ms - kstMs(dn, 0)) / MINUTE_MS);
    const mid = this.midRate(ms).toNumber();
    const w = brownianAt(hash32(this.key, dn), Stream.FX, minute);
    const rate = Math.min(1450, Math.max(1300, mid * Math.exp((0.004 / Math.sqrt(1440)) * w)));
    return new Decimal(rate.toFixed(2));
  }

  /** The rate window containing `ms` for a currency pair (KRW→USD is the inverse). */
  window(ms: number, base: 'KRW' | 'USD', quote: 'KRW' | 'USD'): ExchangeRateJson {
    const from = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
    let rate = this.usdKrw(ms);
    let mid = this.midRate(ms);
    if (base === 'KRW') {
      rate = new Decimal(1).dividedBy(rate).toDecimalPlaces(8);
      mid = new Decimal(1).dividedBy(mid).toDecimalPlaces(8);
    }
    const bp = rate.minus(mid).dividedBy(mid).times(10_000).toDecimalPlaces(2);
    const cmp = rate.comparedTo(mid);
    return {
      baseCurrency: base,
      quoteCurrency: quote,
      rate: formatDecimal(rate),
      midRate: formatDecimal(mid),
      basisPoint: formatDecimal(bp),
      rateChangeType: cmp > 0 ? 'UP' : cmp < 0 ? 'DOWN' : 'EQUAL',
      validFrom: kstIso(from),
      validUntil: kstIso(from + MINUTE_MS),
    };
  }
}

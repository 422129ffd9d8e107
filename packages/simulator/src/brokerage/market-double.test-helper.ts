/**
 * A controllable stand-in for the market in brokerage unit tests: fixed
 * prices you set, books of a volume you set, weekday KR/US sessions (November
 * hours, no DST). Test-only; not exported by the package.
 */
import { Decimal, KST_ZONE, roundToTick, type VirtualClock } from '@hoga/core';
import { DateTime } from 'luxon';
import type {
  BookLevel,
  BookSnapshot,
  MarketModel,
  OrderSession,
  SimInstrument,
} from '../market/market-model.js';
import { coreInstrument } from './order-validation.js';

function inst(symbol: string, over: Partial<SimInstrument> = {}): SimInstrument {
  const us = !/^\d/.test(symbol);
  return {
    symbol,
    name: symbol,
    englishName: symbol,
    isinCode: `XX${symbol}`,
    country: us ? 'US' : 'KR',
    exchange: us ? 'NASDAQ' : 'KOSPI',
    securityType: 'STOCK',
    currency: us ? 'USD' : 'KRW',
    leverageFactor: null,
    nxtSupported: !us,
    suspended: false,
    prerequisiteRequired: false,
    ...over,
  };
}

/** Minutes since KST midnight. */
function minuteOfDay(at: DateTime): number {
  const k = at.setZone(KST_ZONE);
  return k.hour * 60 + k.minute;
}

export class MarketDouble implements MarketModel {
  readonly prices = new Map<string, Decimal>([
    ['005930', new Decimal(72000)],
    ['000660', new Decimal(180000)],
    ['069500', new Decimal(35000)],
    ['000020', new Decimal(9000)],
    ['AAPL', new Decimal('180.00')],
    ['NVDA', new Decimal('130.00')],
    ['SOXL', new Decimal('30.00')],
  ]);
  readonly references = new Map(this.prices);
  /** Visible volume of every book level. */
  levelVolume = new Decimal(100);
  /** Book levels per side. */
  levels = 10;
  private readonly list = [
    inst('005930'),
    inst('000660'),
    inst('069500', { securityType: 'ETF', nxtSupported: false }),
    inst('000020', { suspended: true }),
    inst('AAPL'),
    inst('NVDA'),
    inst('SOXL', { securityType: 'ETF', leverageFactor: '3', prerequisiteRequired: true }),
  ];

  constructor(readonly clock: VirtualClock) {}

  instruments(): readonly SimInstrument[] {
    return this.list;
  }

  instrument(symbol: string): SimInstrument | undefined {
    return this.list.find((i) => i.symbol === symbol);
  }

  setPrice(symbol: string, price: Decimal | string): void {
    this.prices.set(symbol, new Decimal(price));
  }

  lastPrice(symbol: string): Decimal {
    const price = this.prices.get(symbol);
    if (!price) throw new Error(`MarketDouble: no price for ${symbol}`);
    return price;
  }

  book(symbol: string): BookSnapshot {
    const instrument = this.instrument(symbol)!;
    const last = this.lastPrice(symbol);
    const core = coreInstrument(instrument);
    const asks: BookLevel[] = [];
    const bids: BookLevel[] = [];
    let ask = roundToTick(core, last.plus(last.times('0.0001')), 'up');
    let bid = roundToTick(core, last.minus(last.times('0.0001')), 'down');
    for (let i = 0; i < this.levels; i += 1) {
      asks.push({ price: ask, volume: this.levelVolume });
      bids.push({ price: bid, volume: this.levelVolume });
      ask = roundToTick(core, ask.plus(ask.times('0.001')), 'up');
      bid = roundToTick(core, bid.minus(bid.times('0.001')), 'down');
    }
    return { asks, bids };
  }

  priceLimits(symbol: string): { upper: Decimal; lower: Decimal } | null {
    const instrument = this.instrument(symbol)!;
    if (instrument.country === 'US') return null;
    const reference = this.referencePrice(symbol);
    const core = coreInstrument(instrument);
    return {
      upper: roundToTick(core, reference.times('1.3'), 'down'),
      lower: roundToTick(core, reference.times('0.7'), 'up'),
    };
  }

  referencePrice(symbol: string): Decimal {
    return this.references.get(symbol) ?? this.lastPrice(symbol);
  }

  orderSession(country: 'KR' | 'US', at: DateTime): OrderSession | null {
    const k = at.setZone(KST_ZONE);
    const m = minuteOfDay(k);
    if (country === 'KR') {
      if (k.weekday > 5) return null;
      if (m >= 8 * 60 && m < 8 * 60 + 50) return 'PRE_MARKET';
      if (m >= 9 * 60 && m < 15 * 60 + 30) return 'REGULAR';
      if (m >= 15 * 60 + 30 && m < 20 * 60) return 'AFTER_MARKET';
      return null;
    }
    if (this.usRegularSession(at)) return 'REGULAR';
    if (m >= 10 * 60 && m < 17 * 60 && k.weekday <= 5) return 'DAY_MARKET';
    if (m >= 18 * 60 && m < 23 * 60 + 30 && k.weekday <= 5) return 'PRE_MARKET';
    if (m >= 6 * 60 && m < 10 * 60 && k.weekday >= 2 && k.weekday <= 6) return 'AFTER_MARKET';
    return null;
  }

  usRegularSession(at: DateTime): { start: DateTime; end: DateTime } | null {
    const k = at.setZone(KST_ZONE);
    const m = minuteOfDay(k);
    const startDay =
      m >= 23 * 60 + 30 ? k.startOf('day') : m < 6 * 60 ? k.minus({ days: 1 }).startOf('day') : null;
    if (!startDay || startDay.weekday > 5) return null;
    const start = startDay.set({ hour: 23, minute: 30 });
    return { start, end: start.plus({ hours: 6, minutes: 30 }) };
  }

  usdKrw(): Decimal {
    return new Decimal(1400);
  }
}

/** A Monday in KR regular hours. */
export const KR_MORNING = '2026-11-23T10:00:00+09:00';
/** The same Monday inside the US regular session (00:30 KST Tuesday). */
export const US_NIGHT = '2026-11-24T00:30:00+09:00';

/** An instant in KST for tests. */
export function kst(iso: string): DateTime {
  return DateTime.fromISO(iso, { zone: KST_ZONE });
}

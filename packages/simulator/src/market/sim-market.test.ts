import { Decimal, isOnTick, VirtualClock } from '@hoga/core';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { SimMarket } from './sim-market.js';
import { UNIVERSE } from './universe.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON-ready payloads
type Json = any;

const KR_OPEN = '2026-11-23T10:00:00+09:00';
const q = (params: Record<string, string>): URLSearchParams => new URLSearchParams(params);

function market(start = KR_OPEN, seed = 7): { m: SimMarket; clock: VirtualClock } {
  const clock = new VirtualClock(start);
  return { m: new SimMarket({ seed, clock }), clock };
}

function apiError(fn: () => unknown): SimApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SimApiError) return error;
    throw error;
  }
  throw new Error('expected a SimApiError');
}

const ALL = UNIVERSE.map((s) => s.symbol);

describe(SimMarket, () => {
  describe('.instruments', () => {
    it('lists generated KR stocks after the fixed universe when asked for extra symbols, each quoted on its tick grid', () => {
      const clock = new VirtualClock(KR_OPEN);
      const m = new SimMarket({ seed: 7, clock, extraSymbols: 3 });
      const list = m.instruments();
      expect(list.map((i) => i.symbol)).toEqual([...ALL, '400001', '400002', '400003']);
      for (const symbol of ['400001', '400002', '400003']) {
        const price = m.lastPrice(symbol, DateTime.fromISO(KR_OPEN));
        expect(price.gt(0)).toBe(true);
        expect(isOnTick({ symbol, market: 'KR', currency: 'KRW', securityType: 'STOCK' }, price)).toBe(true);
      }
      expect(market().m.instruments()).toHaveLength(ALL.length);
    });

    it('lists at least six KR and six US instruments with the required members', () => {
      const list = market().m.instruments();
      expect(list.filter((i) => i.country === 'KR').length).toBeGreaterThanOrEqual(6);
      expect(list.filter((i) => i.country === 'US').length).toBeGreaterThanOrEqual(6);
      for (const symbol of ['005930', '000660', '035420', '069500', 'AAPL', 'NVDA', 'TSLA', 'SOXL']) {
        expect(list.map((i) => i.symbol)).toContain(symbol);
      }
      expect(list.some((i) => i.country === 'KR' && !i.nxtSupported)).toBe(true);
      expect(list.some((i) => i.suspended)).toBe(true);
      const soxl = list.find((i) => i.symbol === 'SOXL');
      expect(soxl?.leverageFactor).toBe('3');
      expect(soxl?.prerequisiteRequired).toBe(true);
    });
  });

  describe('.prices', () => {
    it('answers one entry per requested symbol, duplicates included, in order', () => {
      const result: Json = market().m.prices(q({ symbols: '005930,AAPL,005930' }));
      expect(result.map((p: Json) => p.symbol)).toEqual(['005930', 'AAPL', '005930']);
      expect(result[0]).toEqual(result[2]);
      expect(result[0].currency).toBe('KRW');
      expect(result[1].currency).toBe('USD');
    });

    it('puts every price on its tick grid', () => {
      const { m } = market();
      const result: Json = m.prices(q({ symbols: ALL.join(',') }));
      for (const [i, p] of result.entries()) {
        const spec = UNIVERSE[i];
        if (spec === undefined) throw new Error('missing spec');
        expect(isOnTick(spec.instrument, new Decimal(p.lastPrice))).toBe(true);
      }
    });

    it('keeps 005930 between 55,000 and 75,000 KRW at the test date for several seeds', () => {
      for (const seed of [1, 7, 42, 1234]) {
        const { m } = market(KR_OPEN, seed);
        const price = m.lastPrice('005930', DateTime.fromISO(KR_OPEN));
        expect(price.toNumber()).toBeGreaterThan(55_000);
        expect(price.toNumber()).toBeLessThan(75_000);
      }
    });

    it('is deterministic for a seed and differs between seeds', () => {
      const a: Json = market(KR_OPEN, 7).m.prices(q({ symbols: ALL.join(',') }));
      const b: Json = market(KR_OPEN, 7).m.prices(q({ symbols: ALL.join(',') }));
      const c: Json = market(KR_OPEN, 8).m.prices(q({ symbols: ALL.join(',') }));
      expect(a).toEqual(b);
      expect(a).not.toEqual(c);
    });

    it('gives the same history whatever was evaluated before', () => {
      const { m: walked, clock } = market('2026-11-20T09:00:00+09:00');
      for (let i = 0; i < 24 * 4; i++) {
        clock.advance(15 * 60_000);
        walked.prices(q({ symbols: ALL.join(',') }));
      }
      const fresh = market(clock.now().toISO() ?? '').m;
      const params = q({ symbol: 'TSLA', interval: '1m', count: '200' });
      expect(walked.candles(params)).toEqual(fresh.candles(params));
      expect(walked.prices(q({ symbols: ALL.join(',') }))).toEqual(
        fresh.prices(q({ symbols: ALL.join(',') })),
      );
    });

    it('matches the close of the newest minute candle', () => {
      const { m, clock } = market();
      for (let i = 0; i < 20; i++) {
        clock.advance(7_919);
        const [price]: Json = m.prices(q({ symbols: '000660' }));
        const page: Json = m.candles(q({ symbol: '000660', interval: '1m', count: '5' }));
        const traded = page.candles.find((c: Json) => c.volume !== '0');
        expect(price.lastPrice).toBe(traded.closePrice);
      }
    });

    it('moves with the clock during the session', () => {
      const { m, clock } = market();
      const seen = new Set<string>();
      for (let i = 0; i < 60; i++) {
        clock.advance(60_000);
        seen.add((m.prices(q({ symbols: '005930' })) as Json)[0].lastPrice);
      }
      expect(seen.size).toBeGreaterThan(1);
    });

    it.each([
      [{ symbols: '' }, 'symbols', { min: 1, max: 200 }],
      [{}, 'symbols', { min: 1, max: 200 }],
      [{ symbols: Array(201).fill('AAPL').join(',') }, 'symbols', { min: 1, max: 200 }],
      [{ symbols: 'AAPL,,MSFT' }, 'symbols', undefined],
      [{ symbols: 'AAPL;MSFT' }, 'symbols', undefined],
    ])('rejects %j with 400 naming the field', (params, field, constraint) => {
      const error = apiError(() => market().m.prices(q(params)));
      expect(error.status).toBe(400);
      expect(error.code).toBe('invalid-request');
      expect(error.data?.field).toBe(field);
      expect(error.data?.constraint).toEqual(constraint);
    });

    it('accepts exactly 200 symbols', () => {
      const result: Json = market().m.prices(q({ symbols: Array(200).fill('NVDA').join(',') }));
      expect(result).toHaveLength(200);
    });

    it('answers 404 stock-not-found when any symbol is unknown', () => {
      const error = apiError(() => market().m.prices(q({ symbols: 'AAPL,NOPE' })));
      expect([error.status, error.code]).toEqual([404, 'stock-not-found']);
    });
  });

  describe('.setPrice', () => {
    it('jumps the last price now and later prices continue from the new level', () => {
      const { m, clock } = market();
      m.setPrice('005930', new Decimal(70_000));
      expect(m.lastPrice('005930', clock.now()).toFixed()).toBe('70000');
      clock.advance(10 * 60_000);
      const later = m.lastPrice('005930', clock.now()).toNumber();
      expect(Math.abs(later / 70_000 - 1)).toBeLessThan(0.03);
    });

    it('rounds KR prices down onto the tick grid and into the price limits', () => {
      const { m, clock } = market();
      m.setPrice('005930', new Decimal(70_049));
      expect(m.lastPrice('005930', clock.now()).toFixed()).toBe('70000');
      m.setPrice('005930', new Decimal(10_000_000));
      const limits = m.priceLimits('005930', clock.now());
      expect(m.lastPrice('005930', clock.now())).toEqual(limits?.upper);
    });

    it('moves US prices freely on the cent grid', () => {
      const { m, clock } = market('2026-11-23T23:40:00+09:00');
      m.setPrice('AAPL', new Decimal('150.057'));
      expect(m.lastPrice('AAPL', clock.now()).toFixed()).toBe('150.05');
    });

    it('takes effect outside trading hours too', () => {
      const { m, clock } = market('2026-11-23T21:00:00+09:00');
      m.setPrice('035420', new Decimal(220_000));
      expect(m.lastPrice('035420', clock.now()).toFixed()).toBe('220000');
      clock.set('2026-11-24T10:00:00+09:00');
      expect(Math.abs(m.lastPrice('035420', clock.now()).toNumber() / 220_000 - 1)).toBeLessThan(0.08);
    });

    it('leaves the candles before the jump unchanged', () => {
      const { m } = market('2026-11-23T11:00:00+09:00');
      const params = q({
        symbol: '005930',
        interval: '1m',
        count: '30',
        before: '2026-11-23T11:00:00+09:00',
      });
      const before: Json = m.candles(params);
      m.setPrice('005930', new Decimal(60_000));
      expect(m.candles(params)).toEqual(before);
      const after: Json = m.candles(q({ symbol: '005930', interval: '1m', count: '1' }));
      expect(after.candles[0].closePrice).toBe('60000');
    });

    it('rejects unknown symbols and non-positive prices', () => {
      const { m } = market();
      expect(apiError(() => m.setPrice('NOPE', new Decimal(1))).code).toBe('stock-not-found');
      expect(apiError(() => m.setPrice('AAPL', new Decimal(0))).code).toBe('invalid-request');
    });
  });

  describe('.orderbook', () => {
    it('shows ten levels a side, one tick apart, asks ascending and bids descending', () => {
      const { m } = market();
      const book: Json = m.orderbook(q({ symbol: '005930' }));
      expect(book.currency).toBe('KRW');
      expect(book.timestamp).toBe('2026-11-23T10:00:00.000+09:00');
      expect(book.asks).toHaveLength(10);
      expect(book.bids).toHaveLength(10);
      const asks = book.asks.map((l: Json) => Number(l.price));
      const bids = book.bids.map((l: Json) => Number(l.price));
      expect(asks).toEqual([...asks].sort((a, b) => a - b));
      expect(bids).toEqual([...bids].sort((a, b) => b - a));
      expect((asks[0] as number) - (bids[0] as number)).toBe(100); // 005930 tick at ~65,000 KRW
      for (let i = 1; i < 10; i++) expect(asks[i] - asks[i - 1]).toBe(100);
      const last = Number((m.prices(q({ symbols: '005930' })) as Json)[0].lastPrice);
      expect([asks[0], bids[0]]).toContain(last);
      for (const l of [...book.asks, ...book.bids]) expect(Number(l.volume)).toBeGreaterThan(0);
    });

    it('steps the KR ETF by 5 won and sub-dollar US stocks by $0.0001', () => {
      const { m } = market('2026-11-23T23:40:00+09:00');
      const etf: Json = m.orderbook(q({ symbol: '069500' }));
      expect(Number(etf.asks[1].price) - Number(etf.asks[0].price)).toBe(5);
      const penny: Json = m.orderbook(q({ symbol: 'ZOM' }));
      expect(new Decimal(penny.asks[1].price).minus(penny.asks[0].price).toFixed()).toBe('0.0001');
      const aapl: Json = m.orderbook(q({ symbol: 'AAPL' }));
      expect(new Decimal(aapl.asks[1].price).minus(aapl.asks[0].price).toFixed()).toBe('0.01');
    });

    it('answers 400 for a missing or malformed symbol and 404 for an unknown one', () => {
      const { m } = market();
      expect(apiError(() => m.orderbook(q({}))).data?.field).toBe('symbol');
      expect(apiError(() => m.orderbook(q({ symbol: 'A B' }))).status).toBe(400);
      expect(apiError(() => m.orderbook(q({ symbol: 'NOPE' }))).code).toBe('stock-not-found');
    });
  });

  describe('.trades', () => {
    it('lists the current day only, newest first, 50 by default', () => {
      const { m } = market();
      const trades: Json = m.trades(q({ symbol: '005930' }));
      expect(trades).toHaveLength(50);
      const stamps = trades.map((t: Json) => t.timestamp);
      expect(stamps).toEqual([...stamps].sort().reverse());
      for (const s of stamps) {
        expect(s.startsWith('2026-11-23T')).toBe(true);
        expect(s <= '2026-11-23T10:00:00.000+09:00').toBe(true);
      }
      expect(trades[0].price).toBe((m.prices(q({ symbols: '005930' })) as Json)[0].lastPrice);
    });

    it('honours count and stops at the start of the day', () => {
      const { m } = market('2026-11-23T09:00:30+09:00');
      const few: Json = m.trades(q({ symbol: '069500', count: '3' }));
      expect(few.length).toBeLessThanOrEqual(3);
      for (const t of few) expect(t.timestamp >= '2026-11-23T09:00:00.000+09:00').toBe(true);
      const early: Json = market('2026-11-23T07:00:00+09:00').m.trades(q({ symbol: '005930' }));
      expect(early).toEqual([]);
    });

    it.each(['0', '51', 'ten', '1.5'])('rejects count=%s with the constraint', (count) => {
      const error = apiError(() => market().m.trades(q({ symbol: '005930', count })));
      expect(error.data).toEqual(
        expect.objectContaining({ field: 'count', constraint: { min: 1, max: 50 } }),
      );
    });
  });

  describe('.priceLimits', () => {
    it('gives ±30% of the reference price rounded inward to ticks for KR', () => {
      const { m, clock } = market();
      const payload: Json = m.priceLimits(q({ symbol: '005930' }));
      const ref = m.referencePrice('005930', clock.now());
      const spec = UNIVERSE[0];
      if (spec === undefined) throw new Error('missing spec');
      const upper = new Decimal(payload.upperLimitPrice);
      const lower = new Decimal(payload.lowerLimitPrice);
      expect(upper.lessThanOrEqualTo(ref.times('1.3'))).toBe(true);
      expect(upper.plus(100).greaterThan(ref.times('1.3'))).toBe(true);
      expect(lower.greaterThanOrEqualTo(ref.times('0.7'))).toBe(true);
      expect(isOnTick(spec.instrument, upper) && isOnTick(spec.instrument, lower)).toBe(true);
      expect(payload.currency).toBe('KRW');
    });

    it('gives null limits for US stocks', () => {
      const { m, clock } = market();
      expect(m.priceLimits(q({ symbol: 'AAPL' }))).toEqual(
        expect.objectContaining({ upperLimitPrice: null, lowerLimitPrice: null, currency: 'USD' }),
      );
      expect(m.priceLimits('AAPL', clock.now())).toBeNull();
    });

    it('keeps every KR trade of the day within the limits', () => {
      const { m, clock } = market('2026-11-23T19:59:00+09:00');
      for (const spec of UNIVERSE.filter((s) => s.country === 'KR')) {
        const limits = m.priceLimits(spec.symbol, clock.now());
        const trades: Json = m.trades(q({ symbol: spec.symbol }));
        for (const t of trades) {
          expect(new Decimal(t.price).greaterThanOrEqualTo(limits?.lower ?? 0)).toBe(true);
          expect(new Decimal(t.price).lessThanOrEqualTo(limits?.upper ?? 0)).toBe(true);
        }
      }
    });
  });

  describe('.referencePrice', () => {
    it('equals the previous trading day closing auction price', () => {
      const { m } = market();
      const daily: Json = m.candles(q({ symbol: '005930', interval: '1d', count: '2' }));
      const ref = m.referencePrice('005930', DateTime.fromISO(KR_OPEN));
      expect(ref.toFixed()).toBe(daily.candles[1].closePrice);
    });
  });

  describe('.orderSession', () => {
    it('follows the calendar of each country', () => {
      const { m } = market();
      expect(m.orderSession('KR', DateTime.fromISO(KR_OPEN))).toBe('regularMarket');
      expect(m.orderSession('US', DateTime.fromISO(KR_OPEN))).toBe('dayMarket');
      expect(m.orderSession('KR', DateTime.fromISO('2026-11-22T10:00:00+09:00'))).toBeNull();
    });
  });

  describe('.usRegularSession', () => {
    it('returns the session bounds as DateTimes', () => {
      const span = market().m.usRegularSession(DateTime.fromISO('2026-11-24T00:00:00+09:00'));
      expect(span?.start.toISO()).toBe('2026-11-23T23:30:00.000+09:00');
      expect(span?.end.toISO()).toBe('2026-11-24T06:00:00.000+09:00');
    });
  });

  describe('.stocks', () => {
    it('answers StockInfo per distinct known symbol and leaves unknown symbols out', () => {
      const result: Json = market().m.stocks(q({ symbols: '005930,AAPL,NOPE,005930' }));
      expect(result.map((s: Json) => s.symbol)).toEqual(['005930', 'AAPL']);
      expect(result[0].koreanMarketDetail).toEqual({
        liquidationTrading: false,
        nxtSupported: true,
        krxTradingSuspended: false,
        nxtTradingSuspended: false,
      });
      expect(result[1].koreanMarketDetail).toBeNull();
      expect(result[1]).toEqual(
        expect.objectContaining({ market: 'NASDAQ', status: 'ACTIVE', delistDate: null, currency: 'USD' }),
      );
    });

    it('flags the suspended stock and the stock without NXT', () => {
      const result: Json = market().m.stocks(q({ symbols: '900110,069500,SOXL' }));
      expect(result[0].koreanMarketDetail.krxTradingSuspended).toBe(true);
      expect(result[1].koreanMarketDetail).toEqual(
        expect.objectContaining({ nxtSupported: false, nxtTradingSuspended: null }),
      );
      expect(result[1].securityType).toBe('ETF');
      expect(result[2]).toEqual(expect.objectContaining({ leverageFactor: '3', market: 'AMEX' }));
    });

    it('rejects more than 200 symbols with the constraint', () => {
      const error = apiError(() => market().m.stocks(q({ symbols: Array(201).fill('KO').join(',') })));
      expect(error.data).toEqual({ field: 'symbols', constraint: { min: 1, max: 200 } });
    });
  });

  describe('.warnings', () => {
    it.each([
      ['2026-11-23T10:00:00+09:00', '247540', ['INVESTMENT_WARNING']],
      ['2026-10-03T10:00:00+09:00', '247540', ['OVERHEATED']],
      ['2026-11-23T10:00:00+09:00', '000660', ['OVERHEATED']],
      ['2026-11-27T23:59:00+09:00', '000660', ['OVERHEATED']],
      ['2026-11-28T00:00:00+09:00', '000660', []],
      ['2026-11-23T10:00:00+09:00', 'AAPL', []],
    ])('at %s shows the active warnings of %s: %j', (at, symbol, types) => {
      const result: Json = market(at).m.warnings(symbol);
      expect(result.map((w: Json) => w.warningType)).toEqual(types);
    });

    it('sorts active warnings by startDate descending', () => {
      const result: Json = market('2026-11-25T10:00:00+09:00').m.warnings('247540');
      const starts = result.map((w: Json) => w.startDate);
      expect(starts).toEqual([...starts].sort().reverse());
    });

    it('answers 404 for an unknown stock', () => {
      expect(apiError(() => market().m.warnings('NOPE')).code).toBe('stock-not-found');
    });
  });
});

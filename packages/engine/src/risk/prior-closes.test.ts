/**
 * The last prices before the trading day, read when a run starts: the book gets each symbol's
 * last minute candle before the day began as a price of that time (so the day's first price makes
 * it the reference); a symbol the book has a price of is not read, and one with no usable candle
 * keeps the fallback (its first price of the day), the run going on.
 */
import { Decimal } from '@hoga/core';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../backtest/backtest-fixture.test-helper.js';
import { logPriorCloses, type PriorCloseSource, seedPriorCloses } from './prior-closes.js';
import { RiskBook } from './risk-book.js';
import { bookFill, T0 } from './risk-fixture.test-helper.js';

/** Monday 2026-11-23 08:00 KST: the trading day of {@link T0} began then. */
const DAY_START = Date.parse('2026-11-23T08:00:00+09:00');
/** Friday 2026-11-20 20:00 KST: the last KR minute candle before it. */
const FRIDAY_LAST = Date.parse('2026-11-20T20:00:00+09:00');

/** A source answering from `answers` by symbol (a function throws), recording its queries. */
function source(
  answers: Record<string, readonly { readonly atMs: number; readonly close: string }[] | Error>,
): PriorCloseSource & { readonly queries: unknown[] } {
  const queries: unknown[] = [];
  return {
    queries,
    getCandles(symbol, query) {
      queries.push({ symbol, ...query });
      const answer = answers[symbol];
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve({
        candles: (answer ?? []).map((c) => ({
          timestamp: DateTime.fromMillis(c.atMs),
          closePrice: new Decimal(c.close),
        })),
      });
    },
  };
}

describe('seedPriorCloses', () => {
  it("gives the book each symbol's last minute candle before the day began, read with the day's start as `before`", async () => {
    const book = new RiskBook();
    const broker = source({ '005930': [{ atMs: FRIDAY_LAST, close: '70000' }] });
    const found = await seedPriorCloses(book, broker, ['005930'], T0, 8);
    expect(broker.queries).toEqual([
      { symbol: '005930', interval: '1m', count: 1, before: '2026-11-23T08:00:00.000+09:00' },
    ]);
    expect(found).toEqual([{ symbol: '005930', price: new Decimal(70_000), atMs: FRIDAY_LAST }]);
    expect(book.lastPrices().get('005930')?.toFixed()).toBe('70000');
  });

  it('reads no symbol the book already has a price of, and each symbol once', async () => {
    const book = new RiskBook();
    book.notePrice('AAPL', new Decimal('230.5'), T0);
    const broker = source({ '005930': [{ atMs: FRIDAY_LAST, close: '70000' }] });
    await seedPriorCloses(book, broker, ['AAPL', '005930', '005930'], T0, 8);
    expect(broker.queries.map((q) => (q as { symbol: string }).symbol)).toEqual(['005930']);
    expect(book.lastPrices().get('AAPL')?.toFixed()).toBe('230.5');
  });

  it('keeps the fallback for a failed read, an empty page or a candle of the day itself', async () => {
    const book = new RiskBook();
    const broker = source({
      '000660': new Error('stock-not-found: 000660'),
      '035420': [],
      '051910': [{ atMs: DAY_START + 60_000, close: '300000' }],
    });
    const found = await seedPriorCloses(book, broker, ['000660', '035420', '051910'], T0, 8);
    expect(found).toEqual([
      { symbol: '000660', missing: 'stock-not-found: 000660' },
      { symbol: '035420', missing: 'no candle before the trading day began' },
      { symbol: '051910', missing: 'no candle before the trading day began' },
    ]);
    expect(book.lastPrices().size).toBe(0);
  });

  it('stops at a read aborted by the run stopping', async () => {
    const stop = new AbortController();
    stop.abort();
    const broker = source({ '005930': new Error('aborted') });
    await expect(
      seedPriorCloses(new RiskBook(), broker, ['005930'], T0, 8, { signal: stop.signal }),
    ).rejects.toThrow('aborted');
  });

  it("makes the candle's close the reference of the day: a carried position's loss counts from it", async () => {
    const friday = Date.parse('2026-11-20T10:00:00+09:00');
    const fresh = async (seed: boolean): Promise<string> => {
      const book = new RiskBook();
      bookFill(book, 'BUY', 100, 70_000, 0, friday);
      if (seed) {
        await seedPriorCloses(
          book,
          source({ '005930': [{ atMs: FRIDAY_LAST, close: '70000' }] }),
          ['005930'],
          T0,
          8,
        );
      }
      // the engine's first price of Monday, 10:00: 12,000 won under Friday's close
      book.notePrice('005930', new Decimal(58_000), T0);
      return book.dailyPnlKrw('s1', T0).toFixed();
    };
    expect(await fresh(true)).toBe('-1200000');
    // without it, the first price is the reference: the fall before the engine started goes uncounted
    expect(await fresh(false)).toBe('0');
  });

  it('tells each reference read (debug) and warns of a failed read, not of a symbol with no candle', async () => {
    const broker = source({
      '005930': [{ atMs: FRIDAY_LAST, close: '70000' }],
      '000660': new Error('stock-not-found: 000660'),
      '035420': [],
    });
    const found = await seedPriorCloses(new RiskBook(), broker, ['005930', '000660', '035420'], T0, 8);
    const { logger, records } = recordingLogger('debug');
    logPriorCloses(logger, found);
    expect(records.map((r) => [r.level, r.msg])).toEqual([
      [20, "005930: today's PnL counts from 70000, its last price before the day began"],
      [
        40,
        "000660: no price before the day began (stock-not-found: 000660): today's PnL counts from its first price",
      ],
    ]);
    expect(records[0]).toMatchObject({ component: 'risk', at: '2026-11-20T20:00:00.000+09:00' });
  });
});

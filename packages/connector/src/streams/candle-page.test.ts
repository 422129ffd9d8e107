/**
 * How far a poll of minute candles reads back ({@link readCandlePage}), over a broker answering
 * from a candle every minute: one request on the normal path; after a pause, the pages before the
 * newest one (`before`) until they reach the newest candle handed over; at most 10 pages, the
 * candles beyond them told as the gap.
 */
import { Decimal, VirtualClock } from '@hoga/core';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { Candle, CandlePage, CandleQuery } from '../index.js';
import { MAX_CATCH_UP_PAGES, readCandlePage } from './candle-page.js';

const MINUTE = 60_000;
const NOW = Date.parse('2026-11-26T15:00:00+09:00');

function candle(endMs: number): Candle {
  const p = new Decimal(100);
  return {
    timestamp: DateTime.fromMillis(endMs),
    openPrice: p,
    highPrice: p,
    lowPrice: p,
    closePrice: p,
    volume: new Decimal(1),
    currency: 'KRW',
    raw: {},
  };
}

/** A broker with a minute candle for every minute up to `NOW` (and the one in progress), and its requests. */
function broker() {
  const asked: CandleQuery[] = [];
  const client = {
    clock: new VirtualClock(NOW),
    getCandles: async (_symbol: string, query: CandleQuery): Promise<CandlePage> => {
      asked.push(query);
      const top = query.before === undefined ? NOW + MINUTE : Date.parse(query.before) - MINUTE;
      const candles = Array.from({ length: query.count ?? 100 }, (_, i) => candle(top - i * MINUTE));
      const oldest = candles[candles.length - 1]?.timestamp ?? null;
      return { candles, nextBefore: oldest, raw: { nextBefore: oldest?.toISO() } } as CandlePage;
    },
  };
  return { client, asked };
}

const read = (client: ReturnType<typeof broker>['client'], newest: number) =>
  readCandlePage(client as never, '005930', '1m', newest, new AbortController().signal);

/** The completed candles' end stamps from just after `newest` to `NOW`, newest first. */
function since(newest: number): number[] {
  const out: number[] = [];
  for (let t = NOW; t > newest; t -= MINUTE) out.push(t);
  return out;
}

describe('readCandlePage', () => {
  it('asks once on the normal path', async () => {
    const { client, asked } = broker();
    const poll = await read(client, NOW - 3 * MINUTE);
    expect(asked).toHaveLength(1);
    expect(poll.gap).toBeNull();
  });

  it('pages back to the newest candle handed over after a pause (500 minutes: three requests)', async () => {
    const { client, asked } = broker();
    const newest = NOW - 500 * MINUTE;
    const poll = await read(client, newest);
    expect(asked.map((q) => q.before === undefined)).toEqual([true, false, false]);
    const stamps = poll.candles.map((c) => c.timestamp.toMillis()).filter((t) => t > newest && t <= NOW);
    expect(stamps).toEqual(since(newest));
    expect(poll.gap).toBeNull();
  });

  it('reads at most 10 pages and tells the candles before them as the gap', async () => {
    const { client, asked } = broker();
    const newest = NOW - 5_000 * MINUTE;
    const poll = await read(client, newest);
    expect(asked).toHaveLength(MAX_CATCH_UP_PAGES);
    // 2,000 candles: the one in progress and the 1,999 completed before it
    expect(poll.candles).toHaveLength(2_000);
    const oldest = NOW - 1_998 * MINUTE;
    expect(poll.gap).toEqual({
      afterMs: newest,
      beforeMs: oldest,
      cause: 'the 2,000 candles a catch-up reads at most were read',
    });
  });
});

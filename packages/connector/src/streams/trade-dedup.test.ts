import { Decimal } from '@hoga/core';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { Trade } from '../schemas/market-data.js';
import { diffTrades } from './trade-dedup.js';

/** Trade number `n` of the day: one second apart, price varying. */
function trade(n: number): Trade {
  const timestamp = DateTime.fromISO('2026-11-23T10:00:00+09:00', { setZone: true }).plus({ seconds: n });
  return {
    price: new Decimal(100 + (n % 7)),
    volume: new Decimal(1 + (n % 3)),
    timestamp,
    currency: 'KRW',
    raw: {},
  };
}

/** The newest `count` trades up to number `last`, newest first (what /trades answers). */
const poll = (last: number, count = 50) =>
  Array.from({ length: Math.min(count, last + 1) }, (_, i) => trade(last - i));

const numbers = (trades: readonly Trade[]) =>
  trades.map((t) => t.timestamp.diff(trade(0).timestamp, 'seconds').seconds);

describe('diffTrades', () => {
  it.each([
    {
      label: 'first poll: everything, oldest first',
      previous: null,
      last: 4,
      fresh: [0, 1, 2, 3, 4],
      gap: false,
    },
    { label: 'nothing new', previous: 60, last: 60, fresh: [], gap: false },
    { label: 'three new trades', previous: 60, last: 63, fresh: [61, 62, 63], gap: false },
    {
      label: '49 new trades still overlap',
      previous: 60,
      last: 109,
      fresh: numbers(poll(109).slice(0, 49)).reverse(),
      gap: false,
    },
    {
      label: '50 new trades: no overlap, no proof of a gap',
      previous: 60,
      last: 110,
      fresh: numbers(poll(110)).reverse(),
      gap: true,
    },
    {
      label: '80 new trades: a gap',
      previous: 60,
      last: 140,
      fresh: numbers(poll(140)).reverse(),
      gap: true,
    },
  ])('$label', ({ previous, last, fresh, gap }) => {
    const diff = diffTrades(previous === null ? null : poll(previous), poll(last), 50);
    expect(numbers(diff.fresh)).toEqual(fresh);
    expect(diff.gap).toBe(gap);
  });

  it('flags a gap when a full page follows a poll that listed no trade (before: all fresh, no gap)', () => {
    // the poll before the open listed nothing; the first poll after it lists a full page of 50:
    // more may have been printed meanwhile, as after any full page without overlap
    expect(diffTrades([], poll(79), 50).gap).toBe(true);
    expect(numbers(diffTrades([], poll(79), 50).fresh)).toEqual(numbers(poll(79)).reverse());
    expect(diffTrades([], poll(10), 50).gap).toBe(false);
  });

  it('emits each trade exactly once over a sequence of overlapping polls', () => {
    const seen: number[] = [];
    let previous: Trade[] | null = null;
    for (const last of [3, 3, 10, 40, 41, 89, 90]) {
      const latest = poll(last);
      seen.push(...numbers(diffTrades(previous, latest, 50).fresh));
      previous = latest;
    }
    expect(seen).toEqual(Array.from({ length: 91 }, (_, i) => i));
  });

  it('treats a shorter list without overlap (a new day) as all fresh and no gap', () => {
    const diff = diffTrades(
      poll(60),
      poll(2).map((t) => ({ ...t, timestamp: t.timestamp.plus({ days: 1 }) })),
      50,
    );
    expect(diff.fresh).toHaveLength(3);
    expect(diff.gap).toBe(false);
  });

  it('finds repeated trades early in the day (a short previous list is the whole day so far)', () => {
    // the broker's timestamps may be whole seconds: two trades of one share at one price in one
    // second look the same. Before, the list [X, Y, X, Y] after [X, Y] matched at the top and the
    // two new trades were skipped
    const [x, y] = [trade(1), trade(0)] as [Trade, Trade];
    expect(diffTrades([x, y], [x, y, x, y], 50).fresh).toEqual([y, x]);
    expect(diffTrades([x], [x, x], 50).fresh).toEqual([x]);
    // a full previous page still overlaps at the top when nothing new came
    expect(diffTrades(poll(60), poll(60), 50).fresh).toEqual([]);
  });
});

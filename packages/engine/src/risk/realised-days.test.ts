import { describe, expect, it } from 'vitest';
import { FillSlots, RealisedDays } from './realised-days.js';
import type { Holding } from './risk-book-records.js';

const DAY_MS = 86_400_000;
/** A trading day's start (08:00 KST, 2026-11-23). */
const D0 = Date.parse('2026-11-23T08:00:00+09:00');

function setup() {
  const days = new RealisedDays();
  const slots = new FillSlots(() => new Map<string, Holding>());
  return { days, s1: slots.of('s1', 'KRW'), s2: slots.of('s2', 'KRW') };
}

describe('RealisedDays', () => {
  it('keeps the realised PnL of the newest two trading days only, over a run of many days', () => {
    const { days, s1, s2 } = setup();
    for (let d = 0; d < 60; d++) {
      const day = D0 + d * DAY_MS;
      days.book(s1, day, 1_000, null);
      days.book(s2, day, -300, null);
      days.book(s1, day, 500, null);
    }
    // a run of 60 days keeps 2 tables, not 60
    expect(days.size).toBe(2);
    const today = D0 + 59 * DAY_MS;
    expect(days.sumInt(today, null, 1400)).toBe(1_200);
    expect(days.sumInt(today, 's1', 1400)).toBe(1_500);
    // the day before stays readable (a local clock a little behind the fill's day)
    expect(days.sumInt(today - DAY_MS, 's2', 1400)).toBe(-300);
    expect(days.table(today - 2 * DAY_MS)).toBeUndefined();
  });

  it('books a late fill of an older day without touching the newest days', () => {
    const { days, s1 } = setup();
    days.book(s1, D0, 100, null);
    days.book(s1, D0 + DAY_MS, 200, null);
    days.book(s1, D0 + 2 * DAY_MS, 300, null);
    days.book(s1, D0, 7, null);
    expect(days.sumInt(D0 + 2 * DAY_MS, null, 1400)).toBe(300);
    expect(days.sumInt(D0 + DAY_MS, null, 1400)).toBe(200);
    days.book(s1, D0 + 2 * DAY_MS, 1, null);
    expect(days.sumInt(D0 + 2 * DAY_MS, null, 1400)).toBe(301);
    // the next new day forgets the late one with the others
    days.book(s1, D0 + 3 * DAY_MS, 400, null);
    expect(days.size).toBe(2);
  });
});

import {
  type Bar,
  type BarInterval,
  type Market,
  type MarketCalendar,
  parseKrMarketCalendar,
  parseUsMarketCalendar,
  VirtualClock,
} from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { DailyBarGate } from './daily-bar-gate.js';

const regular = (start: string, end: string) => ({ startTime: start, endTime: end });
const krDay = (date: string) => ({
  date,
  integrated: {
    preMarket: regular(`${date}T08:00:00+09:00`, `${date}T09:00:00+09:00`),
    regularMarket: regular(`${date}T09:00:00+09:00`, `${date}T15:30:00+09:00`),
    afterMarket: regular(`${date}T15:30:00+09:00`, `${date}T20:00:00+09:00`),
  },
});
/** Read on Saturday 2026-11-28: Friday the 27th before, Monday the 30th next. */
const KR = parseKrMarketCalendar({
  previousBusinessDay: krDay('2026-11-27'),
  today: { date: '2026-11-28', integrated: null },
  nextBusinessDay: krDay('2026-11-30'),
});
const usDay = (date: string, next: string) => ({
  date,
  dayMarket: null,
  preMarket: regular(`${date}T18:00:00+09:00`, `${date}T23:30:00+09:00`),
  regularMarket: regular(`${date}T23:30:00+09:00`, `${next}T06:00:00+09:00`),
  afterMarket: regular(`${next}T06:00:00+09:00`, `${next}T08:00:00+09:00`),
});
/** The US trading days of 2026-11-23 to 11-25 (KST times). */
const US = parseUsMarketCalendar({
  previousBusinessDay: usDay('2026-11-23', '2026-11-24'),
  today: usDay('2026-11-24', '2026-11-25'),
  nextBusinessDay: usDay('2026-11-25', '2026-11-26'),
});

function bar(symbol: string, ts: string, interval: BarInterval = '1d'): Bar {
  const t = Date.parse(ts);
  return { symbol, interval, ts: t, closeTime: t, open: 1, high: 1, low: 1, close: 1, volume: 1 };
}

/** A gate on a virtual clock at `at` with `calendars`; `handed` lists `symbol@KST date` in hand-over order. */
function gateAt(at: string, calendars: Partial<Record<Market, MarketCalendar>> = { KR, US }) {
  const clock = new VirtualClock(at);
  const gate = new DailyBarGate({ clock, calendar: (m) => calendars[m] });
  const handed: string[] = [];
  const hand = (b: Bar): void => {
    handed.push(`${b.symbol}@${new Date(b.ts + 9 * 3_600_000).toISOString().slice(0, 10)}`);
  };
  const to = (iso: string): void => {
    clock.set(Date.parse(iso));
    gate.release();
  };
  return { gate, clock, hand, handed, to };
}

describe('DailyBarGate', () => {
  it('keeps a KR daily bar completed at midnight until the next regular open, past a weekend', () => {
    const g = gateAt('2026-11-28T00:00:05+09:00');
    g.gate.offer(bar('005930', '2026-11-27T00:00:00+09:00'), g.hand);
    expect(g.handed).toEqual([]);
    g.to('2026-11-28T12:00:00+09:00');
    g.to('2026-11-30T08:59:59.999+09:00');
    expect(g.handed).toEqual([]);
    expect(g.gate.waiting).toBe(1);
    g.to('2026-11-30T09:00:00+09:00');
    expect(g.handed).toEqual(['005930@2026-11-27']);
    expect(g.gate.waiting).toBe(0);
  });

  it('hands a daily bar over at once in the regular session, and a minute bar at any time', () => {
    const g = gateAt('2026-11-30T10:00:00+09:00');
    g.gate.offer(bar('005930', '2026-11-27T00:00:00+09:00'), g.hand);
    const night = gateAt('2026-11-28T02:00:00+09:00');
    night.gate.offer(bar('005930', '2026-11-27T20:00:00+09:00', '1m'), night.hand);
    expect(g.handed).toEqual(['005930@2026-11-27']);
    expect(night.handed).toEqual(['005930@2026-11-27']);
  });

  it('hands a daily bar over at once while its market has no calendar yet', () => {
    const g = gateAt('2026-11-28T00:00:05+09:00', {});
    g.gate.offer(bar('005930', '2026-11-27T00:00:00+09:00'), g.hand);
    expect(g.handed).toEqual(['005930@2026-11-27']);
  });

  it('keeps a US bar for the US regular open (23:30 KST) while KR bars go at the KR open', () => {
    const g = gateAt('2026-11-25T08:30:00+09:00', {
      KR: parseKrMarketCalendar({
        previousBusinessDay: krDay('2026-11-24'),
        today: krDay('2026-11-25'),
        nextBusinessDay: krDay('2026-11-26'),
      }),
      US,
    });
    g.gate.offer(bar('AAPL', '2026-11-24T00:00:00+09:00'), g.hand);
    g.gate.offer(bar('005930', '2026-11-24T00:00:00+09:00'), g.hand);
    g.to('2026-11-25T09:00:00+09:00');
    expect(g.handed).toEqual(['005930@2026-11-24']);
    g.gate.offer(bar('000660', '2026-11-24T00:00:00+09:00'), g.hand);
    g.to('2026-11-25T23:29:59+09:00');
    expect(g.handed).toEqual(['005930@2026-11-24', '000660@2026-11-24']);
    g.to('2026-11-25T23:30:00+09:00');
    expect(g.handed).toEqual(['005930@2026-11-24', '000660@2026-11-24', 'AAPL@2026-11-24']);
  });

  it('hands a market’s bars over in the order they came, a late one behind those still waiting', () => {
    const g = gateAt('2026-11-28T00:00:05+09:00');
    g.gate.offer(bar('005930', '2026-11-26T00:00:00+09:00'), g.hand);
    g.gate.offer(bar('005930', '2026-11-27T00:00:00+09:00'), g.hand);
    // the open came, and a bar arrives before the timer released the waiting ones
    g.clock.set(Date.parse('2026-11-30T09:00:01+09:00'));
    g.gate.offer(bar('000660', '2026-11-27T00:00:00+09:00'), g.hand);
    expect(g.handed).toEqual([]);
    g.gate.release();
    expect(g.handed).toEqual(['005930@2026-11-26', '005930@2026-11-27', '000660@2026-11-27']);
  });

  it('drops the waiting bars when cleared', () => {
    const g = gateAt('2026-11-28T00:00:05+09:00');
    g.gate.offer(bar('005930', '2026-11-27T00:00:00+09:00'), g.hand);
    g.gate.clear();
    g.to('2026-11-30T09:00:00+09:00');
    expect(g.handed).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  cagr,
  type EquitySample,
  maxDrawdown,
  resampleDaily,
  sessionDayKey,
  sharpeRatio,
  totalReturn,
  YEAR_MS,
} from './equity-stats.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-01-05T15:30:00+09:00');
const daily = (...values: number[]): EquitySample[] =>
  values.map((equity, i) => ({ time: T0 + i * DAY, equity }));

describe('totalReturn', () => {
  it('is last / first − 1', () => {
    expect(totalReturn(daily(100, 110, 99, 121))).toBeCloseTo(0.21, 12);
  });
  it('is 0 for an empty curve', () => {
    expect(totalReturn([])).toBe(0);
  });
  it('is none from a start of 0 (0 → 0 is 0 ÷ 0; before, 0)', () => {
    expect(totalReturn(daily(0, 0))).toBeNull();
  });
});

describe('maxDrawdown', () => {
  it('is the largest fall from a running peak (110 → 99 is 10 %)', () => {
    expect(maxDrawdown(daily(100, 110, 99, 121))).toBeCloseTo(0.1, 12);
  });
  it('takes the deepest of several falls (200 → 150 = 25 % beats 100 → 90)', () => {
    expect(maxDrawdown(daily(100, 90, 200, 150, 180))).toBeCloseTo(0.25, 12);
  });
  it('is 0 for a curve that never falls', () => {
    expect(maxDrawdown(daily(1, 2, 2, 3))).toBe(0);
  });
});

describe('cagr', () => {
  it('is 10 % for 100 → 121 over two years of 365.25 days', () => {
    expect(
      cagr([
        { time: 0, equity: 100 },
        { time: 2 * YEAR_MS, equity: 121 },
      ]),
    ).toBeCloseTo(0.1, 12);
  });
  it('is null for a run shorter than a day', () => {
    expect(
      cagr([
        { time: 0, equity: 100 },
        { time: DAY / 2, equity: 121 },
      ]),
    ).toBeNull();
  });
});

describe('sharpeRatio', () => {
  it('annualises daily returns by √252 (returns +10 %, −10 %, +22.2 %: mean 0.074074, sd 0.162668)', () => {
    // mean = (0.1 − 0.1 + 0.222222) / 3 = 0.0740741; sample sd = 0.1626681; × √252 = 15.874508
    expect(sharpeRatio(daily(100, 110, 99, 121))).toBeCloseTo(7.228766, 5);
  });
  it('is null for returns that do not vary or fewer than two returns', () => {
    expect(sharpeRatio(daily(100, 110, 121))).toBeNull();
    expect(sharpeRatio(daily(100, 110))).toBeNull();
  });
});

describe('resampleDaily', () => {
  it('keeps the start and the last point of each session day of a minute curve', () => {
    const at = (iso: string, equity: number) => ({ time: Date.parse(iso), equity });
    const curve = [
      at('2026-11-23T09:00:00+09:00', 100),
      at('2026-11-23T09:01:00+09:00', 101),
      at('2026-11-23T15:30:00+09:00', 105),
      at('2026-11-24T09:01:00+09:00', 104),
      at('2026-11-24T15:31:00+09:00', 103),
    ];
    expect(resampleDaily(curve).map((p) => p.equity)).toEqual([100, 105, 103]);
  });
  it('puts a whole US regular session (23:30–06:00 KST) in one day', () => {
    const a = Date.parse('2026-11-23T09:31:00-05:00');
    const b = Date.parse('2026-11-23T16:00:00-05:00');
    expect(sessionDayKey(a)).toBe(sessionDayKey(b));
    expect(sessionDayKey(Date.parse('2026-11-24T09:31:00-05:00'))).toBe(sessionDayKey(b) + 1);
  });
  it("ends a session day after the US after-market's last minute and before the KR pre-market's first, as the backtest's equity curve does", () => {
    // winter: 18:00 New York is 08:00 KST; summer: 18:00 New York is 07:00 KST
    for (const [afterMarketEnd, preMarketFirst, regularOpen] of [
      ['2026-11-25T18:00:00-05:00', '2026-11-26T08:01:00+09:00', '2026-11-25T09:31:00-05:00'],
      ['2026-07-08T18:00:00-04:00', '2026-07-09T08:01:00+09:00', '2026-07-08T09:31:00-04:00'],
    ] as const) {
      // before: the key rolled at 07:00 KST, so the winter after-market's last hour counted as the
      // next day, and a minute run's Sharpe ratio merged two days' returns into one
      expect(sessionDayKey(Date.parse(afterMarketEnd))).toBe(sessionDayKey(Date.parse(regularOpen)));
      expect(sessionDayKey(Date.parse(preMarketFirst))).toBe(sessionDayKey(Date.parse(afterMarketEnd)) + 1);
    }
  });
  it('leaves a daily curve unchanged', () => {
    const curve = daily(100, 110, 99, 121);
    expect(resampleDaily(curve)).toEqual(curve);
  });
});

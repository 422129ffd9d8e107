import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import {
  exceeds,
  groupDigits,
  nextTradingDayStartMs,
  tradingDayOf,
  tradingDayStartMs,
  within,
} from './valuation.js';

describe('trading day', () => {
  it.each([
    ['2026-11-23T10:00:00+09:00', '2026-11-23T08:00:00+09:00', '2026-11-23'],
    ['2026-11-23T08:00:00+09:00', '2026-11-23T08:00:00+09:00', '2026-11-23'],
    ['2026-11-23T07:59:59.999+09:00', '2026-11-22T08:00:00+09:00', '2026-11-22'],
    ['2026-11-24T05:30:00+09:00', '2026-11-23T08:00:00+09:00', '2026-11-23'],
    ['2026-12-31T23:00:00+09:00', '2026-12-31T08:00:00+09:00', '2026-12-31'],
  ])('at %s starts at %s (%s), with the day starting 08:00 KST', (at, start, day) => {
    expect(tradingDayStartMs(Date.parse(at), 8)).toBe(Date.parse(start));
    expect(tradingDayOf(Date.parse(at), 8)).toBe(day);
    expect(nextTradingDayStartMs(Date.parse(at), 8)).toBe(Date.parse(start) + 86_400_000);
  });
  it('starts at midnight KST with hour 0', () => {
    expect(tradingDayStartMs(Date.parse('2026-11-23T00:30:00+09:00'), 0)).toBe(
      Date.parse('2026-11-23T00:00:00+09:00'),
    );
  });
});

describe('exceeds and within', () => {
  const values = ['0', '-0', '1', '-1', '1e12', 'NaN', 'Infinity'];
  const limits = ['0', '-0', '1', '-1', '5000000', 'NaN'];
  it.each(values.flatMap((v) => limits.map((l) => [v, l])))('%s against %s answer as gt and lte', (v, l) => {
    const value = new Decimal(v);
    const limit = new Decimal(l);
    expect(exceeds(value, limit)).toBe(value.gt(limit));
    expect(within(value, limit)).toBe(value.lte(limit));
  });
});

describe('groupDigits', () => {
  it.each([
    ['0', '0'],
    ['999', '999'],
    ['1000', '1,000'],
    ['1101050', '1,101,050'],
    ['-2500.12345', '-2,500.12345'],
    ['30000000', '30,000,000'],
  ])('groups %s as %s (the fraction as it is)', (text, grouped) => {
    expect(groupDigits(text)).toBe(grouped);
  });
});

import * as engine from '@hoga/engine';
import { describe, expect, it } from 'vitest';
import { dayEnds } from './backtest-inputs.js';

const at = (iso: string) => Date.parse(iso);
const series = (...closes: string[]) => {
  const closeTime = Float64Array.from(closes.map(at));
  return { columns: { closeTime, length: closeTime.length } };
};

describe('dayEnds (where a backtest reads the USD/KRW rate)', () => {
  it("gives each trading day's last close across the series, a US day's close after the KR close of the same day, from the start on", () => {
    const start = at('2025-01-02T00:00:00+09:00');
    const kr = series(
      '2024-12-30T15:30:00+09:00', // a warm-up bar before the start
      '2025-01-02T15:30:00+09:00',
      '2025-01-03T15:30:00+09:00',
    );
    // AAPL's 2025-01-02 closes at 06:00 KST the next morning: the same trading day as 005930's 2025-01-02
    const us = series('2025-01-03T06:00:00+09:00', '2025-01-04T06:00:00+09:00');
    expect(dayEnds(engine, [kr, us], start)).toEqual([
      at('2025-01-03T06:00:00+09:00'),
      at('2025-01-04T06:00:00+09:00'),
    ]);
  });

  it("gives a minute run's day its last minute's close, one time per day", () => {
    const start = at('2025-03-04T00:00:00+09:00');
    const minutes = series(
      '2025-03-04T09:01:00+09:00',
      '2025-03-04T15:30:00+09:00',
      '2025-03-04T20:00:00+09:00',
      '2025-03-05T09:01:00+09:00',
      '2025-03-05T19:59:00+09:00',
    );
    expect(dayEnds(engine, [minutes], start)).toEqual([
      at('2025-03-04T20:00:00+09:00'),
      at('2025-03-05T19:59:00+09:00'),
    ]);
  });
});

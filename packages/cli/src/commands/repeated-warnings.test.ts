import { describe, expect, it } from 'vitest';
import { RepeatedWarnings } from './repeated-warnings.js';

describe('RepeatedWarnings', () => {
  it('prints a warning once a minute, counts its repeats and tells them at the next print and at flush', () => {
    const lines: string[] = [];
    let now = 0;
    const w = new RepeatedWarnings(
      (l) => lines.push(l),
      () => now,
    );
    w.warn('10:00:00', 'candles', 'HTTP 500 after 3 retries (005930)');
    now = 1_000;
    w.warn('10:00:01', 'candles', 'HTTP 500 after 3 retries (000660)');
    w.warn('10:00:01', 'account', 'read failed');
    now = 59_999;
    w.warn('10:00:59', 'candles', 'HTTP 500 after 3 retries (035420)');
    expect(lines).toEqual([
      '10:00:00 warning: candles: HTTP 500 after 3 retries (005930)',
      '10:00:01 warning: account: read failed',
    ]);
    now = 60_000;
    w.warn('10:01:00', 'candles', 'HTTP 500 after 3 retries (005930)');
    expect(lines[2]).toBe(
      '10:01:00 warning: candles: HTTP 500 after 3 retries (005930) (2 more like it in the last minute)',
    );
    now = 61_000;
    w.warn('10:01:01', 'candles', 'HTTP 500 after 3 retries (005930)');
    w.flush('10:02:00');
    expect(lines.slice(3)).toEqual([
      '10:02:00 warning: candles: 1 more like it, the last: HTTP 500 after 3 retries (005930)',
    ]);
    w.flush('10:03:00');
    expect(lines).toHaveLength(4);
  });

  it("counts the same failure of another symbol's stream, another request id, as a repeat, and tells the last at flush", () => {
    const lines: string[] = [];
    const w = new RepeatedWarnings(
      (l) => lines.push(l),
      () => 0,
    );
    w.warn('t', 'candles:005930:1m', 'getCandles: HTTP 500 internal-error (request 7fd3ff14-f8f2-4c63)');
    w.warn('t', 'candles:000660:1m', 'getCandles: HTTP 500 internal-error (request dfd7bcd8-ca3d-4990)');
    w.flush('u');
    expect(lines).toEqual([
      't warning: candles:005930:1m: getCandles: HTTP 500 internal-error (request 7fd3ff14-f8f2-4c63)',
      'u warning: candles:000660:1m: 1 more like it, the last: getCandles: HTTP 500 internal-error (request dfd7bcd8-ca3d-4990)',
    ]);
  });

  it('keeps different messages of one place apart', () => {
    const lines: string[] = [];
    const w = new RepeatedWarnings(
      (l) => lines.push(l),
      () => 0,
    );
    w.warn('t', 'candles', 'HTTP 500');
    w.warn('t', 'candles', 'connection refused');
    expect(lines).toHaveLength(2);
  });
});

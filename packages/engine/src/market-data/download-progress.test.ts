import { describe, expect, it } from 'vitest';
import { completeBefore, downloadTargets } from './candle-downloader.js';
import { formatEta, plainProgress, progressLine } from './download-progress.js';

describe('progressLine', () => {
  it('prints one line per completed symbol and nothing for the other events', () => {
    expect(
      progressLine(
        { type: 'SymbolCompleted', symbol: '005930', pages: 3, candles: 512, cached: false, time: 0 },
        '1m',
      ),
    ).toBe('005930 1m: downloaded 512 candles in 3 pages');
    expect(
      progressLine(
        { type: 'SymbolCompleted', symbol: 'AAPL', pages: 0, candles: 0, cached: true, time: 0 },
        '1d',
      ),
    ).toBe('AAPL 1d: cached');
    expect(progressLine({ type: 'RateBudgetWaiting', symbol: 'AAPL', queued: 1, time: 0 }, '1d')).toBeNull();
  });

  it('writes the lines through plainProgress', () => {
    const out: string[] = [];
    const sink = plainProgress((t) => out.push(t), '1d');
    sink({
      type: 'SymbolStarted',
      symbol: 'AAPL',
      index: 0,
      symbols: 1,
      missingRanges: 1,
      time: 0,
    });
    sink({ type: 'SymbolCompleted', symbol: 'AAPL', pages: 1, candles: 20, cached: false, time: 0 });
    expect(out).toEqual(['AAPL 1d: downloaded 20 candles in 1 page\n']);
  });
});

describe('formatEta', () => {
  it.each([
    [null, '?'],
    [12_400, '12s'],
    [65_000, '1m05s'],
  ])('%s ms is %s', (ms, text) => {
    expect(formatEta(ms)).toBe(text);
  });
});

describe('downloadTargets', () => {
  it('widens the start for warm-up bars and clamps minute ranges to the history start', () => {
    const [kr] = downloadTargets(['005930'], '1d', '2026-11-23', '2026-11-24', 20);
    // 20 bars ≈ 28 calendar days + 10 of margin before 11-23
    expect(kr?.range.start).toBe(Date.parse('2026-10-16T00:00:00+09:00'));
    const [minute] = downloadTargets(['005930'], '1m', '2022-11-24', '2022-11-25', 1000);
    expect(minute?.range.start).toBe(Date.parse('2022-11-23T00:00:00+09:00'));
    expect(downloadTargets(['005930'], '1m', '2020-01-01', '2020-12-31')).toEqual([]);
  });
});

describe('completeBefore', () => {
  it('ends minute ranges at the last complete minute and daily ones before a day still trading', () => {
    const now = Date.parse('2026-11-25T12:00:30+09:00');
    expect(completeBefore('KR', '1m', now)).toBe(Date.parse('2026-11-25T12:00:00+09:00') + 1);
    // the minute just ended is not yet: 10 s after its end
    const justEnded = Date.parse('2026-11-25T12:00:09.999+09:00');
    expect(completeBefore('KR', '1m', justEnded)).toBe(Date.parse('2026-11-25T11:59:00+09:00') + 1);
    expect(completeBefore('KR', '1d', now)).toBe(Date.parse('2026-11-25T00:00:00+09:00'));
    // after the regular close the after-market still trades: the day's volume is not final
    const afterClose = Date.parse('2026-11-25T15:30:00+09:00');
    expect(completeBefore('KR', '1d', afterClose)).toBe(Date.parse('2026-11-25T00:00:00+09:00'));
    // complete 10 s after its end (the local clock may run ahead of the broker's)
    const atEnd = Date.parse('2026-11-25T20:00:05+09:00');
    expect(completeBefore('KR', '1d', atEnd)).toBe(Date.parse('2026-11-25T00:00:00+09:00'));
    const after = Date.parse('2026-11-25T20:00:10+09:00');
    expect(completeBefore('KR', '1d', after)).toBe(Date.parse('2026-11-25T00:00:00+09:00') + 1);
    // a US day is complete when its trading day ends (20:00 New York): no longer today's
    const usEvening = Date.parse('2026-11-24T19:59:00-05:00');
    expect(completeBefore('US', '1d', usEvening)).toBe(Date.parse('2026-11-24T00:00:00+09:00'));
    const usNextDay = Date.parse('2026-11-24T20:00:10-05:00');
    expect(completeBefore('US', '1d', usNextDay)).toBe(Date.parse('2026-11-25T00:00:00+09:00'));
  });
});

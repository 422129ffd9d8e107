import type { DownloadProgress } from '@hoga/engine';
import { describe, expect, it } from 'vitest';
import { downloadBarFormat, downloadBarFrames } from './download-bar.js';

const HOUR = 3_600_000;

/** A download of two symbols as the engine reports it: 24 pages, where an estimate from trading days said about 19 (the bar's total before). */
function download(): DownloadProgress[] {
  const events: DownloadProgress[] = [];
  let covered = 0;
  let page = 0;
  for (const [index, symbol] of ['005930', 'AAPL'].entries()) {
    events.push({
      type: 'SymbolStarted',
      symbol,
      index,
      symbols: 2,
      missingRanges: 1,
      time: 0,
    });
    for (let i = 1; i <= 12; i++) {
      page++;
      covered += 2 * HOUR;
      events.push({
        type: 'PageStored',
        symbol,
        pages: i,
        candles: i * 200,
        totalPages: page,
        coveredMs: covered,
        totalMs: 48 * HOUR,
        etaMs: 1000 * (24 - page),
        time: page,
      });
    }
    events.push({ type: 'SymbolCompleted', symbol, pages: 12, candles: 2400, cached: false, time: 0 });
  }
  return events;
}

describe('downloadBarFrames', () => {
  it('keeps the total the download fetches from its first page to its last, the value only rising to it', () => {
    const frames = download()
      .map(downloadBarFrames((ms) => `${ms}ms`))
      .filter((f) => f !== null);
    expect(frames).toHaveLength(24);
    expect(new Set(frames.map((f) => f.total))).toEqual(new Set([48 * HOUR]));
    const values = frames.map((f) => f.value);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(values.at(-1)).toBe(48 * HOUR);
    expect(frames[0]?.payload).toEqual({ symbol: '005930', symbolOf: '1/2', pages: 1, eta_text: '23000ms' });
    expect(frames.at(-1)?.payload).toEqual({ symbol: 'AAPL', symbolOf: '2/2', pages: 24, eta_text: '0ms' });
  });

  it('shows a percentage, the symbol’s place and the pages, not pages out of an estimate', () => {
    expect(downloadBarFormat('1m')).toBe(
      'candles 1m [{bar}] {percentage}%  {symbol} ({symbolOf})  {pages} pages  eta {eta_text}',
    );
  });
});

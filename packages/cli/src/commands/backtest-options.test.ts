import { describe, expect, it } from 'vitest';
import { parseBacktestFlags } from './backtest-options.js';

const BASE = { symbols: '005930', interval: '1d', from: '2025-03-03', to: '2025-03-14' };

function usageMessage(flags: Record<string, unknown>): string {
  try {
    parseBacktestFlags('s.ts', { ...BASE, ...flags });
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}

describe('parseBacktestFlags', () => {
  it('takes a volume fraction up to 1 (a whole bar)', () => {
    expect(parseBacktestFlags('s.ts', { ...BASE, volumeFraction: '1' }).volumeFraction).toBe(1);
    expect(parseBacktestFlags('s.ts', { ...BASE, volumeFraction: '0.25' }).volumeFraction).toBe(0.25);
  });

  it('refuses a volume fraction above 1 (more than the bar traded)', () => {
    expect(usageMessage({ volumeFraction: '1.5' })).toContain(
      '--volume-fraction: expected a share of the volume in (0, 1], found "1.5"',
    );
  });

  it('refuses --csv, which printed the table as if it had been asked for', () => {
    expect(usageMessage({ csv: true })).toContain('--csv');
  });
});

describe('parseBacktestFlags symbols', () => {
  it('upper-cases symbols as hoga data does (aapl is AAPL: one cache series, its instrument found)', () => {
    const request = parseBacktestFlags('s.ts', { ...BASE, symbols: 'aapl, 005930,AAPL' });
    expect(request.symbols).toEqual(['AAPL', '005930']);
    expect(request.ranges.map((r) => r?.symbol)).toEqual(['AAPL', '005930']);
  });
});

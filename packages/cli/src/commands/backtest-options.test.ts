import { describe, expect, it } from 'vitest';
import { parseBacktestFlags, toBeforeFrom } from './backtest-options.js';

const BASE = { symbols: '005930', interval: '1d', from: '2025-03-03', to: '2025-03-14' };

function usageMessage(flags: Record<string, unknown>): string {
  try {
    parseBacktestFlags(['s.ts'], { ...BASE, ...flags });
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}

describe('parseBacktestFlags', () => {
  it('takes a volume fraction up to 1 (a whole bar)', () => {
    expect(parseBacktestFlags(['s.ts'], { ...BASE, volumeFraction: '1' }).volumeFraction).toBe(1);
    expect(parseBacktestFlags(['s.ts'], { ...BASE, volumeFraction: '0.25' }).volumeFraction).toBe(0.25);
  });

  it('refuses a volume fraction above 1 (more than the bar traded)', () => {
    expect(usageMessage({ volumeFraction: '1.5' })).toContain(
      '--volume-fraction: expected a share of the volume in (0, 1], found "1.5"',
    );
  });

  it('keeps the default of a currency --cash does not name (KRW=5000000 left USD at 0, refusing every US buy)', () => {
    const cash = parseBacktestFlags(['s.ts'], { ...BASE, cash: 'KRW=5000000' }).cash;
    expect([cash.KRW.toFixed(), cash.USD.toFixed()]).toEqual(['5000000', '100000']);
    const none = parseBacktestFlags(['s.ts'], { ...BASE, cash: 'USD=0.5,KRW=0' }).cash;
    expect([none.KRW.toFixed(), none.USD.toFixed()]).toEqual(['0', '0.5']);
  });

  it('refuses --cash the equity curve cannot count to the won (it is kept in doubles)', () => {
    const at = parseBacktestFlags(['s.ts'], { ...BASE, cash: 'KRW=100000000000000,USD=100000000000' }).cash;
    expect([at.KRW.toFixed(), at.USD.toFixed()]).toEqual(['100000000000000', '100000000000']);
    expect(usageMessage({ cash: 'KRW=100000000000001' })).toContain(
      '--cash: KRW amount 100000000000001 is more than 100,000,000,000,000',
    );
    expect(usageMessage({ cash: 'USD=100000000000.01' })).toContain(
      '--cash: USD amount 100000000000.01 is more than 100,000,000,000',
    );
  });

  it('refuses fractional won and fractions of a cent in --cash (KRW=1.5 ran as "start equity 2 KRW")', () => {
    expect(usageMessage({ cash: 'KRW=1.5' })).toContain(
      '--cash: KRW amount "1.5" is not a non-negative amount in whole won',
    );
    expect(usageMessage({ cash: 'USD=10.005' })).toContain(
      '--cash: USD amount "10.005" is not a non-negative amount in dollars to the cent',
    );
  });

  it('refuses a currency named twice or an amount with a second "=" in --cash (KRW=5,KRW=6 ran with 6)', () => {
    expect(usageMessage({ cash: 'KRW=5,KRW=6' })).toContain('--cash: KRW is given twice');
    expect(usageMessage({ cash: 'KRW=1=2' })).toContain(
      '--cash: expected KRW=<amount>,USD=<amount>, found "KRW=1=2"',
    );
  });

  it("takes hoga run's --cash-krw and --cash-usd, by the same rules as --cash", () => {
    const cash = parseBacktestFlags(['s.ts'], { ...BASE, cashKrw: '5000000', cashUsd: '250.5' }).cash;
    expect([cash.KRW.toFixed(), cash.USD.toFixed()]).toEqual(['5000000', '250.5']);
    // one of them with --cash naming the other currency: both taken
    const mixed = parseBacktestFlags(['s.ts'], { ...BASE, cash: 'USD=0', cashKrw: '7' }).cash;
    expect([mixed.KRW.toFixed(), mixed.USD.toFixed()]).toEqual(['7', '0']);
    expect(usageMessage({ cashKrw: '1.5' })).toContain(
      '--cash-krw: amount "1.5" is not a non-negative amount in whole won',
    );
    expect(usageMessage({ cashUsd: '10.005' })).toContain(
      '--cash-usd: amount "10.005" is not a non-negative amount in dollars to the cent',
    );
    expect(usageMessage({ cashKrw: '100000000000001' })).toContain(
      '--cash-krw: amount 100000000000001 is more than 100,000,000,000,000',
    );
    expect(usageMessage({ cash: 'KRW=5', cashKrw: '6' })).toContain(
      '--cash-krw: KRW is given by --cash too; give it once',
    );
  });

  it('says that --interval is required when it is missing (before: expected 1m or 1d, found "")', () => {
    expect(usageMessage({ interval: undefined })).toBe('--interval is required: 1m or 1d');
  });

  it('refuses --csv, which printed the table as if it had been asked for', () => {
    expect(usageMessage({ csv: true })).toContain('--csv');
  });
});

describe('parseBacktestFlags strategy ids', () => {
  it('takes the ids the engine takes, "." included (before: s.ts:sma.v2 was read as a file that does not exist)', () => {
    const request = parseBacktestFlags(['s.ts:sma.v2'], BASE);
    expect(request.strategies.map((s) => [s.file, s.id])).toEqual([['s.ts', 'sma.v2']]);
  });

  it('refuses an id the engine refuses, as bad usage before anything runs', () => {
    // before: 'strategy file s.ts:my id does not exist' (FILE:ID), and for --id, after the download,
    // 'invalid-strategy-id: strategyId: expected …' with exit 1
    const expected =
      'strategy id "my id" is not valid: use 1-64 characters of letters, digits, "_", "." and "-"';
    expect(usageMessage({})).toBe('accepted');
    expect(() => parseBacktestFlags(['s.ts:my id'], BASE)).toThrow(expected);
    expect(usageMessage({ id: 'my id' })).toBe(expected);
  });
});

describe('parseBacktestFlags symbols', () => {
  it('upper-cases symbols as hoga data does (aapl is AAPL: one cache series, its instrument found)', () => {
    const request = parseBacktestFlags(['s.ts'], { ...BASE, symbols: 'aapl, 005930,AAPL' });
    expect(request.symbols).toEqual(['AAPL', '005930']);
    expect(request.ranges.map((r) => r?.symbol)).toEqual(['AAPL', '005930']);
  });
});

describe('toBeforeFrom', () => {
  it('takes a date --to as its whole day', () => {
    expect(toBeforeFrom('2026-11-20T10:00:00+09:00', '2026-11-20')).toBe(false);
    expect(toBeforeFrom('2026-11-20', '2026-11-20')).toBe(false);
    expect(toBeforeFrom('2026-11-21T00:00:00+09:00', '2026-11-20')).toBe(true);
    expect(toBeforeFrom('2026-11-21', '2026-11-20')).toBe(true);
  });

  it('compares date-times as instants', () => {
    expect(toBeforeFrom('2026-11-20T10:00:00+09:00', '2026-11-20T10:00:00+09:00')).toBe(false);
    expect(toBeforeFrom('2026-11-20T10:00:00+09:00', '2026-11-20T09:59:00+09:00')).toBe(true);
    expect(toBeforeFrom('2026-11-20', '2026-11-20T09:59:00+09:00')).toBe(false);
    expect(toBeforeFrom('2026-11-20', '2026-11-19T23:59:00+09:00')).toBe(true);
  });

  it("takes a date --to of a US symbol as its New York trading day, to 20:00 New York (before: KST's day, so its afternoon was 'after --to')", () => {
    // 16:30 New York on 2025-01-03 is 06:30 KST on the 4th: inside AAPL's trading date 2025-01-03
    expect(toBeforeFrom('2025-01-03T16:30:00-05:00', '2025-01-03', ['US'])).toBe(false);
    expect(toBeforeFrom('2025-01-03T10:30:00-05:00', '2025-01-03', ['KR', 'US'])).toBe(false);
    expect(toBeforeFrom('2025-01-03T20:00:00-05:00', '2025-01-03', ['US'])).toBe(true);
    // two dates compare as dates, whatever the markets
    expect(toBeforeFrom('2025-01-04', '2025-01-03', ['US'])).toBe(true);
    expect(toBeforeFrom('2025-01-03', '2025-01-03', ['US'])).toBe(false);
    // a KR symbol's date is still KST's
    expect(toBeforeFrom('2025-01-03T16:30:00-05:00', '2025-01-03', ['KR'])).toBe(true);
    expect(
      usageMessage({ symbols: 'AAPL', interval: '1m', from: '2025-01-03T16:30:00-05:00', to: '2025-01-03' }),
    ).toBe('accepted');
    expect(usageMessage({ symbols: 'AAPL', from: '2025-01-03T10:30:00-05:00', to: '2025-01-03' })).toBe(
      'accepted',
    );
  });

  it('lets a backtest start at a time of its last day', () => {
    expect(usageMessage({ interval: '1m', from: '2025-03-14T10:00:00+09:00', to: '2025-03-14' })).toBe(
      'accepted',
    );
  });
});

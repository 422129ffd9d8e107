import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { limitsFor, parseRiskConfig, unmatchedStrategyLimits } from './risk-config.js';

/** The prettified error of parsing `input`, as `hoga run --risk-config` prints it. */
function problems(input: unknown): string {
  try {
    parseRiskConfig(input);
  } catch (error) {
    return z.prettifyError(error as z.ZodError);
  }
  return 'parsed';
}

describe('parseRiskConfig', () => {
  it.each([
    ['a number with separators', '30,000,000', 'found "30,000,000"'],
    ['a negative number', -5, 'found -5'],
    ['a boolean', true, 'found true'],
  ])('says what an amount must look like and what was found (%s), not the pattern', (_name, value, found) => {
    const text = problems({ defaults: { maxOrderValueKrw: value } });
    expect(text).toContain(
      `expected an amount of 0 or more, digits only (a string such as "30000000", or a number), ${found}`,
    );
    expect(text).toContain('defaults.maxOrderValueKrw');
    expect(text).not.toContain('pattern');
  });

  it('takes amounts as digit strings or numbers', () => {
    const config = parseRiskConfig({ defaults: { maxOrderValueKrw: '1000.5', dailyLossLimitKrw: 0 } });
    expect(config.defaults.maxOrderValueKrw?.toFixed()).toBe('1000.5');
    expect(config.defaults.dailyLossLimitKrw?.toFixed()).toBe('0');
  });
});

describe('parseRiskConfig dailyLossAction', () => {
  it('defaults to halt, for the account and every strategy', () => {
    const config = parseRiskConfig({});
    expect(config.account.dailyLossAction).toBe('halt');
    expect(limitsFor(config, 'sma').dailyLossAction).toBe('halt');
  });

  it('takes reduce per strategy, from the defaults, and for the account', () => {
    const config = parseRiskConfig({
      defaults: { dailyLossAction: 'reduce' },
      strategies: { sma: { dailyLossAction: 'halt' } },
      account: { dailyLossAction: 'reduce' },
    });
    expect(limitsFor(config, 'sma').dailyLossAction).toBe('halt');
    expect(limitsFor(config, 'rsi').dailyLossAction).toBe('reduce');
    expect(config.account.dailyLossAction).toBe('reduce');
  });

  it('names the field and the two values on a bad one', () => {
    const text = problems({ strategies: { sma: { dailyLossAction: 'sell' } } });
    expect(text).toContain('expected "halt" or "reduce", found "sell"');
    expect(text).toContain('strategies.sma.dailyLossAction');
    expect(problems({ account: { dailyLossAction: 'stop' } })).toContain('account.dailyLossAction');
  });
});

describe('parseRiskConfig allowedSymbols', () => {
  it('upper-cases the symbols, as --symbols and hoga order take them (before: ["aapl"] denied AAPL)', () => {
    const config = parseRiskConfig({ defaults: { allowedSymbols: ['aapl', '005930'] } });
    expect(config.defaults.allowedSymbols).toEqual(['AAPL', '005930']);
  });
});

describe('unmatchedStrategyLimits', () => {
  it('names the ids under strategies that are no strategy of the run (case-sensitive)', () => {
    const config = parseRiskConfig({ strategies: { sma: {}, Rsi: {}, other: {} } });
    expect(unmatchedStrategyLimits(config, ['sma', 'rsi'])).toEqual(['Rsi', 'other']);
    expect(unmatchedStrategyLimits(config, ['sma', 'Rsi', 'other'])).toEqual([]);
  });
});

/**
 * The rules of `hoga run --candle-poll-ms`: the value it takes, and which candle poll it sets
 * (the run's interval's). The flag over a real run: run-candle-poll.int.test.ts.
 */
import { Command, InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { candlePollMilliseconds, MAX_CANDLE_POLL_MS, MIN_CANDLE_POLL_MS, registerRunCommand } from './run.js';
import { candleIntervals } from './run-session.js';

describe('--candle-poll-ms', () => {
  it.each([
    ['250', 250],
    ['500', 500],
    ['60000', 60_000],
    ['3600000', 3_600_000],
    [' 1000 ', 1000],
  ])('takes whole milliseconds from 250 to an hour (%s)', (text, ms) => {
    expect(candlePollMilliseconds(text)).toBe(ms);
  });

  it.each(['0', '-1', 'abc', '', ' ', '249', '1.5', '3600001', 'Infinity', 'NaN', '1e3', '0x1f4', '+500'])(
    'refuses %j, saying what it expects',
    (text) => {
      expect(() => candlePollMilliseconds(text)).toThrow(InvalidArgumentError);
      expect(() => candlePollMilliseconds(text)).toThrow(
        `expected whole milliseconds from ${MIN_CANDLE_POLL_MS} to ${MAX_CANDLE_POLL_MS}, found "${text}"`,
      );
    },
  );

  it("sets the poll of the run's interval only", () => {
    expect(candleIntervals('1m', 500)).toEqual({ candles1m: 500 });
    expect(candleIntervals('1d', 500)).toEqual({ candles1d: 500 });
  });
});

describe('hoga run --cash-krw and --cash-usd', () => {
  /** What commander says of `hoga run` with these flags (nothing is run: the action is replaced). */
  function parse(args: readonly string[]): string {
    const program = new Command('hoga').exitOverride().configureOutput({ writeErr: () => undefined });
    registerRunCommand(program);
    const run = program.commands.find((c) => c.name() === 'run') as Command;
    run.action(() => undefined);
    try {
      program.parse(['node', 'hoga', 'run', 's.ts', '--mode', 'paper', ...args]);
    } catch (error) {
      return (error as Error).message;
    }
    const flags = run.opts() as { cashKrw: string; cashUsd: string };
    return `${flags.cashKrw} ${flags.cashUsd}`;
  }

  it("takes them by hoga backtest's rule: whole won, dollars to the cent (before: --cash-krw 1.5 ran with 1.5 won)", () => {
    expect(parse([])).toBe('10000000 10000');
    expect(parse(['--cash-krw', '5000000', '--cash-usd', '9999.99'])).toBe('5000000 9999.99');
    expect(parse(['--cash-krw', '1.5'])).toContain(
      "option '--cash-krw <amount>' argument '1.5' is invalid. amount \"1.5\" is not a non-negative amount in whole won",
    );
    expect(parse(['--cash-usd', '10.005'])).toContain('is not a non-negative amount in dollars to the cent');
    expect(parse(['--cash-krw', '100000000000001'])).toContain(
      'amount 100000000000001 is more than 100,000,000,000,000',
    );
  });
});

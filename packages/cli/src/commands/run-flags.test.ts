/**
 * The rules of `hoga run --candle-poll-ms`: the value it takes, and which candle poll it sets
 * (the run's interval's). The flag over a real run: run-candle-poll.int.test.ts.
 */
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { candlePollMilliseconds, MAX_CANDLE_POLL_MS, MIN_CANDLE_POLL_MS } from './run.js';
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

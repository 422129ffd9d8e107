/**
 * A minute-candle stream polled less often than its candles come (many symbols sharing the chart
 * group's 5 requests a second, a process paused, a fast simulator) hands over every completed
 * candle since its last poll, not only the last ten.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type CompleteCandles, completeCandlesFrom, until } from './simulator-fixture.js';

let stream: CompleteCandles | undefined;
afterEach(async () => {
  stream?.stop();
  await stream?.fixture.close();
  stream = undefined;
});

/**
 * A minute-candle stream of 005930 polled every 100 ms on a frozen simulator at 10:00:30, once its
 * first completed candle came; `pass` moves both clocks on 25 minutes (at its own moment), then
 * answers the minutes after the first candle of each completed candle handed over since.
 */
async function minutesAfter(pass: (advance: () => void) => Promise<void>): Promise<number[]> {
  stream = await completeCandlesFrom('2026-11-23T10:00:30.000+09:00');
  const { fixture, clock, complete: seen } = stream;
  await until(() => seen.length === 1);
  const first = seen[0]?.candle.timestamp.toMillis() ?? 0;
  await pass(() => {
    fixture.sim.advanceClock(25 * 60_000);
    clock.advance(25 * 60_000);
  });
  const last = first + 25 * 60_000;
  await until(() => seen.some((u) => u.candle.timestamp.toMillis() >= last));
  return seen.slice(1).map((u) => (u.candle.timestamp.toMillis() - first) / 60_000);
}

const ALL_25 = Array.from({ length: 25 }, (_, i) => i + 1);

describe('BrokerStreams.candles$ after a long gap between polls', () => {
  it('hands over each of the 25 minute candles completed since the last poll, oldest first', async () => {
    // 25 minutes pass between two polls
    expect(await minutesAfter(async (advance) => advance())).toEqual(ALL_25);
  });

  it('hands over each of them when the 25 minutes pass while a poll is on its way', async () => {
    const stamps = await minutesAfter(async (advance) => {
      // the next poll, asked for its page at 10:00, is held 1 s; the minutes pass meanwhile
      stream?.fixture.sim.injectFault({
        kind: 'delay',
        path: '/api/v1/candles',
        method: 'GET',
        delayMs: 1_000,
        count: 1,
      });
      await until(() => stream?.fixture.sim.control.faults().length === 0);
      advance();
    });
    // before: 17 to 25 (the page asked for at 10:00 held the 10 newest candles of 10:25)
    expect(stamps).toEqual(ALL_25);
  });
});

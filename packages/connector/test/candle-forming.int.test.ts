/**
 * A minute candle is handed over as complete only if the broker's answer was made after the
 * minute ended. Before, the stream judged the candles of a poll by the clock when the answer
 * arrived: a page the broker made at 10:04:30, whose answer came after 10:05 (a slow network, a
 * busy process, a broker under load), handed over the 10:05 candle of 10:04:30, half a minute of
 * trades short, as complete, and never the real one (the next polls' were no newer than it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type CompleteCandles, completeCandlesFrom, until } from './simulator-fixture.js';

let stream: CompleteCandles | undefined;
afterEach(async () => {
  stream?.stop();
  await stream?.fixture.close();
  stream = undefined;
});

describe('BrokerStreams.candles$ when an answer comes after the minute ended', () => {
  it('hands over the complete candle, not the one the broker made before the minute ended', async () => {
    stream = await completeCandlesFrom('2026-11-23T10:04:30.000+09:00');
    const { fixture, clock, complete } = stream;
    const { sim, client } = fixture;
    const minute = Date.parse('2026-11-23T10:05:00.000+09:00');
    // the 10:04 candle (10:03:00 to 10:03:59.999): the stream runs
    await until(() => complete.length === 1);
    // the next poll's page is made now, at 10:04:30, and its answer held back 1 s; meanwhile
    // both clocks move on to 10:05:30
    sim.injectFault({
      kind: 'delay-after-commit',
      path: '/api/v1/candles',
      method: 'GET',
      delayMs: 1_000,
      count: 1,
    });
    await until(() => sim.control.faults().length === 0);
    sim.advanceClock(60_000);
    clock.advance(60_000);
    await until(() => complete.some((u) => u.candle.timestamp.toMillis() >= minute));
    const page = await client.getCandles('005930', { interval: '1m', count: 5 });
    const broker = page.candles.find((c) => c.timestamp.toMillis() === minute);
    const handed = complete.find((u) => u.candle.timestamp.toMillis() === minute)?.candle;
    expect(broker).toBeDefined();
    expect(handed).toBeDefined();
    // the whole minute's trades (before: the volume of 10:04:00 to 10:04:30 only)
    expect(handed?.volume.toString()).toBe(broker?.volume.toString());
    expect(handed?.closePrice.toString()).toBe(broker?.closePrice.toString());
    expect(handed?.highPrice.toString()).toBe(broker?.highPrice.toString());
    expect(handed?.lowPrice.toString()).toBe(broker?.lowPrice.toString());
    expect(complete.filter((u) => u.candle.timestamp.toMillis() === minute)).toHaveLength(1);
  });
});

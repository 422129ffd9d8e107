/**
 * The minute bars of a run that could not poll for hours within a session (a machine asleep, the
 * process stopped, a broker outage), over the simulator on 127.0.0.1: both clocks are jumped
 * forward while the run's clock stands still, as a process stopped and woken finds them.
 * - Within a trading day's worth of candles, every bar since the last poll reaches `onBar` when the
 *   run wakes, once each, oldest first: the streams page back (`before`) to the last bar handed
 *   over. Before, one poll read the last 200 candles only, and the bars before those (here the
 *   first 101 of 300) were dropped without a word.
 * - When a page back cannot be read (the broker refuses it), or the pause was longer than a
 *   catch-up reads back (2,000 candles: days), the bars read are handed over, and the run's log
 *   says once per symbol which of its bars, ending between which times, were missed.
 */
import type { BrokerClient } from '@hoga/connector';
import { type Bar, Decimal } from '@hoga/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordingLogger } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(async () => {
  vi.restoreAllMocks();
  await closers.closeAll();
});

const MINUTE = 60_000;

/** Notes each bar it gets. */
class Note extends Strategy {
  static seen: number[] = [];
  static bars: Bar[] = [];
  override onBar(bar: Bar): void {
    Note.seen.push(bar.closeTime);
    Note.bars.push({ ...bar });
  }

  /** The close times of the bars of `symbol` it got, in order. */
  static of(symbol: string): number[] {
    return Note.bars.filter((b) => b.symbol === symbol).map((b) => b.closeTime);
  }
}

/** {@link Note}, subscribed to the minute bars of 000660 besides (outside the run's universe). */
class NoteAndSubscribe extends Note {
  override onStart(): void {
    this.ctx.subscribeBars('000660');
  }
}

/**
 * A paper run of {@link NoteAndSubscribe} on 005930 (000660 subscribed) from Monday 2026-11-23
 * 10:00 KST, both clocks standing still: once the first bar of each (the one ending 10:00) came,
 * `beforeWaking` gets the run's client and both clocks jump to two seconds past `wake` (KST).
 */
async function sleepUntil(
  runId: string,
  wake: string,
  beforeWaking: (client: BrokerClient) => void = () => undefined,
) {
  Note.seen = [];
  Note.bars = [];
  // two seconds past the minute: a poll judges a candle complete a second before it was sent
  // (the broker's clock may be a little behind this machine's: connector's CANDLE_CLOCK_SLACK_MS)
  const s = await startSimulatedBroker(closers, { speed: 0, start: '2026-11-23T10:00:02.000+09:00' });
  const db = openTempDb(closers, `hoga-${runId}-`, s.clock);
  const { logger, records } = recordingLogger('info');
  const run = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId,
      mode: 'paper',
      symbols: ['005930'],
      cashKrw: new Decimal(1_000_000),
      strategies: [{ strategyClass: NoteAndSubscribe, id: 'note' }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300 }, logger },
  );
  closers.add(() => run.handle.stop());
  const slept = Date.parse('2026-11-23T10:00:00+09:00');
  // its first bar, and 000660's (a subscription's first poll, the newest completed candle)
  await until(() => Note.seen.filter((t) => t === slept).length === 2, 60_000);
  beforeWaking(s.client);
  const woke = Date.parse(wake);
  const at = new Date(woke + 2_000).toISOString();
  s.sim.setClock(at);
  s.clock.set(at);
  return { slept, woke, records };
}

/** The minute closes after `from` up to and including `to`. */
function minutes(from: number, to: number): number[] {
  const out: number[] = [];
  for (let t = from + MINUTE; t <= to; t += MINUTE) out.push(t);
  return out;
}

describe('minute bars after the run could not poll for hours within a session', () => {
  it('all reach onBar when it wakes, once each, oldest first', async () => {
    // five hours asleep: 300 minute bars, more than one candle request's 200
    const { slept, woke, records } = await sleepUntil('sleep-5h', '2026-11-23T15:00:00+09:00');
    const bars = [slept, ...minutes(slept, woke)];
    // the last bar of each came
    await until(() => Note.seen.filter((t) => t === woke).length === 2, 60_000);
    // before: the bars ending 10:01 .. 11:41 of each never came
    expect(Note.of('005930')).toEqual(bars);
    expect(Note.of('000660')).toEqual(bars);
    expect(records.filter((r) => String(r.msg).includes('missed'))).toEqual([]);
  }, 120_000);

  it('when the broker refuses a page back: the bars read are handed over, and the gap is said once', async () => {
    // five hours asleep as above; the page before the newest 200 candles is refused (a broker
    // outage as the run wakes, the client's retries spent)
    const { slept, woke, records } = await sleepUntil(
      'sleep-refused',
      '2026-11-23T15:00:00+09:00',
      (client) => {
        const read = client.getCandles.bind(client);
        vi.spyOn(client, 'getCandles').mockImplementation((symbol, query, options) =>
          query.before === undefined
            ? read(symbol, query, options)
            : Promise.reject(new Error('broker down')),
        );
      },
    );
    // the page read came, oldest first: the newest 200 candles are the one in progress (ending
    // 15:01) and those ending 11:42 .. 15:00
    const read = Date.parse('2026-11-23T11:41:00+09:00');
    const bars = [slept, ...minutes(read, woke)];
    // the last bar of each came
    await until(() => Note.seen.filter((t) => t === woke).length === 2, 60_000);
    expect(Note.of('005930')).toEqual(bars);
    expect(Note.of('000660')).toEqual(bars);
    // said once per symbol: the universe's, and the subscription's naming its strategy
    const said = records.filter((r) => String(r.msg).includes('missed'));
    expect(said.map((r) => r.symbol).sort()).toEqual(['000660', '005930']);
    for (const r of said) {
      expect(r.level).toBe(40);
      expect(String(r.msg)).toContain(
        `1m bars of ${String(r.symbol)} ending after 2026-11-23 10:00 and before 2026-11-23 11:42 KST were missed`,
      );
      expect(String(r.msg)).toContain('reading them back stopped (reading them failed: broker down)');
    }
    const subscribed = said.find((r) => r.symbol === '000660');
    expect(String(subscribed?.msg)).toContain(
      'onBar never got them (strategy note), only the bars from 2026-11-23 11:42 on',
    );
  }, 120_000);

  it('asleep for days: the last 2,000 candles are read, the new bars handed over, the rest said once', async () => {
    // Monday 10:00 to Thursday 10:00 KST: Monday's 600 candles after 10:00, Tuesday's and
    // Wednesday's 720 each, Thursday's 120 (08:01 .. 10:00): 2,160, more than a catch-up's 2,000.
    // (The streams judge the market by Monday's calendar at first: they look again, with
    // Thursday's, up to 30 real s later.)
    const { slept, woke, records } = await sleepUntil('sleep-days', '2026-11-26T10:00:00+09:00');
    await until(() => Note.seen.filter((t) => t === woke).length === 2, 90_000);
    // Thursday's bars are news; the days slept through are not (a strategy with a warm-up gets
    // them as warm-up bars; this one has none)
    const bars = [slept, ...minutes(Date.parse('2026-11-26T08:00:00+09:00'), woke)];
    expect(Note.of('005930')).toEqual(bars);
    expect(Note.of('000660')).toEqual(bars);
    // the 2,000 read: the one in progress (10:01), Thursday's 120, Wednesday's and Tuesday's 1,440,
    // and Monday's last 439 (12:42 .. 20:00)
    const said = records.filter((r) => String(r.msg).includes('missed'));
    expect(said.map((r) => r.symbol).sort()).toEqual(['000660', '005930']);
    for (const r of said) {
      expect(String(r.msg)).toContain(
        `1m bars of ${String(r.symbol)} ending after 2026-11-23 10:00 and before 2026-11-23 12:42 KST were missed`,
      );
      expect(String(r.msg)).toContain('(the 2,000 candles a catch-up reads at most were read)');
    }
  }, 150_000);
});

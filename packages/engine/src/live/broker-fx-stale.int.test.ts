/**
 * A run follows the broker's USD/KRW rate on its exchange-rate stream (refreshed every minute, each
 * rate valid for a minute). When the stream gives no newer rate for longer than the rate's validity
 * and a margin, the risk checks read it themselves, the run values USD at the rate they read, and
 * the log says so once. Before, the last rate was kept for as long as the stream stalled, silently.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FX_STALE_MARGIN_MS } from '../risk/followed-fx.js';
import { advance, startFxRun, usdInKrw, valuedAt } from './fx-run.test-helper.js';
import { Closers, waitUntil } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe('a run whose exchange-rate stream stalls', () => {
  it('reads the rate for its checks and its equity once the last one expired, and says so once', async () => {
    let reads: ReturnType<typeof vi.spyOn> | undefined;
    // 10:00 New York, both clocks frozen (moved by hand below)
    const { s, lines } = await startFxRun(closers, {
      runId: 'broker-fx-stale',
      // the stream gives the rate of the start and then none for an hour: stalled
      streamIntervals: { exchangeRate: 3_600_000 },
      prepare: (b) => {
        reads = vi.spyOn(b.client, 'getExchangeRate');
      },
    });
    const stale = () => lines.filter((l) => l.msg.includes('USD/KRW rate expired'));
    // the run's read at its start and its stream's first (and last) poll
    expect(await waitUntil(() => (reads?.mock.calls.length ?? 0) >= 2, 20_000)).toBe(true);
    const streamRate = await reads?.mock.results[1]?.value;
    const atStream = streamRate.rate.times(10_000).toNumber();
    expect(await waitUntil(() => valuedAt(atStream), 20_000)).toBe(true);

    // the rate of the start expired minutes ago: the next risk refresh reads the rate of now
    const step = 60_000 + FX_STALE_MARGIN_MS + 60_000;
    advance(s, step);
    const later = await usdInKrw(s);
    // the test means something only if the rate moved
    expect(later).not.toBeCloseTo(atStream, 0);
    // before: valued at the rate of the start for as long as the stream stalled
    expect(await waitUntil(() => valuedAt(later), 30_000)).toBe(true);
    expect(stale()).toHaveLength(1);
    expect(stale()[0]?.level).toBe(40); // warn

    // still stalled: read again once the read rate expired too, not said again
    advance(s, step);
    const third = await usdInKrw(s);
    expect(third).not.toBeCloseTo(later, 0);
    expect(await waitUntil(() => valuedAt(third), 30_000)).toBe(true);
    expect(stale()).toHaveLength(1);
  }, 90_000);

  it('holds the rate of its start to the validity the broker gave it when the stream never answers', async () => {
    // 10:00:40 New York (00:00:40 KST): the rate of the start is valid until 10:01:00, 20 s on
    let reads: ReturnType<typeof vi.spyOn> | undefined;
    const { s, lines } = await startFxRun(closers, {
      runId: 'broker-fx-start-stale',
      start: '2026-11-23T10:00:40-05:00',
      streamIntervals: { exchangeRate: 3_600_000 },
      // the broker answers the run's read at its start, then fails every exchange-rate request
      // until the stream's first poll has failed: the stream gives no rate for an hour
      prepare: (b) => {
        const read = b.client.getExchangeRate.bind(b.client);
        reads = vi.spyOn(b.client, 'getExchangeRate').mockImplementation(async (...args) => {
          const answer = await read(...args);
          if (reads?.mock.calls.length === 1)
            b.sim.injectFault({ kind: 'internal-error', path: '/api/v1/exchange-rate' });
          return answer;
        });
      },
    });
    expect(await waitUntil(() => reads?.mock.settledResults[1]?.type === 'rejected', 30_000)).toBe(true);
    s.sim.clearFaults();
    const atStart = await usdInKrw(s);
    expect(valuedAt(atStart)).toBe(true);

    // 10:06:20: more than 5 minutes past the broker's validity (10:01:00), less than past a
    // minute after the start (10:01:40), which the run held the rate of its start to before
    advance(s, 5 * 60_000 + 40_000);
    const later = await usdInKrw(s);
    expect(later).not.toBeCloseTo(atStart, 0); // the test means something only if the rate moved
    expect(await waitUntil(() => valuedAt(later), 30_000)).toBe(true);
    const stale = lines.filter((l) => l.msg.includes('USD/KRW rate expired'));
    expect(stale.map((l) => l.msg.match(/expired at (.*?) KST/)?.[1])).toEqual(['2026-11-24 00:01:00']);
  }, 90_000);
});

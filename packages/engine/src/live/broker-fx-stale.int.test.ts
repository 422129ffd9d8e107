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
});

/**
 * A run follows the broker's USD/KRW rate on its exchange-rate stream (refreshed every minute, each
 * rate valid for a minute). When the stream gives no newer rate for longer than the rate's validity
 * and a margin, the risk checks read it themselves, the run values USD at the rate they read, and
 * the log says so once. Before, the last rate was kept for as long as the stream stalled, silently.
 */
import { createLogger, Decimal } from '@hoga/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FX_STALE_MARGIN_MS } from '../risk/followed-fx.js';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';
import { Closers, openTempDb, startSimulatedBroker, waitUntil } from './live-run.test-helper.js';
import { startLiveRun } from './run-live.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Keeps its context, to read its equity. */
class Holds extends Strategy {
  static ctx: StrategyContext | null = null;
  override onStart(): void {
    Holds.ctx = this.ctx;
  }
}

describe('a run whose exchange-rate stream stalls', () => {
  it('reads the rate for its checks and its equity once the last one expired, and says so once', async () => {
    // 10:00 New York, both clocks frozen (moved by hand below)
    const s = await startSimulatedBroker(closers, { start: '2026-11-23T10:00:00-05:00', speed: 0 });
    const db = openTempDb(closers, 'hoga-broker-fx-stale-', s.clock);
    const lines: { level: number; msg: string }[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    });
    const reads = vi.spyOn(s.client, 'getExchangeRate');
    const handle = await startLiveRun({
      settings: {
        runId: 'broker-fx-stale',
        mode: 'paper',
        symbols: ['AAPL'],
        interval: '1m',
        cash: { KRW: new Decimal(0), USD: new Decimal(10_000) },
      },
      strategies: [{ strategyClass: Holds }],
      client: s.client,
      db,
      clock: s.clock,
      logger,
      // the stream gives the rate of the start and then none for an hour: stalled
      streamIntervals: { exchangeRate: 3_600_000 },
    });
    closers.add(() => handle.stop());
    const usdInKrw = async () => (await s.client.getExchangeRate()).rate.times(10_000).toNumber();
    const stale = () => lines.filter((l) => l.msg.includes('USD/KRW rate expired'));
    // the run's read at its start and its stream's first (and last) poll
    expect(await waitUntil(() => reads.mock.calls.length >= 2, 20_000)).toBe(true);
    const streamRate = (await reads.mock.results[1]?.value)?.rate as Decimal | undefined;
    const valuedAt = (krw: number) => Math.abs((Holds.ctx?.equity() ?? 0) - krw) < 1e-6;
    const atStream = streamRate?.times(10_000).toNumber() ?? 0;
    expect(await waitUntil(() => valuedAt(atStream), 20_000)).toBe(true);

    // the rate of the start expired minutes ago: the next risk refresh reads the rate of now
    const step = 60_000 + FX_STALE_MARGIN_MS + 60_000;
    s.sim.advanceClock(step);
    s.clock.advance(step);
    const later = await usdInKrw();
    // the test means something only if the rate moved
    expect(later).not.toBeCloseTo(atStream, 0);
    // before: valued at the rate of the start for as long as the stream stalled
    expect(await waitUntil(() => valuedAt(later), 30_000)).toBe(true);
    expect(stale()).toHaveLength(1);
    expect(stale()[0]?.level).toBe(40); // warn

    // still stalled: read again once the read rate expired too, not said again
    s.sim.advanceClock(step);
    s.clock.advance(step);
    const third = await usdInKrw();
    expect(third).not.toBeCloseTo(later, 0);
    expect(await waitUntil(() => valuedAt(third), 30_000)).toBe(true);
    expect(stale()).toHaveLength(1);
  }, 90_000);
});

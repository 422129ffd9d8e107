/**
 * The risk module as a live run's gate (startLiveRun binds it): a strategy that places orders in a
 * tight loop against the simulator is throttled by hoga — the strategy receives the denials, the
 * broker sees only what the cap lets through and never answers 429.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import { startLiveRun } from '../live/run-live.js';
import { startFrozenSimulator } from '../orders/live-fixture.test-helper.js';
import { FixedFxRates } from '../portfolio/fx-rates.js';
import { Strategy } from '../strategy/strategy.js';

/** Places 60 one-share limit buys far below the market as fast as it can, and keeps what comes back. */
class Looper extends Strategy {
  static readonly seen: OrderEvent[] = [];
  override onStart(): void {
    for (let i = 0; i < 60; i++) this.ctx.buy('005930', 1, 50_000 + i * 100);
  }
  override onOrderEvent(event: OrderEvent): void {
    Looper.seen.push(event);
  }
}

describe('risk module in a live run', () => {
  it('throttles a strategy placing orders in a tight loop before the broker limits it', async () => {
    const { sim, clock, client } = await startFrozenSimulator({ rateLimit: true });
    const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-live-'));
    const db = HogaDatabase.open(join(dir, 'hoga.sqlite'), { clock });
    try {
      const run = await startLiveRun({
        settings: { runId: 'risk-loop', mode: 'live', symbols: ['005930'], interval: '1m', cash: {} },
        strategies: [{ strategyClass: Looper, id: 'looper' }],
        client,
        db,
        clock,
        logger: createLogger({ level: 'silent' }),
        fx: new FixedFxRates(1370),
        pollIntervalMs: 200,
        risk: { defaults: { maxOpenOrders: 100 } },
      });
      await run.manager?.idle();
      const denied = Looper.seen.filter((e) => e.type === 'OrderDenied');
      expect(denied).toHaveLength(30);
      expect(denied.every((e) => e.type === 'OrderDenied' && e.code === 'risk-throttle-symbol')).toBe(true);
      const counters = sim.counters();
      expect(counters.ordersCreated).toBe(30);
      expect(counters.rateLimited).toBe(0);
      expect(run.status().risk).toBe('risk: all ACTIVE');
      await run.stop();
    } finally {
      client.close();
      db.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

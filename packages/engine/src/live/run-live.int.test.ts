/**
 * Live and paper runs of the engine against the simulator over real HTTP (its clock running ×30,
 * the engine clock following it): a strategy that buys once trades through the order manager
 * (live) or the simulated venue on live books (paper, no order request reaching the broker), and
 * paper state survives into the next paper run.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient } from '@hoga/connector';
import { type Bar, createLogger, Decimal, type OrderEvent, ScaledClock } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { FixedFxRates } from '../portfolio/fx-rates.js';
import { Strategy } from '../strategy/strategy.js';
import { type LiveRunHandle, startLiveRun } from './run-live.js';

class BuyOnce extends Strategy {
  private bought = false;
  override onBar(bar: Bar): void {
    if (this.bought || bar.symbol !== '005930') return;
    this.bought = true;
    this.ctx.buy(bar.symbol, 2);
  }
}

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(): Promise<{
  sim: SimulatorHandle;
  client: BrokerClient;
  clock: ScaledClock;
  db: HogaDatabase;
}> {
  const sim = await startSimulator({ port: 0, seed: 7, start: '2026-11-23T10:00:00+09:00', speed: 30 });
  closers.push(() => sim.close());
  const clock = new ScaledClock({ start: sim.now(), speed: 30 });
  const client = new BrokerClient({
    clock,
    config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
  });
  closers.push(() => client.close());
  const db = HogaDatabase.open(join(mkdtempSync(join(tmpdir(), 'hoga-live-')), 'hoga.sqlite'), { clock });
  closers.push(() => db.close());
  return { sim, client, clock, db };
}

async function run(
  mode: 'live' | 'paper',
  s: { client: BrokerClient; clock: ScaledClock; db: HogaDatabase },
): Promise<{ handle: LiveRunHandle; events: OrderEvent[] }> {
  const events: OrderEvent[] = [];
  const handle = await startLiveRun({
    settings: {
      runId: `t-${mode}`,
      mode,
      symbols: ['005930'],
      interval: '1m',
      cash: { KRW: new Decimal(1_000_000) },
    },
    strategies: [{ strategyClass: BuyOnce }],
    client: s.client,
    db: s.db,
    clock: s.clock,
    logger: createLogger({ level: 'silent' }),
    fx: new FixedFxRates(1400),
    pollIntervalMs: 200,
    streamIntervals: { candles1m: 300, orderbook: 200 },
    onEvent: (e) => events.push(e),
  });
  return { handle, events };
}

async function until(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('startLiveRun', () => {
  it('live: the strategy buys through the order manager; store fills and positions match the broker', async () => {
    const s = await setup();
    const { handle, events } = await run('live', s);
    await until(() => events.some((e) => e.type === 'OrderFilled'));
    await handle.stop();
    const fill = events.find((e) => e.type === 'OrderFilled');
    expect(fill?.strategyId).toBe('BuyOnce');
    expect(handle.status().positions.get('005930')?.toString()).toBe('102');
    const holdings = await s.client.getHoldings();
    expect(holdings.items.find((i) => i.symbol === '005930')?.quantity.toString()).toBe('102');
    expect(s.db.fills.list().map((f) => f.quantity.toString())).toEqual(['2']);
    expect(await handle.manager?.checkPositions()).toEqual([]);
  }, 90_000);

  it('paper: fills on the live book with no order request at the broker; the ledger carries into the next run', async () => {
    const s = await setup();
    const first = await run('paper', s);
    await until(() => first.events.some((e) => e.type === 'OrderFilled'));
    await first.handle.stop();
    expect(s.sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);
    expect(first.handle.status().positions.get('005930')?.toString()).toBe('2');
    const second = await run('paper', s);
    try {
      expect(second.handle.status().positions.get('005930')?.toString()).toBe('2');
    } finally {
      await second.handle.stop();
    }
    expect(s.sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);
  }, 90_000);
});

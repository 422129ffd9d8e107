/**
 * A live run restarted on the same store: the strategy's resting broker order of the first run is
 * tracked again by its strategy in the second (`openOrders()` shows it in `onStart`), and its fill
 * in the second run reaches the strategy's order view, its `onFill` and its position.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient } from '@hoga/connector';
import { type Bar, createLogger, Decimal, type Fill, type OrderEvent, ScaledClock } from '@hoga/core';
import { startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { FixedFxRates } from '../portfolio/fx-rates.js';
import type { StrategySpec } from '../runtime/engine-runtime.js';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';
import { type LiveRunHandle, startLiveRun } from './run-live.js';

/** Places one limit buy of 2 005930 well below the market, on the first bar; it rests. */
class RestBelow extends Strategy {
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    this.ctx.buy(bar.symbol, 2, Math.floor((bar.close * 0.97) / 100) * 100);
  }
}

/** Places nothing; records the open orders it finds in `onStart` and the fills it gets. */
class Watch extends Strategy {
  static found: string[] = [];
  static fills: Fill[] = [];
  static ctx: StrategyContext | null = null;
  override onStart(): void {
    Watch.ctx = this.ctx;
    Watch.found = this.ctx
      .openOrders()
      .map((o) => `${o.clientOrderId} ${o.side} ${o.quantity?.toFixed()} @ ${o.price?.toFixed()} ${o.state}`);
  }
  override onFill(fill: Fill): void {
    Watch.fills.push(fill);
  }
}

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function until(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('startLiveRun after a restart', () => {
  it('live: the strategy tracks its resting broker order again, and gets its fill', async () => {
    const sim = await startSimulator({ port: 0, seed: 7, start: '2026-11-23T10:00:00+09:00', speed: 30 });
    closers.push(() => sim.close());
    const clock = new ScaledClock({ start: sim.now(), speed: 30 });
    const client = new BrokerClient({
      clock,
      config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
    });
    closers.push(() => client.close());
    const file = join(mkdtempSync(join(tmpdir(), 'hoga-live-restart-')), 'hoga.sqlite');
    let db = HogaDatabase.open(file, { clock });
    closers.push(() => db.close());

    const run = async (strategy: StrategySpec): Promise<{ handle: LiveRunHandle; events: OrderEvent[] }> => {
      const events: OrderEvent[] = [];
      const handle = await startLiveRun({
        settings: {
          runId: 't-live',
          mode: 'live',
          symbols: ['005930'],
          interval: '1m',
          cash: { KRW: new Decimal(1_000_000) },
        },
        strategies: [strategy],
        client,
        db,
        clock,
        logger: createLogger({ level: 'silent' }),
        fx: new FixedFxRates(1400),
        pollIntervalMs: 200,
        streamIntervals: { candles1m: 300, orderbook: 200 },
        onEvent: (e) => events.push(e),
      });
      return { handle, events };
    };

    const first = await run({ strategyClass: RestBelow });
    await until(() => first.events.some((e) => e.type === 'OrderAccepted'));
    await first.handle.stop(); // no cancel-on-stop: the order stays open at the broker
    const submitted = first.events.find((e) => e.type === 'OrderSubmitted');
    if (submitted?.type !== 'OrderSubmitted' || submitted.intent.orderType !== 'LIMIT')
      throw new Error('no limit order');
    const limit = submitted.intent.price;

    // the engine restarts on the same SQLite file: the same strategy id, a strategy that places nothing
    db.close();
    db = HogaDatabase.open(file, { clock });
    const second = await run({ strategyClass: Watch, id: 'RestBelow' });
    try {
      expect(Watch.found).toEqual([`${submitted.clientOrderId} BUY 2 @ ${limit.toFixed()} ACCEPTED`]);
      // the market falls through the limit: the broker fills the order of the first run
      sim.setPrice('005930', limit.minus(1_000));
      await until(() => Watch.fills.length > 0);
    } finally {
      await second.handle.stop();
    }
    const fill = second.events.find((e) => e.type === 'OrderFilled');
    if (fill?.type !== 'OrderFilled') throw new Error('no fill event');
    expect(fill.clientOrderId).toBe(submitted.clientOrderId);
    expect(fill.strategyId).toBe('RestBelow');
    expect(Watch.fills.map((f) => f.quantity.toFixed())).toEqual(['2']);
    const ctx = Watch.ctx;
    if (ctx === null) throw new Error('no context');
    expect(ctx.openOrders()).toEqual([]);
    expect(ctx.order(submitted.clientOrderId)?.state).toBe('FILLED');
    expect(ctx.order(submitted.clientOrderId)?.filledQuantity.toFixed()).toBe('2');
    expect(ctx.position('005930')?.quantity.toFixed()).toBe('2');
  }, 120_000);
});

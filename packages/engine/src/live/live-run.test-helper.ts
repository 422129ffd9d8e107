/**
 * Test fixture of the live and paper run integration tests: the simulator on 127.0.0.1:0 with its
 * clock running at a speed and an engine clock following it, a broker client, SQLite files in a
 * temporary folder, a live or paper run that records its order events, and a poll loop. What a
 * test opens is closed by its {@link Closers}, last opened first; and two strategies of the
 * restart tests. Test code only.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient } from '@hoga/connector';
import {
  type Bar,
  type BarInterval,
  createLogger,
  Decimal,
  type Fill,
  type LimitOrderIntent,
  type OrderEvent,
  ScaledClock,
} from '@hoga/core';
import { type SimulatorHandle, type SimulatorOptions, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { FixedFxRates } from '../portfolio/fx-rates.js';
import type { StrategySpec } from '../runtime/engine-runtime.js';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';
import { type LiveRunHandle, type LiveRunOptions, startLiveRun } from './run-live.js';

/** Monday 2026-11-23 10:00 KST: KR regular session. */
export const KR_OPEN = '2026-11-23T10:00:00+09:00';

/** What a test opened, closed in reverse order by {@link Closers.closeAll} (from `afterEach` or `afterAll`). */
export class Closers {
  private readonly list: (() => Promise<void> | void)[] = [];

  add(close: () => Promise<void> | void): void {
    this.list.push(close);
  }

  async closeAll(): Promise<void> {
    for (const close of this.list.splice(0).reverse()) await close();
  }
}

/** A running simulator, the engine clock following it and a broker client for it. */
export interface SimulatedBroker {
  readonly sim: SimulatorHandle;
  readonly clock: ScaledClock;
  readonly client: BrokerClient;
}

/**
 * Starts the simulator (seed 7, the KR session of {@link KR_OPEN}, unless `options` say otherwise)
 * with an engine clock at its speed and a client; both closed by `closers`. `prepare` acts on the
 * simulator before the engine clock is set from it (prices of an earlier day, a clock advanced).
 */
export async function startSimulatedBroker(
  closers: Closers,
  options: SimulatorOptions & {
    readonly speed: number;
    readonly prepare?: (sim: SimulatorHandle) => void;
    /** The client's retries of a failed request (default: the connector's). */
    readonly maxRetries?: number;
  },
): Promise<SimulatedBroker> {
  const { prepare, maxRetries, ...simOptions } = options;
  const sim = await startSimulator({ port: 0, seed: 7, start: KR_OPEN, ...simOptions });
  closers.add(() => sim.close());
  prepare?.(sim);
  const clock = new ScaledClock({ start: sim.now(), speed: options.speed });
  const client = new BrokerClient({
    clock,
    config: {
      baseUrl: sim.url,
      clientId: 'sim-client',
      clientSecret: 'sim-secret',
      ...(maxRetries === undefined ? {} : { maxRetries }),
    },
  });
  closers.add(() => client.close());
  return { sim, clock, client };
}

/** A new SQLite file's path (the file not yet created) in a new temporary folder named `prefix…`. */
export function tempDbFile(prefix: string): string {
  return join(mkdtempSync(join(tmpdir(), prefix)), 'hoga.sqlite');
}

/** Opens a new SQLite file in a new temporary folder named `prefix…`, closed by `closers`. */
export function openTempDb(closers: Closers, prefix: string, clock?: ScaledClock): HogaDatabase {
  const db = HogaDatabase.open(tempDbFile(prefix), clock === undefined ? {} : { clock });
  closers.add(() => db.close());
  return db;
}

/** What a run is: its id, mode, symbols, bar interval (default 1m), starting cash and strategies. */
export interface TestRun {
  readonly runId: string;
  readonly mode: 'live' | 'paper';
  readonly symbols: readonly string[];
  readonly interval?: BarInterval;
  readonly cashKrw: Decimal;
  /** Starting USD (paper), none by default. */
  readonly cashUsd?: Decimal;
  readonly strategies: readonly StrategySpec[];
}

/** A started run and the order events it reported so far. */
export interface StartedRun {
  readonly handle: LiveRunHandle;
  readonly events: OrderEvent[];
}

/**
 * Starts a live or paper run on `broker`'s client and clock and on `db`, with a silent logger (unless
 * `options.logger`) and
 * a fixed USD/KRW rate of 1400; its order events are recorded (and handed to `options.onEvent`).
 * The run is not stopped by this helper.
 */
export async function startTestRun(
  s: { readonly client: BrokerClient; readonly clock: ScaledClock; readonly db: HogaDatabase },
  run: TestRun,
  options: Omit<Partial<LiveRunOptions>, 'settings' | 'strategies' | 'client' | 'db' | 'clock' | 'fx'> = {},
): Promise<StartedRun> {
  const events: OrderEvent[] = [];
  const handle = await startLiveRun({
    ...options,
    settings: {
      runId: run.runId,
      mode: run.mode,
      symbols: run.symbols,
      interval: run.interval ?? '1m',
      cash: { KRW: run.cashKrw, ...(run.cashUsd === undefined ? {} : { USD: run.cashUsd }) },
    },
    strategies: run.strategies,
    client: s.client,
    db: s.db,
    clock: s.clock,
    logger: options.logger ?? createLogger({ level: 'silent' }),
    fx: new FixedFxRates(1400),
    onEvent: (e) => {
      events.push(e);
      options.onEvent?.(e);
    },
  });
  return { handle, events };
}

/**
 * Starts a run `t-<mode>` of one strategy on 005930 with 1,000,000 KRW, its orders polled every
 * 200 ms, its candles every 300 ms and its book every 200 ms (real time).
 */
export function startRunOf005930(
  s: { readonly client: BrokerClient; readonly clock: ScaledClock; readonly db: HogaDatabase },
  mode: 'live' | 'paper',
  strategy: StrategySpec,
): Promise<StartedRun> {
  return startTestRun(
    s,
    {
      runId: `t-${mode}`,
      mode,
      symbols: ['005930'],
      cashKrw: new Decimal(1_000_000),
      strategies: [strategy],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
  );
}

/** A started run whose failure is watched, stopped by the test or else by the closers. */
export interface WatchedRun extends StartedRun {
  /** The run's failure (what stopped it as a failed run), null while it has not failed. */
  failure(): string | null;
  /** Stops the run (the closers then leave it alone). */
  stop(): Promise<void>;
}

/**
 * Starts a live run `runId` of one strategy on 005930 with 1,000,000 KRW, its orders polled every
 * 300 ms and its errors not told, whose failure is watched; the closers stop it unless the test did.
 */
export async function startWatchedRun(
  closers: Closers,
  s: { readonly client: BrokerClient; readonly clock: ScaledClock; readonly db: HogaDatabase },
  runId: string,
  strategy: StrategySpec,
): Promise<WatchedRun> {
  const run = await startTestRun(
    s,
    { runId, mode: 'live', symbols: ['005930'], cashKrw: new Decimal(1_000_000), strategies: [strategy] },
    { pollIntervalMs: 300, onError: () => undefined },
  );
  let stopped = false;
  closers.add(() => (stopped ? undefined : run.handle.stop()));
  let failure: string | null = null;
  void run.handle.failed.then((f) => {
    failure = f.message;
  });
  return {
    ...run,
    failure: () => failure,
    stop: async () => {
      stopped = true;
      await run.handle.stop();
    },
  };
}

/** Polls `check` every 50 ms (real time) for up to `timeoutMs`; answers whether it came true. */
export async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** Polls `check` every 50 ms (real time) until it is true; throws `timed out` after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  if (!(await waitUntil(check, timeoutMs))) throw new Error('timed out');
}

/** Places one limit buy of 2 005930 well below the market (3% under the close), on the first bar; it rests. */
export class RestBelow extends Strategy {
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    this.ctx.buy(bar.symbol, 2, Math.floor((bar.close * 0.97) / 100) * 100);
  }
}

/**
 * A {@link RestBelow} run of `mode` on `s` until its order is accepted, then stopped (the order
 * rests); answers the order's limit intent.
 */
export async function restOneOrder(
  s: { readonly client: BrokerClient; readonly clock: ScaledClock; readonly db: HogaDatabase },
  mode: 'live' | 'paper',
): Promise<LimitOrderIntent> {
  const first = await startRunOf005930(s, mode, { strategyClass: RestBelow });
  await until(() => first.events.some((e) => e.type === 'OrderAccepted'));
  await first.handle.stop();
  const submitted = first.events.find((e) => e.type === 'OrderSubmitted');
  if (submitted?.type !== 'OrderSubmitted' || submitted.intent.orderType !== 'LIMIT')
    throw new Error('no resting limit order');
  return submitted.intent as LimitOrderIntent;
}

/**
 * Places nothing; records the open orders it finds in `onStart` (as `id side quantity @ price
 * state`), its context, and the fills it gets.
 */
export class Watch extends Strategy {
  static found: string[] = [];
  static fills: Fill[] = [];
  static ctx: StrategyContext | null = null;
  /**
   * A run's new instance starts what it records afresh (before: only a new module did, and an
   * int test file sharing its worker's modules with another saw that one's fills).
   */
  constructor(ctx: StrategyContext, config: never) {
    super(ctx, config);
    Watch.found = [];
    Watch.fills = [];
    Watch.ctx = null;
  }
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

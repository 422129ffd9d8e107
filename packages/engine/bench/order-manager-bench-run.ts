/**
 * The live runtime wired offline for the latency figure of `order-manager.bench.ts`: a strategy
 * that buys on every bar, the pass-through risk gate, the live venue over the order manager, and a
 * gateway stand-in that notes when `createOrder` is called. Bench code only.
 */
import 'reflect-metadata';
import { PerformanceObserver } from 'node:perf_hooks';
import { Ledger } from '@hoga/broker-model';
import { type Bar, createLogger, Decimal, VirtualClock } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { Container } from 'inversify';
import { LiveVenue } from '../src/live/live-venue.js';
import { OrderManager } from '../src/orders/order-manager.js';
import type { OrderGateway } from '../src/orders/order-requests.js';
import { AccountViewToken, LedgerAccountView } from '../src/portfolio/account-view.js';
import { FixedFxRates, FxRates } from '../src/portfolio/fx-rates.js';
import { MarkBook } from '../src/portfolio/mark-book.js';
import { Portfolio, StrategyPortfolio } from '../src/portfolio/portfolio.js';
import { PassThroughRiskGate, RiskGate } from '../src/risk/risk-gate.js';
import { EngineRuntime } from '../src/runtime/engine-runtime.js';
import { OrderIdFactory, RandomOrderIds } from '../src/runtime/order-ids.js';
import { TimerQueue } from '../src/runtime/timer-queue.js';
import { ClockToken, DatabaseToken, LoggerToken, RunSettings } from '../src/runtime/tokens.js';
import { EventRecorder, JournalRecorder } from '../src/store/event-recorder.js';
import { DatabaseStrategyStateStore, StrategyStateStore } from '../src/store/strategy-state-store.js';
import { Strategy } from '../src/strategy/strategy.js';
import { ExecutionVenue } from '../src/venue/execution-venue.js';

class BuyEveryBar extends Strategy {
  override onBar(bar: Bar): void {
    this.ctx.buy(bar.symbol, 1);
  }
}

/** One order's time from its bar to its request, and what happened meanwhile. */
export interface LatencySample {
  /** ms from handing the bar to the runtime to the gateway's `createOrder` call. */
  readonly ms: number;
  /** Whether it was the first order after a WAL checkpoint (the checkpoint ran before its bar). */
  readonly afterCheckpoint: boolean;
  /** Whether a garbage collection ran between its bar and its request. */
  readonly gc: boolean;
}

/** What {@link startLiveRunOffline} measured. */
export interface LatencyRun {
  /** The orders after the warm-up ones. */
  readonly samples: LatencySample[];
  /** The first {@link WARM_UP} orders (the JIT compiles the path while they run). */
  readonly warmUp: LatencySample[];
  readonly checkpoints: { readonly count: number; readonly totalMs: number; readonly maxMs: number };
}

/** Orders run first and reported apart: the JIT compiles the path while they run. */
export const WARM_UP = 100;

/**
 * Runs `WARM_UP + orders` bars through the live runtime; returns each bar's time to the order
 * request.
 *
 * @param file - the SQLite file
 * @param durability - how the command is written before it is sent
 * @param orders - how many bars (one order each)
 */
export async function startLiveRunOffline(
  file: string,
  durability: 'full' | 'normal',
  orders: number,
): Promise<LatencyRun> {
  const clock = new VirtualClock('2026-11-23T10:00:00+09:00');
  const db = HogaDatabase.open(file, { clock });
  let sent = 0;
  let n = 0;
  const gateway: OrderGateway = {
    createOrder: async () => {
      sent = performance.now();
      n++;
      return { orderId: `o${n}`, clientOrderId: null, raw: {} } as never;
    },
    modifyOrder: async () => {
      throw new Error('unused');
    },
    cancelOrder: async () => {
      throw new Error('unused');
    },
    getOrder: async () => {
      throw new Error('unused');
    },
    listOrders: async () => ({ orders: [], nextCursor: null, hasNext: false }),
    getHoldings: async () => ({ items: [] }) as never,
  };
  // Checkpoints every 50 ms (the engine's default is 1 s): the run is short, and they must happen
  // during it, between events, as they would between a live run's events.
  const manager = new OrderManager(gateway, db, clock, {
    commandDurability: durability,
    checkpointEveryMs: CHECKPOINT_EVERY_MS,
  });
  await manager.reconcile();
  const venue = new LiveVenue(manager);
  const c = new Container();
  c.bind(RunSettings).toConstantValue({
    runId: 'bench',
    mode: 'live',
    symbols: ['005930'],
    interval: '1m',
    cash: {},
  });
  c.bind(ClockToken).toConstantValue(clock);
  c.bind(LoggerToken).toConstantValue(createLogger({ level: 'silent' }));
  c.bind(DatabaseToken).toConstantValue(db);
  c.bind(FxRates).toConstantValue(new FixedFxRates(1400));
  c.bind(MarkBook).toConstantValue(new MarkBook());
  c.bind(TimerQueue).toSelf().inSingletonScope();
  c.bind(RiskGate).to(PassThroughRiskGate).inSingletonScope();
  c.bind(Portfolio).to(StrategyPortfolio).inSingletonScope();
  c.bind(OrderIdFactory).toConstantValue(new RandomOrderIds());
  c.bind(ExecutionVenue).toConstantValue(venue);
  c.bind(AccountViewToken).toConstantValue(new LedgerAccountView(new Ledger({ KRW: new Decimal(1e12) })));
  c.bind(EventRecorder).toConstantValue(new JournalRecorder(db, 'live'));
  c.bind(StrategyStateStore).toConstantValue(new DatabaseStrategyStateStore(db, ''));
  c.bind(EngineRuntime).toSelf().inSingletonScope();
  const runtime = c.get(EngineRuntime);
  runtime.addStrategy({ strategyClass: BuyEveryBar as never });
  const host = runtime.hosts[0];
  if (host === undefined) throw new Error('no host');
  const timed: { t0: number; sent: number; afterCheckpoint: boolean }[] = [];
  const gcs: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  let checkpointsSeen = db.checkpointStats.count;
  for (let i = 0; i < orders + WARM_UP; i++) {
    const bar: Bar = {
      symbol: '005930',
      interval: '1m',
      ts: i * 60_000,
      closeTime: (i + 1) * 60_000,
      open: 1,
      high: 1,
      low: 1,
      close: 1,
      volume: 1,
    };
    // Events arrive from the network, one macrotask each: timers (the checkpoints) run between them.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const before = n;
    const t0 = performance.now();
    runtime.call(host, 'onBar', bar);
    await manager.idle();
    if (n === before) throw new Error('no order request');
    const count = db.checkpointStats.count;
    timed.push({ t0, sent, afterCheckpoint: count !== checkpointsSeen });
    checkpointsSeen = count;
  }
  await new Promise<void>((resolve) => setImmediate(resolve)); // the last GC entries
  observer.disconnect();
  const all = timed.map(
    (t): LatencySample => ({
      ms: t.sent - t.t0,
      afterCheckpoint: t.afterCheckpoint,
      gc: gcs.some((g) => g.start < t.sent && g.end > t.t0),
    }),
  );
  const checkpoints = db.checkpointStats;
  db.close();
  return { samples: all.slice(WARM_UP), warmUp: all.slice(0, WARM_UP), checkpoints };
}

/** Checkpoint interval of the latency run (`HOGA_BENCH_CHECKPOINT_MS`; 0: SQLite's automatic checkpoints). */
export const CHECKPOINT_EVERY_MS = Number(process.env.HOGA_BENCH_CHECKPOINT_MS ?? 50);

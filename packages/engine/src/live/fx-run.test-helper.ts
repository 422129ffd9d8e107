/**
 * Test fixture of the runs' USD/KRW tests (broker-fx*.int.test.ts): a paper run with no rates of
 * its own over the simulator on 127.0.0.1, its clocks frozen (moved by hand), its log kept, and a
 * strategy that keeps its context to read its equity. Test code only.
 */

import type { StreamIntervals } from '@hoga/connector';
import { createLogger, Decimal, type OrderEvent } from '@hoga/core';
import type { StrategySpec } from '../runtime/engine-runtime.js';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';
import {
  type Closers,
  openTempDb,
  type SimulatedBroker,
  startSimulatedBroker,
} from './live-run.test-helper.js';
import { type LiveRunHandle, startLiveRun } from './run-live.js';

/** Keeps its context, to read its equity. */
export class Holds extends Strategy {
  static ctx: StrategyContext | null = null;
  override onStart(): void {
    Holds.ctx = this.ctx;
  }
}

/** A paper run of one symbol, started by {@link startFxRun}. */
export interface FxRun {
  readonly s: SimulatedBroker;
  readonly handle: LiveRunHandle;
  /** The run's log lines, parsed (`level` 40 is a warning). */
  readonly lines: { readonly level: number; readonly msg: string }[];
}

/** 10:00 New York on Monday 2026-11-23: the US regular session. */
export const US_MORNING = '2026-11-23T10:00:00-05:00';

/**
 * Starts the simulator frozen at `start` (default {@link US_MORNING}) and a paper run on it that is
 * given no USD/KRW rates, of one symbol (default AAPL) with 10,000 USD (unless `cash` says
 * otherwise) and {@link Holds} (unless `strategyClass`); closed by `closers`.
 *
 * @param o.prepare - acts on the simulator and the client before the run starts (faults, spies)
 */
export async function startFxRun(
  closers: Closers,
  o: {
    readonly runId: string;
    readonly start?: string;
    readonly symbol?: string;
    readonly cash?: { readonly KRW: number; readonly USD: number };
    readonly strategyClass?: StrategySpec['strategyClass'];
    readonly streamIntervals: Partial<StreamIntervals>;
    readonly onEvent?: (event: OrderEvent) => void;
    readonly prepare?: (s: SimulatedBroker) => void;
  },
): Promise<FxRun> {
  const s = await startSimulatedBroker(closers, { start: o.start ?? US_MORNING, speed: 0 });
  const db = openTempDb(closers, `hoga-${o.runId}-`, s.clock);
  const lines: { level: number; msg: string }[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  o.prepare?.(s);
  const handle = await startLiveRun({
    settings: {
      runId: o.runId,
      mode: 'paper',
      symbols: [o.symbol ?? 'AAPL'],
      interval: '1m',
      cash: { KRW: new Decimal(o.cash?.KRW ?? 0), USD: new Decimal(o.cash?.USD ?? 10_000) },
    },
    strategies: [{ strategyClass: o.strategyClass ?? Holds }],
    client: s.client,
    db,
    clock: s.clock,
    logger,
    streamIntervals: o.streamIntervals,
    ...(o.onEvent === undefined ? {} : { onEvent: o.onEvent }),
  });
  closers.add(() => handle.stop());
  return { s, handle, lines };
}

/** Moves the simulator's clock and the engine's by `ms`. */
export function advance(s: SimulatedBroker, ms: number): void {
  s.sim.advanceClock(ms);
  s.clock.advance(ms);
}

/** 10,000 USD in KRW at the broker's rate valid now. */
export async function usdInKrw(s: SimulatedBroker): Promise<number> {
  return (await s.client.getExchangeRate()).rate.times(10_000).toNumber();
}

/** Whether {@link Holds}' equity is `krw` (within 1e-6 KRW). */
export function valuedAt(krw: number): boolean {
  return Math.abs((Holds.ctx?.equity() ?? 0) - krw) < 1e-6;
}

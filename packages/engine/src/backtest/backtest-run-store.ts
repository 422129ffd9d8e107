/**
 * A backtest as a stored run (`hoga db runs`): its row written before the first hook (status
 * `running`); its trades written by the run's journal writer from the fills it journals (a worker
 * thread, while the bars go on); and at the end, once every trade is committed, its equity curve,
 * statistics and status in one transaction. A run whose rows could not all be stored, or that
 * stopped on an error, is stored as `failed` with the reason in its statistics.
 *
 * @module
 */
import { type HogaDatabase, type RunJournalWriter, RunRepository } from '@hoga/store';
import type { EquityPoint } from '../portfolio/portfolio.js';
import type { PerformanceStats } from '../stats/performance-stats.js';
import type { StrategyStats } from '../stats/strategy-stats.js';
import type { BacktestRecord } from './run-backtest.js';

/** How a stored run ended. */
export interface StoredRunEnd {
  readonly status: 'completed' | 'failed' | 'stopped';
  readonly equity: readonly EquityPoint[];
  readonly stats: PerformanceStats;
  /** Of the net profit, what the USD/KRW rate's moves made on the USD cash, KRW (stored beside the statistics). */
  readonly fxOnUsdCash: number;
  /** Each strategy's part, in the order given (stored beside the statistics as `byStrategy`). */
  readonly byStrategy: readonly StrategyStats[];
  /** The orders refused, by code (stored beside the statistics). */
  readonly refused: Readonly<Record<string, number>>;
  /** The daily loss limit's halts, by scope (stored beside the statistics). */
  readonly halts: Readonly<Record<string, number>>;
  readonly bars: number;
  /** Why it failed (a hook's failure), or null. */
  readonly failure: string | null;
}

/** The stored run of one backtest. */
export class BacktestRunStore {
  private readonly runs: RunRepository;
  private ended = false;

  /**
   * Stores the run as `running` (before the writer's first batch: its trades refer to the run).
   *
   * @throws {@link StoreError} `invalid-argument` when the run id is taken
   */
  constructor(
    private readonly db: HogaDatabase,
    private readonly writer: RunJournalWriter,
    private readonly runId: string,
    private readonly record: BacktestRecord,
  ) {
    this.runs = new RunRepository(db.connection);
    this.runs.start({
      runId,
      kind: 'backtest',
      strategyPath: record.strategyPath,
      strategyName: record.strategyName,
      params: record.params,
      startedAt: record.startedAt,
    });
  }

  /**
   * Waits for every trade to be committed, then stores the equity curve, the statistics and the
   * status: `failed` when the writer failed (that failure is then thrown).
   *
   * @throws {@link StoreError} when a row could not be written
   */
  async finish(end: StoredRunEnd): Promise<void> {
    let writeFailure: unknown = null;
    try {
      await this.writer.close();
    } catch (error) {
      writeFailure = error;
    }
    const failure = end.failure ?? (writeFailure === null ? null : messageOf(writeFailure));
    this.end(writeFailure === null ? end.status : 'failed', end.equity, {
      ...end.stats,
      fxOnUsdCash: end.fxOnUsdCash,
      refused: end.refused,
      halts: end.halts,
      bars: end.bars,
      byStrategy: end.byStrategy,
      failure,
    });
    if (writeFailure !== null) throw writeFailure;
  }

  /** Stores the run as `failed` after an error stopped it (best effort: the error is the caller's). */
  async abandon(error: unknown): Promise<void> {
    if (this.ended) return;
    await this.writer.close().catch(() => undefined);
    try {
      this.end('failed', [], { failure: messageOf(error) });
    } catch {
      // the error that stopped the run is the one reported
    }
  }

  private end(
    status: 'completed' | 'failed' | 'stopped',
    equity: readonly EquityPoint[],
    stats: unknown,
  ): void {
    this.ended = true;
    this.db.transaction(() => {
      this.runs.appendEquity(this.runId, equity);
      this.runs.finish(this.runId, { status, endedAt: this.record.endedAt(), stats });
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

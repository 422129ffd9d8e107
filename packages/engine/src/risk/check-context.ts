/**
 * The context of one check as the risk engine builds it: the parts every check reads taken at
 * once, the positions, the open orders and the daily PnL read from the view when a guard first asks
 * (most checks need one of them or none: a sell asks no exposure, a buy with no prices known asks
 * no position).
 *
 * @module
 */
import type { Decimal, TradingMode } from '@hoga/core';
import type { RiskView } from './risk-book.js';
import type { RiskConfig, StrategyLimits } from './risk-config.js';
import type {
  OpenOrderView,
  OrderActionRecord,
  PositionView,
  RiskContext,
  RiskScope,
  TradingStateReason,
} from './risk-types.js';

/** Today's PnL of a strategy and of the account, as the daily-loss guard compares them. */
export type DailyPnlSource = (strategyId: string, nowMs: number) => RiskContext['dailyPnlKrw'];

/** A {@link RiskContext} whose view-derived parts are read on first use, then kept for the check. */
export class CheckContext implements RiskContext {
  private positionsRead: readonly PositionView[] | undefined;
  private openOrdersRead: readonly OpenOrderView[] | undefined;
  private pnlRead: RiskContext['dailyPnlKrw'] | undefined;

  /**
   * @param view - where positions and open orders are read
   * @param pnlOf - where the daily PnL is read
   * @param strategyId - the strategy of the command checked
   * @param mode - the run's mode (the way out of a halt a denial names)
   * @param entryOf - why a scope is in its state (read only to explain a denial)
   */
  constructor(
    private readonly view: RiskView,
    private readonly pnlOf: DailyPnlSource,
    private readonly strategyId: string,
    readonly nowMs: number,
    readonly config: RiskConfig,
    readonly limits: StrategyLimits,
    readonly states: RiskContext['states'],
    readonly usdKrw: Decimal,
    readonly lastPrices: ReadonlyMap<string, Decimal>,
    readonly actions: readonly OrderActionRecord[],
    readonly mode: TradingMode | undefined,
    private readonly entryOf?: (scope: RiskScope) => TradingStateReason | undefined,
  ) {}

  /** @inheritdoc */
  get dayShiftMs(): number {
    return this.view.dayShiftMs ?? 0;
  }

  /** @inheritdoc */
  stateEntry(scope: RiskScope): TradingStateReason | undefined {
    return this.entryOf?.(scope);
  }

  /** @inheritdoc */
  get positions(): readonly PositionView[] {
    if (this.positionsRead === undefined) this.positionsRead = this.view.positions(this.strategyId);
    return this.positionsRead;
  }

  /** @inheritdoc */
  position(symbol: string): PositionView | undefined {
    if (this.view.position !== undefined) return this.view.position(this.strategyId, symbol);
    return this.positions.find((p) => p.symbol === symbol);
  }

  /** @inheritdoc */
  get openOrders(): readonly OpenOrderView[] {
    if (this.openOrdersRead === undefined) this.openOrdersRead = this.view.openOrders();
    return this.openOrdersRead;
  }

  /** @inheritdoc */
  pricedOpenOrderCount(): number | undefined {
    return this.view.pricedOpenOrderCount?.();
  }

  /** @inheritdoc */
  openOrderCount(strategyId: string): number {
    const count = this.view.openOrderCount?.(strategyId);
    if (count !== undefined) return count;
    let open = 0;
    for (const o of this.openOrders) if (o.strategyId === strategyId) open += 1;
    return open;
  }

  /** @inheritdoc */
  get dailyPnlKrw(): RiskContext['dailyPnlKrw'] {
    if (this.pnlRead === undefined) this.pnlRead = this.pnlOf(this.strategyId, this.nowMs);
    return this.pnlRead;
  }
}

/**
 * The risk module's daily-loss kill switch: each scope (a strategy, the account) whose PnL today
 * reached its daily loss limit is HALTED until the next trading day and its working orders are
 * canceled; or, with its `dailyLossAction` `reduce`, REDUCING (only orders that reduce a position
 * pass) with only its working buys canceled, so that it may still exit what it holds. After an operator resets a tripped scope, its PnL counts again from the loss it tripped
 * at. A strategy found clear at the same revision of the view's PnL on the same trading day is clear
 * again without a look at the PnL, and whole-won limits are compared as numbers where the view gives
 * them, so the check on every order and fill makes no Decimal while nothing is near a limit.
 *
 * @module
 */
import { type Decimal, strategyId as toStrategyId } from '@hoga/core';
import type { CancelOrder } from '../commands/order-commands.js';
import type { DailyPnlSource } from './check-context.js';
import { limitIntOf } from './exact-int.js';
import { dailyLossActionOf, dailyLossBreaches } from './guards/state-guards.js';
import type { StrategyLimits } from './risk-config.js';
import type { RiskEngineOptions } from './risk-engine-options.js';
import { loopKeyOf, type OrderActionRecord, type RiskScope, scopeKey, TradingState } from './risk-types.js';
import { TradingStateSource } from './trading-state-persistence.js';
import {
  dailyPnlFloor,
  groupDigits,
  nextTradingDayStartMs,
  tradingDayOf,
  tradingDayStartMs,
} from './valuation.js';

/** See the module description. */
export class DailyLossSwitch {
  /** Per scope key: the trading day and PnL at which its kill switch tripped (the limit counts again from there after a reset). */
  private readonly tripped = new Map<string, { readonly day: string; readonly pnlKrw: Decimal }>();
  /** Per strategy (null: manual orders), the PnL revision and trading day its limits were last clear at. */
  private readonly clearAt = new Map<string | null, { revision: number; dayStartMs: number }>();
  private cancelSeq = 0;
  /** The limits whose daily loss limit was last read as an integer, and that integer. */
  private lastLimits: StrategyLimits | undefined;
  private lastLimitInt = Number.NaN;

  /**
   * @param options - the risk engine's
   * @param limits - a strategy's limits
   * @param noteCancel - records a cancel the switch sent in the throttles' windows
   */
  constructor(
    private readonly options: RiskEngineOptions,
    private readonly limits: (strategyId: string) => StrategyLimits,
    private readonly noteCancel: (action: OrderActionRecord) => void,
  ) {}

  /** Today's PnL of a strategy and of the account, as the daily-loss guard compares them. */
  readonly dailyPnlOf: DailyPnlSource = (strategyId, nowMs) => ({
    strategy: this.effectivePnl({ kind: 'strategy', strategyId }, nowMs),
    account: this.effectivePnl({ kind: 'account' }, nowMs),
  });

  /** Today's PnL of a scope, counted from the loss its kill switch last tripped at once it was reset. */
  private effectivePnl(scope: RiskScope, nowMs: number): Decimal {
    const pnl = this.options.view.dailyPnlKrw(scope.kind === 'strategy' ? scope.strategyId : null, nowMs);
    if (this.tripped.size === 0) return pnl;
    const trip = this.tripped.get(scopeKey(scope));
    const day = tradingDayOf(this.dayMs(nowMs), this.options.config.tradingDayStartHourKst);
    if (trip === undefined || trip.day !== day) return pnl;
    // the kill switch still holds (lifted by hand it counts from the trip, whatever else holds the scope)
    if (this.options.gateway.held(scope, TradingStateSource.DAILY_LOSS) !== undefined) return pnl;
    return pnl.minus(trip.pnlKrw);
  }

  /**
   * Trips the kill switch of each scope (the strategy, the account; the account only when
   * `strategyId` is null) whose PnL reached its daily loss limit.
   *
   * @returns whether the strategy and the account were found clear with no trip to count from (the
   *   daily-loss guard would accept a new order of the strategy now)
   */
  trip(strategyId: string | null, nowMs: number = this.options.clock.nowMs()): boolean {
    const { config, gateway, view } = this.options;
    if (!config.enabled) return false;
    // Clear before at the same revision of the view's PnL on the same trading day, with no trip to
    // count from: the same PnL against the same limits is clear again (nothing to evaluate).
    const revision = view.revision?.();
    const dayStartMs = tradingDayStartMs(this.dayMs(nowMs), config.tradingDayStartHourKst);
    const last = revision === undefined || this.tripped.size > 0 ? undefined : this.clearAt.get(strategyId);
    if (last !== undefined && last.revision === revision && last.dayStartMs === dayStartMs) return true;
    if (this.tripped.size > 0) this.forgetEarlierTrips(nowMs);
    const sid = strategyId ?? 'manual';
    const limits = this.limits(sid);
    if (revision !== undefined && this.tripped.size === 0 && this.clearByNumbers(sid, limits, nowMs)) {
      if (last === undefined) this.clearAt.set(strategyId, { revision, dayStartMs });
      else {
        last.revision = revision;
        last.dayStartMs = dayStartMs;
      }
      return true;
    }
    const ctx = {
      config,
      limits,
      dailyPnlKrw: this.dailyPnlOf(sid, nowMs),
    };
    const all = dailyLossBreaches(ctx, sid);
    if (all.length === 0) {
      if (revision === undefined || this.tripped.size > 0) return false;
      if (last === undefined) this.clearAt.set(strategyId, { revision, dayStartMs });
      else {
        last.revision = revision;
        last.dayStartMs = dayStartMs;
      }
      return true;
    }
    const breaches = strategyId === null ? all.filter((s) => s.kind === 'account') : all;
    for (const scope of breaches) {
      const pnl = scope.kind === 'account' ? ctx.dailyPnlKrw.account : ctx.dailyPnlKrw.strategy;
      const key = scopeKey(scope);
      const untilMs = nextTradingDayStartMs(this.dayMs(nowMs), config.tradingDayStartHourKst);
      const limit =
        scope.kind === 'account' ? config.account.dailyLossLimitKrw : ctx.limits.dailyLossLimitKrw;
      const reduce = dailyLossActionOf(ctx, scope) === 'reduce';
      const changed = gateway.set(
        scope,
        reduce ? TradingState.REDUCING : TradingState.HALTED,
        TradingStateSource.DAILY_LOSS,
        `daily loss ${groupDigits(pnl.negated().toFixed(0))} KRW reached the limit of ${groupDigits(limit.toFixed())} KRW`,
        untilMs,
      );
      if (!changed) continue;
      const raw = view.dailyPnlKrw(scope.kind === 'strategy' ? scope.strategyId : null, nowMs);
      this.tripped.set(key, {
        day: tradingDayOf(this.dayMs(nowMs), config.tradingDayStartHourKst),
        pnlKrw: raw,
      });
      this.cancelOpenOrders(scope, reduce);
    }
    return false;
  }

  /**
   * Whether the strategy and the account are clear of their daily loss limits by {@link
   * dailyPnlFloor} and whole-won limits: {@link dailyLossBreaches} would find nothing, and no
   * Decimal is made. False when it cannot tell (the Decimal evaluation decides then).
   */
  private clearByNumbers(strategyId: string, limits: StrategyLimits, nowMs: number): boolean {
    const view = this.options.view;
    if (view.dailyPnlKrwInt === undefined && view.dailyPnlKrwFloor === undefined) return false;
    const accountLimit = limitIntOf(this.options.config.account.dailyLossLimitKrw);
    const strategyLimit =
      limits === this.lastLimits ? this.lastLimitInt : limitIntOf(limits.dailyLossLimitKrw);
    this.lastLimits = limits;
    this.lastLimitInt = strategyLimit;
    // NaN compares false: not clear, the Decimal evaluation decides
    if (!(dailyPnlFloor(view, null, nowMs) > -accountLimit)) return false;
    return dailyPnlFloor(view, strategyId, nowMs) > -strategyLimit;
  }

  /**
   * The instant whose trading day `nowMs` is of: a backtest's bar stamped at a day's start is of
   * the day before (see `RiskView.dayShiftMs`), so is its kill switch, which ends at that start.
   */
  private dayMs(nowMs: number): number {
    return nowMs - (this.options.view.dayShiftMs ?? 0);
  }

  /** Drops trips of earlier trading days (today's PnL counts from a trip of today only). */
  private forgetEarlierTrips(nowMs: number): void {
    const day = tradingDayOf(this.dayMs(nowMs), this.options.config.tradingDayStartHourKst);
    for (const [key, trip] of this.tripped) if (trip.day !== day) this.tripped.delete(key);
  }

  /**
   * Cancels the scope's working orders (each cancel recorded as the strategy's action); with
   * `buysOnly`, only those that would increase a position: its buys (a cash account holds no
   * shorts, so a working sell only reduces a long position, and is kept).
   */
  private cancelOpenOrders(scope: RiskScope, buysOnly: boolean): void {
    const send = this.options.cancel;
    if (send === undefined) return;
    const nowMs = this.options.clock.nowMs();
    for (const order of this.options.view.openOrders()) {
      if (scope.kind === 'strategy' && order.strategyId !== scope.strategyId) continue;
      if (scope.kind === 'symbol' && order.symbol !== scope.symbol) continue;
      if (buysOnly && order.side !== 'BUY') continue;
      this.cancelSeq += 1;
      const command: CancelOrder = {
        type: 'CancelOrder',
        commandId: `kill-switch-${nowMs}-${this.cancelSeq}`,
        strategyId: toStrategyId(order.strategyId),
        tsInit: nowMs,
        clientOrderId: order.clientOrderId as CancelOrder['clientOrderId'],
      };
      this.noteCancel({
        tsMs: nowMs,
        strategyId: order.strategyId,
        symbol: order.symbol,
        action: 'cancel',
        loopKey: loopKeyOf(order.strategyId, order.symbol, order.side),
        replace: false,
      });
      void Promise.resolve(send(command)).catch(() => undefined);
    }
  }
}

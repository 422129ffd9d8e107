/**
 * The risk module: the gate every order command passes in every mode. It resolves the command
 * against the engine's view, trips the daily-loss kill switch, runs the trading-state and daily-loss
 * guards, the broker's own rules (so the broker never has to refuse), then the owner's limits and
 * the abuse throttles; a command it lets through is recorded in the sliding windows and its
 * reservation taken from the cached buying power.
 *
 * @module
 */
import { orderValueKrw } from '@hoga/broker-model';
import {
  Decimal,
  newEventId,
  type OrderDenied,
  type OrderEvent,
  strategyId as toStrategyId,
} from '@hoga/core';
import type { CancelOrder, OrderCommand } from '../commands/order-commands.js';
import { checkBrokerRules, reservingOf } from './broker-rules-check.js';
import { CheckContext, type DailyPnlSource } from './check-context.js';
import { limitIntOf } from './exact-int.js';
import { checkDailyLoss, checkTradingState, dailyLossBreaches } from './guards/state-guards.js';
import { STRATEGY_GUARDS } from './guards/strategy-guards.js';
import { isReplace, THROTTLE_GUARDS } from './guards/throttle-guards.js';
import { intentFields } from './intent-fields.js';
import type { RiskView } from './risk-book.js';
import { limitsFor, type StrategyLimits } from './risk-config.js';
import type { RiskGate, RiskVerdict } from './risk-gate.js';
import {
  ACCEPTED,
  deny,
  firstDenial,
  loopKeyOf,
  type OrderActionRecord,
  type RiskContext,
  type RiskGuard,
  type RiskScope,
  type RiskSubject,
  scopeKey,
  TradingState,
} from './risk-types.js';
import type { TradingStateGateway } from './trading-state-gateway.js';
import { TradingStateSource } from './trading-state-persistence.js';
import { dailyPnlFloor, nextTradingDayStartMs, tradingDayOf, tradingDayStartMs } from './valuation.js';

const ZERO = new Decimal(0);

/** The guards that run first: the daily loss limits, then the trading states. */
const STATE_GUARDS: readonly RiskGuard[] = [checkDailyLoss, checkTradingState];
/** The trading states alone (the daily loss limits were found clear for this very check). */
const TRADING_STATE_GUARD: readonly RiskGuard[] = [checkTradingState];

import type { RiskEngineOptions } from './risk-engine-options.js';

export type { RiskEngineOptions };

/** Events after which the broker's buying power or sellable quantity differ from the cached ones. */
const FUNDS_CHANGING: ReadonlySet<string> = new Set([
  'OrderFilled',
  'OrderPartiallyFilled',
  'OrderCanceled',
  'OrderExpired',
  'OrderRejected',
]);

/** The risk module's gate. */
export class RiskEngine implements RiskGate {
  private actions: OrderActionRecord[] = [];
  /** Per scope key: the trading day and PnL at which its kill switch tripped (the limit counts again from there after a reset). */
  private readonly tripped = new Map<string, { readonly day: string; readonly pnlKrw: Decimal }>();
  private readonly strategies = new Set<string>();
  /** The strategy last added to `strategies`. */
  private lastStrategy: string | undefined;
  /** Per strategy (null: manual orders), the PnL revision and trading day its limits were last clear at. */
  private readonly clearAt = new Map<string | null, { revision: number; dayStartMs: number }>();
  private cancelSeq = 0;
  /** The limits whose daily loss limit was last read as an integer, and that integer. */
  private lastLimits: StrategyLimits | undefined;
  private lastLimitInt = Number.NaN;

  /** @param options - see {@link RiskEngineOptions} */
  constructor(private readonly options: RiskEngineOptions) {}

  /** Limits per strategy, resolved from the configuration on first use. */
  private readonly limitCache = new Map<string, ReturnType<typeof limitsFor>>();

  /** The trading-state gateway. */
  get gateway(): TradingStateGateway {
    return this.options.gateway;
  }

  /**
   * Refreshes the market data and the account data the broker's rules read for `command`.
   *
   * @returns a promise to await before {@link RiskEngine.check}, or `undefined` (synchronously)
   *   when there is nothing to refresh: no broker behind the gate (a backtest), the gate disabled,
   *   or an unknown order
   */
  prepare(command: OrderCommand): Promise<void> | undefined {
    const { market, funds, config } = this.options;
    if (!config.enabled || (market?.prepare === undefined && funds?.refresh === undefined)) return undefined;
    const target =
      command.type === 'SubmitOrder' ? undefined : this.options.view.order(command.clientOrderId);
    const symbol = command.type === 'SubmitOrder' ? command.intent.instrument.symbol : target?.symbol;
    const currency = command.type === 'SubmitOrder' ? command.intent.instrument.currency : target?.currency;
    if (symbol === undefined || currency === undefined) return undefined;
    const sell = command.type === 'SubmitOrder' ? command.intent.side === 'SELL' : target?.side === 'SELL';
    return Promise.all([
      market?.prepare?.(symbol),
      command.type === 'CancelOrder' ? undefined : funds?.refresh?.(currency, sell ? symbol : null),
    ]).then(() => undefined);
  }

  /** @inheritdoc */
  check(command: OrderCommand): RiskVerdict {
    const { config } = this.options;
    if (!config.enabled) return ACCEPTED;
    this.options.gateway.sync();
    this.options.staleness?.evaluate();
    this.noteStrategy(command.strategyId);
    const subject = this.resolve(command);
    if (!('action' in subject)) return subject;
    const nowMs = this.options.clock.nowMs();
    const clear = this.tripKillSwitches(subject.strategyId, nowMs);
    const ctx = this.context(subject, nowMs);
    const verdict = this.judge(ctx, subject, clear);
    if (verdict.accepted) this.admit(ctx, subject);
    return verdict;
  }

  /** The `OrderDenied` event of a denied command (the strategy receives it; the store keeps it). */
  deniedEvent(command: OrderCommand, verdict: RiskVerdict): OrderDenied {
    const clientOrderId =
      command.type === 'SubmitOrder' ? command.intent.clientOrderId : command.clientOrderId;
    const nowMs = this.options.clock.nowMs();
    return {
      type: 'OrderDenied',
      eventId: newEventId(),
      clientOrderId,
      strategyId: command.strategyId,
      tsEvent: nowMs,
      tsInit: nowMs,
      ...(verdict.accepted ? {} : { code: verdict.code }),
      reason: verdict.accepted ? 'accepted' : verdict.reason,
    };
  }

  /** Feeds an order event to the view (if it is the risk book) and re-evaluates the daily loss limits. */
  onEvent(event: OrderEvent): void {
    const view = this.options.view as RiskView & { onEvent?: (e: OrderEvent) => void };
    view.onEvent?.(event);
    if (event.strategyId !== undefined) this.noteStrategy(event.strategyId);
    const forget = this.options.funds?.forget;
    if (forget !== undefined && FUNDS_CHANGING.has(event.type)) {
      // The cached buying power and sellable quantity no longer hold: re-read before the next order
      // (a sell right after its buy filled was refused as `only 0 can be sold` until they aged out).
      // Without cached funds (a backtest) there is nothing to forget: the order is not looked up.
      const order = view.order(event.clientOrderId);
      if (order !== undefined) forget.call(this.options.funds, order.currency, order.symbol);
    }
    if (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled') {
      this.tripKillSwitches(event.strategyId ?? null);
    }
  }

  /** Adds a strategy to those seen (the last one added is not looked up again: events come in runs of one). */
  private noteStrategy(strategyId: string): void {
    if (strategyId === this.lastStrategy) return;
    this.strategies.add(strategyId);
    this.lastStrategy = strategyId;
  }

  /**
   * Watches a strategy's daily loss from now on, whether or not it orders: a run's strategy holding
   * positions from earlier runs can lose past its limit without placing an order in this one.
   */
  watch(strategyId: string): void {
    this.noteStrategy(strategyId);
  }

  /** Re-evaluates the daily loss limits of every strategy seen or watched (call after prices move). */
  evaluate(): void {
    this.options.gateway.sync();
    for (const s of [...this.strategies]) this.tripKillSwitches(s);
  }

  /** A reconciliation mismatch on a symbol: the symbol is HALTED until an operator resets it. */
  reconciliationMismatch(symbol: string, reason: string): void {
    this.options.gateway.set(
      { kind: 'symbol', symbol },
      TradingState.HALTED,
      TradingStateSource.RECONCILIATION,
      reason,
    );
  }

  /**
   * @param clear - the kill switch's evaluation just found the subject's strategy and the account
   *   clear of their daily loss limits (with no trip to count from): the daily-loss guard, which
   *   compares the same PnL with the same limits, would accept
   */
  private judge(ctx: RiskContext, subject: RiskSubject, clear: boolean): RiskVerdict {
    const first = firstDenial(clear ? TRADING_STATE_GUARD : STATE_GUARDS, ctx, subject);
    if (!first.accepted) return first;
    const { market, funds } = this.options;
    if (market !== undefined && funds !== undefined) {
      const rules = checkBrokerRules(subject, {
        market,
        funds,
        openOrders: ctx.openOrders,
        target: this.options.view.order(subject.clientOrderId),
        at: this.options.clock.now(),
      });
      if (!rules.accepted) return rules;
    }
    const owner = firstDenial(STRATEGY_GUARDS, ctx, subject);
    if (!owner.accepted || this.options.throttles === false) return owner;
    return firstDenial(THROTTLE_GUARDS, ctx, subject);
  }

  private admit(ctx: RiskContext, subject: RiskSubject): void {
    // the sliding windows are read by the throttles alone: without them nothing is recorded
    if (this.options.throttles !== false) {
      this.actions.push({
        tsMs: ctx.nowMs,
        strategyId: subject.strategyId,
        symbol: subject.symbol,
        action: subject.action,
        loopKey: loopKeyOf(subject.strategyId, subject.symbol, subject.side),
        replace: isReplace(ctx, subject),
      });
      const keepMs = Math.max(ctx.config.throttle.windowMs, ctx.config.throttle.loopWindowMs);
      if (this.actions.length > 0 && this.actions[0]!.tsMs <= ctx.nowMs - keepMs) {
        this.actions = this.actions.filter((a) => a.tsMs > ctx.nowMs - keepMs);
      }
    }
    if (subject.action === 'create' && this.options.funds?.reserve !== undefined) {
      this.options.funds.reserve(
        reservingOf(
          {
            ...subject,
            timeInForce: 'DAY',
            quantity: subject.quantity,
            remainingQuantity: subject.quantity,
            filledQuantity: ZERO,
            status: 'PENDING',
          },
          subject.price ?? ctx.lastPrices.get(subject.symbol) ?? ZERO,
        ),
      );
    }
  }

  private resolve(command: OrderCommand): RiskSubject | RiskVerdict {
    const view = this.options.view;
    if (command.type === 'SubmitOrder') {
      const i = command.intent;
      const { price, quantity, orderAmount: amount } = intentFields(i);
      return {
        command,
        action: 'create',
        strategyId: command.strategyId,
        clientOrderId: i.clientOrderId,
        symbol: i.instrument.symbol,
        market: i.instrument.market,
        currency: i.instrument.currency,
        side: i.side,
        orderType: i.orderType,
        price,
        quantity,
        amount,
        valueKrw: this.valueKrw(i.instrument.symbol, i.instrument.currency, price, quantity, amount),
        target: null,
      };
    }
    const target = view.order(command.clientOrderId);
    if (target === undefined) {
      return deny('order-not-found', `No order ${command.clientOrderId} is known`, { status: 404 });
    }
    const modify = command.type === 'ModifyOrder';
    const price = modify ? (command.price ?? null) : target.price;
    const quantity = modify ? (command.quantity ?? target.remainingQuantity) : target.remainingQuantity;
    return {
      command,
      action: modify ? 'modify' : 'cancel',
      strategyId: command.strategyId,
      clientOrderId: target.clientOrderId,
      symbol: target.symbol,
      market: target.market,
      currency: target.currency,
      side: target.side,
      orderType: modify ? command.orderType : target.orderType,
      price,
      quantity,
      amount: target.amount,
      valueKrw: modify ? this.valueKrw(target.symbol, target.currency, price, quantity, target.amount) : ZERO,
      target,
    };
  }

  private valueKrw(
    symbol: string,
    currency: RiskSubject['currency'],
    price: Decimal | null,
    quantity: Decimal | null,
    amount: Decimal | null,
  ): Decimal {
    // only a market order by quantity is valued at the last price
    const byLast = amount === null && price === null;
    const lastPrice = byLast ? this.lastPrice(symbol) : undefined;
    // such an order by a finite quantity before any price is worth quantity × 0
    if (byLast && lastPrice === undefined && (quantity?.isFinite() ?? true)) return ZERO;
    return orderValueKrw({
      currency,
      price,
      quantity,
      orderAmount: amount,
      lastPrice: lastPrice ?? ZERO,
      // the rate converts USD orders only
      usdKrw: currency === 'USD' ? this.usdKrw() : this.options.view.usdKrw(),
    });
  }

  private lastPrice(symbol: string): Decimal | undefined {
    const { view, market, marks } = this.options;
    return view.lastPrices().get(symbol) ?? market?.lastPrice?.(symbol) ?? marks?.lastPrice(symbol);
  }

  private usdKrw(): Decimal {
    const { view, market, marks } = this.options;
    return market?.usdKrw?.() ?? marks?.usdKrw() ?? view.usdKrw();
  }

  private context(subject: { strategyId: string; symbol: string }, nowMs: number): RiskContext {
    const { config, view, gateway } = this.options;
    // the book's map as is (read-only); a copy only when the subject's price comes from elsewhere
    let prices: ReadonlyMap<string, Decimal> = view.lastPrices();
    if (!prices.has(subject.symbol)) {
      const own = this.lastPrice(subject.symbol);
      if (own !== undefined) prices = new Map(prices).set(subject.symbol, own);
    }
    return new CheckContext(
      view,
      this.dailyPnlOf,
      subject.strategyId,
      nowMs,
      config,
      this.limits(subject.strategyId),
      gateway.effective(subject.strategyId, subject.symbol),
      this.usdKrw(),
      prices,
      this.actions,
    );
  }

  /** Today's PnL of a strategy and of the account, as the daily-loss guard compares them. */
  private readonly dailyPnlOf: DailyPnlSource = (strategyId, nowMs) => ({
    strategy: this.effectivePnl({ kind: 'strategy', strategyId }, nowMs),
    account: this.effectivePnl({ kind: 'account' }, nowMs),
  });

  /** A strategy's limits (the configuration does not change during a run: resolved once per strategy). */
  private limits(strategyId: string): ReturnType<typeof limitsFor> {
    let limits = this.limitCache.get(strategyId);
    if (limits === undefined) {
      limits = limitsFor(this.options.config, strategyId);
      this.limitCache.set(strategyId, limits);
    }
    return limits;
  }

  /** Today's PnL of a scope, counted from the loss its kill switch last tripped at once it was reset. */
  private effectivePnl(scope: RiskScope, nowMs: number): Decimal {
    const pnl = this.options.view.dailyPnlKrw(scope.kind === 'strategy' ? scope.strategyId : null, nowMs);
    if (this.tripped.size === 0) return pnl;
    const trip = this.tripped.get(scopeKey(scope));
    const day = tradingDayOf(nowMs, this.options.config.tradingDayStartHourKst);
    if (trip === undefined || trip.day !== day) return pnl;
    if (this.options.gateway.state(scope) !== TradingState.ACTIVE) return pnl;
    return pnl.minus(trip.pnlKrw);
  }

  /**
   * Trips the kill switch of each scope (the strategy, the account; the account only when
   * `strategyId` is null) whose PnL reached its daily loss limit.
   *
   * @returns whether the strategy and the account were found clear with no trip to count from (the
   *   daily-loss guard would accept a new order of the strategy now)
   */
  private tripKillSwitches(strategyId: string | null, nowMs: number = this.options.clock.nowMs()): boolean {
    const { config, gateway, view } = this.options;
    if (!config.enabled) return false;
    // Clear before at the same revision of the view's PnL on the same trading day, with no trip to
    // count from: the same PnL against the same limits is clear again (nothing to evaluate).
    const revision = view.revision?.();
    const dayStartMs = tradingDayStartMs(nowMs, config.tradingDayStartHourKst);
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
      const untilMs = nextTradingDayStartMs(nowMs, config.tradingDayStartHourKst);
      const limit =
        scope.kind === 'account' ? config.account.dailyLossLimitKrw : ctx.limits.dailyLossLimitKrw;
      const changed = gateway.set(
        scope,
        TradingState.HALTED,
        TradingStateSource.DAILY_LOSS,
        `daily loss ${pnl.negated().toFixed(0)} KRW reached the limit of ${limit.toFixed()} KRW`,
        untilMs,
      );
      if (!changed) continue;
      const raw = view.dailyPnlKrw(scope.kind === 'strategy' ? scope.strategyId : null, nowMs);
      this.tripped.set(key, { day: tradingDayOf(nowMs, config.tradingDayStartHourKst), pnlKrw: raw });
      this.cancelOpenOrders(scope);
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

  /** Drops trips of earlier trading days (today's PnL counts from a trip of today only). */
  private forgetEarlierTrips(nowMs: number): void {
    const day = tradingDayOf(nowMs, this.options.config.tradingDayStartHourKst);
    for (const [key, trip] of this.tripped) if (trip.day !== day) this.tripped.delete(key);
  }

  private cancelOpenOrders(scope: RiskScope): void {
    const send = this.options.cancel;
    if (send === undefined) return;
    const nowMs = this.options.clock.nowMs();
    for (const order of this.options.view.openOrders()) {
      if (scope.kind === 'strategy' && order.strategyId !== scope.strategyId) continue;
      if (scope.kind === 'symbol' && order.symbol !== scope.symbol) continue;
      this.cancelSeq += 1;
      const command: CancelOrder = {
        type: 'CancelOrder',
        commandId: `kill-switch-${nowMs}-${this.cancelSeq}`,
        strategyId: toStrategyId(order.strategyId),
        tsInit: nowMs,
        clientOrderId: order.clientOrderId as CancelOrder['clientOrderId'],
      };
      if (this.options.throttles !== false) {
        this.actions.push({
          tsMs: nowMs,
          strategyId: order.strategyId,
          symbol: order.symbol,
          action: 'cancel',
          loopKey: loopKeyOf(order.strategyId, order.symbol, order.side),
          replace: false,
        });
      }
      void Promise.resolve(send(command)).catch(() => undefined);
    }
  }
}

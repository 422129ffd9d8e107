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
import { Decimal, newEventId, type OrderDenied, type OrderEvent } from '@hoga/core';
import type { OrderCommand } from '../commands/order-commands.js';
import { checkBrokerRules, checkMinOrderAmount, reservingOf } from './broker-rules-check.js';
import { CheckContext } from './check-context.js';
import { DailyLossSwitch } from './daily-loss-switch.js';
import { checkDailyLoss, checkTradingState } from './guards/state-guards.js';
import { STRATEGY_GUARDS } from './guards/strategy-guards.js';
import { isReplace, THROTTLE_GUARDS } from './guards/throttle-guards.js';
import type { RiskView } from './risk-book.js';
import { limitsFor } from './risk-config.js';
import type { RiskEngineOptions } from './risk-engine-options.js';
import type { RiskGate, RiskVerdict } from './risk-gate.js';
import { riskSubjectOf, type ValueKrw } from './risk-subject.js';
import {
  ACCEPTED,
  deny,
  firstDenial,
  loopKeyOf,
  type OrderActionRecord,
  type RestoredRiskOrder,
  type RiskContext,
  type RiskGuard,
  type RiskScope,
  type RiskSubject,
  TradingState,
  type TradingStateReason,
} from './risk-types.js';
import type { TradingStateGateway } from './trading-state-gateway.js';
import { TradingStateSource } from './trading-state-persistence.js';

const ZERO = new Decimal(0);

/** The guards that run first: the daily loss limits, then the trading states. */
const STATE_GUARDS: readonly RiskGuard[] = [checkDailyLoss, checkTradingState];
/** The trading states alone (the daily loss limits were found clear for this very check). */
const TRADING_STATE_GUARD: readonly RiskGuard[] = [checkTradingState];

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
  private readonly strategies = new Set<string>();
  /** The strategy last added to `strategies`. */
  private lastStrategy: string | undefined;
  private readonly killSwitch: DailyLossSwitch;

  /** @param options - see {@link RiskEngineOptions} */
  constructor(private readonly options: RiskEngineOptions) {
    // the sliding windows are read by the throttles alone: without them nothing is recorded
    this.killSwitch = new DailyLossSwitch(
      options,
      (strategyId) => this.limits(strategyId),
      (action) => {
        if (options.throttles !== false) this.actions.push(action);
      },
    );
  }

  /** Limits per strategy, resolved from the configuration on first use. */
  private readonly limitCache = new Map<string, ReturnType<typeof limitsFor>>();
  /** Why a scope is in its state: one function for every check, called only to explain a denial. */
  private readonly entryOf = (scope: RiskScope): TradingStateReason | undefined =>
    this.options.gateway.entry(scope);

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
    // an outside order that appeared or ended since: the funds of its symbol are read again below
    this.syncOutsideOrders();
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

  /**
   * Reads the account's open orders that are not the view's own again (live: the store's list, see
   * {@link RiskEngineOptions.outsideOrders}); the cached buying power and sellable quantity of an
   * order that appeared, ended or changed are read again before the next order. A store that cannot
   * be read leaves the last list.
   */
  syncOutsideOrders(): void {
    const { outsideOrders, view, funds } = this.options;
    if (outsideOrders === undefined || view.setOutsideOrders === undefined) return;
    let orders: readonly RestoredRiskOrder[];
    try {
      orders = outsideOrders();
    } catch {
      return;
    }
    const moved = view.setOutsideOrders(orders);
    const forget = funds?.forget;
    if (forget !== undefined) for (const o of moved) forget.call(funds, o.currency, o.symbol);
  }

  /** @inheritdoc */
  check(command: OrderCommand): RiskVerdict {
    const { config } = this.options;
    // the broker's rules a backtest judges in the risk module are the broker's: judged all the same
    if (!config.enabled) return this.options.brokerRules?.(command) ?? ACCEPTED;
    this.options.gateway.sync();
    this.options.staleness?.evaluate();
    this.noteStrategy(command.strategyId);
    const subject = this.resolve(command);
    if (!('action' in subject)) return subject;
    const nowMs = this.options.clock.nowMs();
    const clear = this.killSwitch.trip(subject.strategyId, nowMs);
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
      this.killSwitch.trip(event.strategyId ?? null);
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
    for (const s of [...this.strategies]) this.killSwitch.trip(s);
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
      // the account's orders that are not the run's count too (live): the broker counts them
      this.syncOutsideOrders();
      const view = this.options.view;
      const rules = checkBrokerRules(subject, {
        market,
        funds,
        openOrders: view.accountOpenOrders === undefined ? ctx.openOrders : view.accountOpenOrders(),
        target: this.options.view.order(subject.clientOrderId),
        at: this.options.clock.now(),
      });
      if (!rules.accepted) return rules;
    }
    // a backtest's broker rules (its bars and venue for the broker's data), at the same place
    const own = this.options.brokerRules?.(subject.command);
    if (own !== undefined) return own;
    // an amount under the broker's least one passes its rules, then ends REJECTED there
    const belowMinimum = checkMinOrderAmount(subject);
    if (belowMinimum !== undefined) return belowMinimum;
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
    const id = command.type === 'SubmitOrder' ? null : command.clientOrderId;
    const target = id === null ? undefined : this.options.view.order(id);
    return (
      riskSubjectOf(command, target, this.valueOf, ZERO) ??
      deny('order-not-found', `No order ${id} is known`, { status: 404 })
    );
  }

  /** {@link RiskEngine.valueKrw}, made once. */
  private readonly valueOf: ValueKrw = (symbol, currency, price, quantity, amount) =>
    this.valueKrw(symbol, currency, price, quantity, amount);

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
      this.killSwitch.dailyPnlOf,
      subject.strategyId,
      nowMs,
      config,
      this.limits(subject.strategyId),
      gateway.effective(subject.strategyId, subject.symbol),
      this.usdKrw(),
      prices,
      this.actions,
      this.options.mode,
      this.entryOf,
    );
  }

  /** A strategy's limits (the configuration does not change during a run: resolved once per strategy). */
  private limits(strategyId: string): ReturnType<typeof limitsFor> {
    let limits = this.limitCache.get(strategyId);
    if (limits === undefined) {
      limits = limitsFor(this.options.config, strategyId);
      this.limitCache.set(strategyId, limits);
    }
    return limits;
  }
}

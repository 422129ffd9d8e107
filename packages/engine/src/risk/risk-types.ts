/**
 * The risk module's vocabulary: trading states and scopes, the engine's view a guard reads
 * ({@link RiskContext}), the command resolved against that view ({@link RiskSubject}), and the
 * verdict helpers. Guards are pure functions `(context, subject) → verdict`.
 *
 * @module
 */
import type {
  Currency,
  Decimal,
  KnownBrokerOrderStatus,
  Market,
  OrderSide,
  OrderType,
  StrategyId,
  TimeInForce,
  TradingMode,
} from '@hoga/core';
import type { OrderCommand } from '../commands/order-commands.js';
import type { RiskConfig, StrategyLimits } from './risk-config.js';
import type { RiskVerdict } from './risk-gate.js';

/** How much a scope may trade. */
export const TradingState = {
  /** Everything the other checks allow. */
  ACTIVE: 'ACTIVE',
  /** Only orders that reduce a position (sells of held shares) and cancels. */
  REDUCING: 'REDUCING',
  /** Cancels only. */
  HALTED: 'HALTED',
} as const;
/** A trading state. */
export type TradingState = (typeof TradingState)[keyof typeof TradingState];

const SEVERITY: Readonly<Record<TradingState, number>> = { ACTIVE: 0, REDUCING: 1, HALTED: 2 };

/** The stricter of two states. */
export function stricterState(a: TradingState, b: TradingState): TradingState {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

/** What a trading state applies to: the whole account, one strategy, or one symbol. */
export type RiskScope =
  | { readonly kind: 'account' }
  | { readonly kind: 'strategy'; readonly strategyId: string }
  | { readonly kind: 'symbol'; readonly symbol: string };

/** A stable text key of a scope (`account`, `strategy:<id>`, `symbol:<code>`). */
export function scopeKey(scope: RiskScope): string {
  switch (scope.kind) {
    case 'account':
      return 'account';
    case 'strategy':
      return `strategy:${scope.strategyId}`;
    case 'symbol':
      return `symbol:${scope.symbol}`;
  }
}

/** The scope a key names (inverse of {@link scopeKey}). */
export function scopeOfKey(key: string): RiskScope {
  if (key === 'account') return { kind: 'account' };
  if (key.startsWith('strategy:')) return { kind: 'strategy', strategyId: key.slice('strategy:'.length) };
  if (key.startsWith('symbol:')) return { kind: 'symbol', symbol: key.slice('symbol:'.length) };
  throw new Error(`risk scope key: expected account, strategy:<id> or symbol:<code>, found ${key}`);
}

/** An open order as the risk module sees it. */
export interface OpenOrderView {
  readonly clientOrderId: string;
  readonly strategyId: string;
  readonly symbol: string;
  readonly market: Market;
  readonly currency: Currency;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  /** Limit price, or null (market order). */
  readonly price: Decimal | null;
  /** Quantity still working (null for an amount order). */
  readonly remainingQuantity: Decimal | null;
  /** Ordered amount of an amount order (its currency), else null. */
  readonly amount: Decimal | null;
}

/** A held position of one strategy (long only: cash accounts hold no shorts). */
export interface PositionView {
  readonly symbol: string;
  readonly currency: Currency;
  /** Shares held (≥ 0). */
  readonly quantity: Decimal;
}

/** One order action (create, modify, cancel) the risk module let through, for the sliding windows. */
export interface OrderActionRecord {
  readonly tsMs: number;
  readonly strategyId: string;
  readonly symbol: string;
  readonly action: 'create' | 'modify' | 'cancel';
  /** The cancel/replace loop key (`strategy|symbol|side`). */
  readonly loopKey: string;
  /** True for a modify, or a create that re-places an order cancelled on the same key shortly before. */
  readonly replace: boolean;
}

/** Why a scope is HALTED or REDUCING, as the trading-state gateway keeps it. */
export interface TradingStateReason {
  /** What set it: `daily-loss`, `manual`, `reconciliation`, `stale-data`, `guard`. */
  readonly source: string;
  readonly reason: string;
  /** When it was set, epoch ms. */
  readonly sinceMs: number;
  /** When it lapses by itself, epoch ms, or null (only `hoga risk reset` lifts it). */
  readonly untilMs: number | null;
  /**
   * The states other sources hold of the same scope beneath this one, strictest first (absent:
   * none): what holds once this one is lifted or lapses.
   */
  readonly beneath?: readonly TradingStateLayerReason[];
}

/** One source's state of a scope, with why: a layer beneath the state in force. */
export interface TradingStateLayerReason extends TradingStateReason {
  readonly state: TradingState;
}

/** The engine's view a guard reads: pure data, taken when the command is checked. */
export interface RiskContext {
  /** Engine clock, epoch ms. */
  readonly nowMs: number;
  /** How long before `nowMs` its trading day is read, ms (see `RiskView.dayShiftMs`; 0 when absent). */
  readonly dayShiftMs?: number;
  /**
   * The run's mode: a denial names the way out of a halt that works in it (`hoga risk reset`, with
   * `--mode paper` in paper; none reaches a backtest). Live when absent (`hoga order`'s).
   */
  readonly mode?: TradingMode | undefined;
  /** The whole risk configuration. */
  readonly config: RiskConfig;
  /** The limits of the command's strategy (its own, or the defaults). */
  readonly limits: StrategyLimits;
  /** Trading state of the account, the strategy and the symbol (each ACTIVE when unset). */
  readonly states: {
    readonly account: TradingState;
    readonly strategy: TradingState;
    readonly symbol: TradingState;
  };
  /**
   * Why a scope is in its state (what set it, since and until when), or undefined when it is
   * ACTIVE or the context cannot tell. Read only to explain a denial.
   */
  stateEntry?(scope: RiskScope): TradingStateReason | undefined;
  /** Positions of the command's strategy. */
  readonly positions: readonly PositionView[];
  /** The strategy's position in one symbol, when the context can tell without the list. */
  position?(symbol: string): PositionView | undefined;
  /**
   * Every open order of the view's own (the run's strategies'; `hoga order`: the account's it
   * read); guards filter by strategy or symbol as they need. The broker's rules see the account's
   * others too (`RiskView.accountOpenOrders`).
   */
  readonly openOrders: readonly OpenOrderView[];
  /** How many of `openOrders` are a strategy's, when the context can tell without the list. */
  openOrderCount?(strategyId: string): number;
  /**
   * How many of `openOrders` have a limit price or an amount, when the context can tell without
   * the list (undefined: it cannot).
   */
  pricedOpenOrderCount?(): number | undefined;
  /** KRW per USD (display rate). */
  readonly usdKrw: Decimal;
  /** Last prices by symbol (native currency). */
  readonly lastPrices: ReadonlyMap<string, Decimal>;
  /** Order actions let through recently (at least the longest window), oldest first. */
  readonly actions: readonly OrderActionRecord[];
  /** Today's PnL in KRW (realised + unrealised), of the strategy and of the account. */
  readonly dailyPnlKrw: { readonly strategy: Decimal; readonly account: Decimal };
}

/** A command resolved against the view: what it would put on the market. */
export interface RiskSubject {
  readonly command: OrderCommand;
  readonly action: 'create' | 'modify' | 'cancel';
  readonly strategyId: StrategyId;
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly market: Market;
  readonly currency: Currency;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  /** Limit price after the command (null for market orders). */
  readonly price: Decimal | null;
  /** Quantity after the command (null for amount orders). */
  readonly quantity: Decimal | null;
  /** Amount of an amount order. */
  readonly amount: Decimal | null;
  /** The command's order value in KRW (a market order at the last price); 0 for a cancel. */
  readonly valueKrw: Decimal;
  /** The order being modified or cancelled, when there is one. */
  readonly target: OpenOrderView | null;
}

/** A guard: a pure check of a subject against the view. */
export type RiskGuard = (ctx: RiskContext, subject: RiskSubject) => RiskVerdict;

/** The accepted verdict. */
export const ACCEPTED: RiskVerdict = Object.freeze({ accepted: true });

/** A denial verdict. */
export function deny(code: string, reason: string, data?: Readonly<Record<string, unknown>>): RiskVerdict {
  return data === undefined ? { accepted: false, code, reason } : { accepted: false, code, reason, data };
}

/** Runs guards in order; the first denial wins. */
export function firstDenial(
  guards: readonly RiskGuard[],
  ctx: RiskContext,
  subject: RiskSubject,
): RiskVerdict {
  for (const guard of guards) {
    const verdict = guard(ctx, subject);
    if (!verdict.accepted) return verdict;
  }
  return ACCEPTED;
}

/** The cancel/replace loop key of an order. */
export function loopKeyOf(strategyId: string, symbol: string, side: string): string {
  return `${strategyId}|${symbol}|${side}`;
}

/** What the risk engine reads of the account (its own book, or an adapter over another one). */
export interface RiskView {
  /** Every open order of the run's strategies (and, `hoga order`, of the account it read). */
  openOrders(): readonly OpenOrderView[];
  /**
   * Every open order of the account the view knows, for the broker's rules: {@link RiskView.openOrders}
   * and the open orders that are not the run's (without it, {@link RiskView.openOrders}).
   */
  accountOpenOrders?(): readonly OpenOrderView[];
  /** Takes the account's open orders that are not the view's own (see `RiskBook.setOutsideOrders`). */
  setOutsideOrders?(orders: readonly RestoredRiskOrder[]): readonly OpenOrderView[];
  /** How many of {@link RiskView.openOrders} are a strategy's (without it they are counted from the list). */
  openOrderCount?(strategyId: string): number;
  /**
   * How many of {@link RiskView.openOrders} have a limit price or an amount (a market order by
   * quantity has neither: it is worth 0 while no price is known).
   */
  pricedOpenOrderCount?(): number;
  /** An order by its client id: open, or closed with its last status; undefined when unknown. */
  order(clientOrderId: string): RiskOrder | undefined;
  /** Positions of one strategy. */
  positions(strategyId: string): readonly PositionView[];
  /** A strategy's position in one symbol (without it, found in {@link RiskView.positions}). */
  position?(strategyId: string, symbol: string): PositionView | undefined;
  /** Last prices by symbol. */
  lastPrices(): ReadonlyMap<string, Decimal>;
  /** KRW per USD. */
  usdKrw(): Decimal;
  /** Today's PnL in KRW (realised today + unrealised at the last prices) of a strategy, or the account (null). */
  dailyPnlKrw(strategyId: string | null, nowMs: number): Decimal;
  /**
   * How long before an instant its trading day is read, ms: a backtest's `BAR_CLOSE_DAY_SHIFT_MS`
   * (its instants are bar closes: one exactly at a day's start is of the day before), else 0.
   */
  readonly dayShiftMs?: number;
  /**
   * A number that changes whenever an answer of {@link RiskView.dailyPnlKrw} may change for the
   * same trading day (a fill, a price, the rate, a restored holding). Without it the risk engine
   * evaluates the daily loss limits on every check.
   */
  revision?(): number;
  /**
   * {@link RiskView.dailyPnlKrw} as a number when it is exactly a safe integer, else NaN. Lets the
   * kill switch compare without making a Decimal; without it the Decimal answer is compared.
   */
  dailyPnlKrwInt?(strategyId: string | null, nowMs: number): number;
  /**
   * A lower bound of {@link RiskView.dailyPnlKrw} as a number, within a small fraction of it, else
   * NaN: the kill switch takes a bound clear of the limit as clear (a backtest's positions valued at
   * its bars' closes), and otherwise compares the Decimal answer.
   */
  dailyPnlKrwFloor?(strategyId: string | null, nowMs: number): number;
}

/** An order in the risk view, open or closed. */
export interface RiskOrder extends OpenOrderView {
  /** The broker status it is in, as far as hoga knows. */
  readonly status: KnownBrokerOrderStatus;
  readonly timeInForce: TimeInForce;
  /** Ordered quantity (null for amount orders). */
  readonly quantity: Decimal | null;
  readonly filledQuantity: Decimal;
}

/** An open order of an earlier run, as the store has it (see `RiskBook.restoreOpen`). */
export interface RestoredRiskOrder
  extends Pick<
    RiskOrder,
    | 'clientOrderId'
    | 'strategyId'
    | 'symbol'
    | 'market'
    | 'currency'
    | 'side'
    | 'orderType'
    | 'timeInForce'
    | 'price'
    | 'quantity'
    | 'amount'
    | 'filledQuantity'
  > {
  readonly averageFillPrice: Decimal | null;
}

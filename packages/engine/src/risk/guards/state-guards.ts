/**
 * The trading state (ACTIVE, REDUCING, HALTED of the account, the strategy and the symbol) and the
 * daily loss limits.
 *
 * @module
 */
import { Decimal, type TradingMode } from '@hoga/core';
import type { DailyLossAction } from '../risk-config.js';
import {
  ACCEPTED,
  deny,
  type RiskContext,
  type RiskGuard,
  type RiskScope,
  type RiskSubject,
  scopeKey,
  stricterState,
  TradingState,
  type TradingStateLayerReason,
  type TradingStateReason,
} from '../risk-types.js';
import { describeLayer, lapsed } from '../trading-state-layers.js';
import { TradingStateSource } from '../trading-state-persistence.js';
import { describeKst, groupDigits, isoKst, nextTradingDayStartMs } from '../valuation.js';

const ZERO = new Decimal(0);

/**
 * Whether the subject only reduces a position: a cancel, or a sell of no more than the strategy
 * holds net of its other open sells.
 */
export function isReducing(ctx: RiskContext, subject: RiskSubject): boolean {
  if (subject.action === 'cancel') return true;
  if (subject.side !== 'SELL') return false;
  const held = ctx.positions.find((p) => p.symbol === subject.symbol)?.quantity ?? ZERO;
  const otherSells = ctx.openOrders
    .filter(
      (o) =>
        o.strategyId === subject.strategyId &&
        o.symbol === subject.symbol &&
        o.side === 'SELL' &&
        o.clientOrderId !== subject.target?.clientOrderId,
    )
    .reduce((sum, o) => sum.plus(o.remainingQuantity ?? ZERO), ZERO);
  const free = held.minus(otherSells);
  if (subject.quantity === null) return free.gt(0);
  return subject.quantity.lte(free);
}

/**
 * `risk-halted` / `risk-reducing`: the strictest of the account's, the strategy's and the symbol's
 * states. HALTED lets only cancels through; REDUCING only position-reducing orders.
 */
export const checkTradingState: RiskGuard = (ctx, subject) => {
  const { account, strategy, symbol } = ctx.states;
  const state = stricterState(stricterState(account, strategy), symbol);
  if (state === TradingState.ACTIVE || subject.action === 'cancel') return ACCEPTED;
  if (state === TradingState.REDUCING && isReducing(ctx, subject)) return ACCEPTED;
  // denied: only now read why (the hot path of an ACTIVE or reducing order never gets here)
  const scope: RiskScope =
    account === state
      ? { kind: 'account' }
      : strategy === state
        ? { kind: 'strategy', strategyId: subject.strategyId }
        : { kind: 'symbol', symbol: subject.symbol };
  const name = scopeName(scope);
  const why = explainState(scope, ctx.stateEntry?.(scope), ctx.mode, ctx.nowMs);
  const also = alsoInForce(ctx, subject, scope);
  const text = also === undefined ? why.text : `${why.text.replace(/\.$/, '')}. ${also.text}`;
  const data = {
    states: { account, strategy, symbol },
    ...why.data,
    ...(also === undefined ? {} : { alsoInForce: also.data }),
  };
  if (state === TradingState.HALTED) {
    return deny('risk-halted', `Trading is halted for ${name}: only cancels are accepted. ${text}`, data);
  }
  return deny(
    'risk-reducing',
    `${name} is REDUCING: only orders that reduce a position are accepted. ${text}`,
    data,
  );
};

/**
 * The order's other scopes (of the account, its strategy and its symbol) restricted beneath the one
 * that decided a denial, each with its state in force, what set it and the way out in the run's
 * mode: lifting the one that decided leaves them in force. Undefined when none is.
 */
function alsoInForce(
  ctx: RiskContext,
  subject: RiskSubject,
  decided: RiskScope,
): { text: string; data: Record<string, unknown>[] } | undefined {
  const scopes: [RiskScope, TradingState][] = [
    [{ kind: 'account' }, ctx.states.account],
    [{ kind: 'strategy', strategyId: subject.strategyId }, ctx.states.strategy],
    [{ kind: 'symbol', symbol: subject.symbol }, ctx.states.symbol],
  ];
  const others = scopes.filter(([s, state]) => s.kind !== decided.kind && state !== TradingState.ACTIVE);
  if (others.length === 0) return undefined;
  const parts: string[] = [];
  const data: Record<string, unknown>[] = [];
  for (const [scope, state] of others) {
    const entry = ctx.stateEntry?.(scope);
    const lift = liftCommand(scope, ctx.mode);
    const held = entry === undefined ? state : describeLayer({ ...entry, state }, describeKst);
    parts.push(`${scopeName(scope)} ${held}${lift === undefined ? '' : `, to lift: ${lift}`}`);
    data.push({
      scope: scopeKey(scope),
      state,
      ...(entry === undefined ? {} : layerData({ ...entry, state })),
      ...(lift === undefined ? {} : { lift }),
    });
  }
  return { text: `Also in force: ${parts.join('; ')}`, data };
}

function scopeName(scope: RiskScope): string {
  if (scope.kind === 'account') return 'the account';
  return scope.kind === 'strategy' ? `strategy ${scope.strategyId}` : scope.symbol;
}

/** What set each source's state, for a denial's message. */
const SET_BY: Readonly<Record<string, string>> = {
  'daily-loss': 'the daily loss limit',
  manual: 'an operator (hoga risk set)',
  reconciliation: 'a reconciliation mismatch between the broker and hoga',
  'stale-data': 'stale data (no order-history poll or price for too long)',
  guard: 'a risk guard',
};

/**
 * The way out of a scope's halt in the run's mode: the command that lifts it (live: `hoga risk
 * reset --strategy s1`; paper: with `--mode paper`, whose states are kept apart), or none in a
 * backtest, whose states live in the run where no command reaches them.
 */
function liftCommand(scope: RiskScope, mode: TradingMode | undefined): string | undefined {
  if (mode === 'backtest') return undefined;
  const flag =
    scope.kind === 'account'
      ? '--account'
      : scope.kind === 'strategy'
        ? `--strategy ${scope.strategyId}`
        : `--symbol ${scope.symbol}`;
  return `hoga risk reset ${flag}${mode === 'paper' ? ' --mode paper' : ''}`;
}

/**
 * What a backtest's user can do about a halt: nothing lifts it within the run, and a daily loss
 * limit's halt is avoided by a larger limit (the account's or the strategy's).
 */
function backtestWayOut(scope: RiskScope, dailyLoss: boolean): string {
  const none = 'hoga risk reset does not reach a backtest';
  if (!dailyLoss) return none;
  const limit = scope.kind === 'account' ? 'account.dailyLossLimitKrw' : 'dailyLossLimitKrw';
  return `${none}: a larger ${limit} in --risk-config lets it trade on`;
}

/**
 * Why a scope is HALTED or REDUCING, for a denial: what set it, since and until when, what other
 * sources hold of it beneath (in force once this ends), and the way out in the run's mode (see
 * {@link liftCommand}; it lifts them all).
 */
function explainState(
  scope: RiskScope,
  entry: TradingStateReason | undefined,
  mode: TradingMode | undefined,
  nowMs: number,
): { text: string; data: Record<string, unknown> } {
  const lift = liftCommand(scope, mode);
  const liftData = lift === undefined ? {} : { lift };
  if (entry === undefined) {
    return {
      text: lift === undefined ? `${backtestWayOut(scope, false)}.` : `To lift it: ${lift}`,
      data: { scope: scopeKey(scope), ...liftData },
    };
  }
  const by = SET_BY[entry.source] ?? entry.source;
  const since = describeKst(entry.sinceMs);
  const until =
    entry.untilMs !== null
      ? `until ${describeKst(entry.untilMs)}`
      : lift === undefined
        ? 'for the rest of the run'
        : entry.source === 'stale-data'
          ? 'until data flows again'
          : 'until lifted by hand';
  const beneath = (entry.beneath ?? []).filter((l) => !lapsed(l, nowMs));
  const under =
    beneath.length === 0
      ? ''
      : `; beneath it ${beneath.map((l) => describeLayer(l, describeKst)).join(' and ')}, in force once this ends`;
  const way =
    lift === undefined
      ? backtestWayOut(scope, entry.source === TradingStateSource.DAILY_LOSS)
      : `to lift ${beneath.length === 0 ? 'it' : 'them all'}${entry.untilMs === null ? '' : ' sooner'}: ${lift}`;
  return {
    text: `Set by ${by} (${entry.reason}) since ${since}, ${until}${under}; ${way}`,
    data: {
      scope: scopeKey(scope),
      source: entry.source,
      reason: entry.reason,
      sinceMs: entry.sinceMs,
      since: isoKst(entry.sinceMs),
      untilMs: entry.untilMs,
      ...(entry.untilMs === null ? {} : { until: isoKst(entry.untilMs) }),
      ...(beneath.length === 0 ? {} : { beneath: beneath.map(layerData) }),
      ...liftData,
    },
  };
}

/** One source's state beneath the one in force, for a denial's `data` (without its own `beneath`). */
function layerData(l: TradingStateLayerReason): TradingStateLayerReason {
  return { state: l.state, source: l.source, reason: l.reason, sinceMs: l.sinceMs, untilMs: l.untilMs };
}

/** The scopes whose daily PnL (KRW) is at or past their loss limit: the kill switch's triggers. */
export function dailyLossBreaches(
  ctx: Pick<RiskContext, 'dailyPnlKrw' | 'config' | 'limits'>,
  strategyId: string,
): RiskScope[] {
  const breached: RiskScope[] = [];
  if (ctx.dailyPnlKrw.account.lte(negatedOf(ctx.config.account.dailyLossLimitKrw))) {
    breached.push({ kind: 'account' });
  }
  if (ctx.dailyPnlKrw.strategy.lte(negatedOf(ctx.limits.dailyLossLimitKrw))) {
    breached.push({ kind: 'strategy', strategyId });
  }
  return breached;
}

/**
 * What a breached scope's kill switch does: the account's `account.dailyLossAction`, a strategy's
 * own `dailyLossAction` (or the defaults').
 */
export function dailyLossActionOf(
  ctx: Pick<RiskContext, 'config' | 'limits'>,
  scope: RiskScope,
): DailyLossAction {
  return scope.kind === 'account' ? ctx.config.account.dailyLossAction : ctx.limits.dailyLossAction;
}

/** Negated limits, per limit (the limits do not change during a run; checked on every order and fill). */
const negatedLimits = new WeakMap<Decimal, Decimal>();

function negatedOf(limit: Decimal): Decimal {
  let negated = negatedLimits.get(limit);
  if (negated === undefined) {
    negated = limit.negated();
    negatedLimits.set(limit, negated);
  }
  return negated;
}

/**
 * `risk-daily-loss-account` / `risk-daily-loss-strategy`: today's loss reached the limit; new
 * orders and modifies are denied until the next trading day (or `hoga risk reset`, in live and
 * paper). Where every breached scope's `dailyLossAction` is `reduce`, orders that reduce a position
 * pass, and the others are denied `risk-reducing`.
 */
export const checkDailyLoss: RiskGuard = (ctx, subject) => {
  if (subject.action === 'cancel') return ACCEPTED;
  const breaches = dailyLossBreaches(ctx, subject.strategyId);
  if (breaches.length === 0) return ACCEPTED;
  // a scope that halts speaks first; else all reduce: a reducing order passes
  const scope = breaches.find((s) => dailyLossActionOf(ctx, s) === 'halt') ?? breaches[0]!;
  const reduce = dailyLossActionOf(ctx, scope) === 'reduce';
  if (reduce && isReducing(ctx, subject)) return ACCEPTED;
  const account = scope.kind === 'account';
  const pnl = account ? ctx.dailyPnlKrw.account : ctx.dailyPnlKrw.strategy;
  const limit = account ? ctx.config.account.dailyLossLimitKrw : ctx.limits.dailyLossLimitKrw;
  const freesAtMs = nextTradingDayStartMs(
    ctx.nowMs - (ctx.dayShiftMs ?? 0),
    ctx.config.tradingDayStartHourKst,
  );
  const lift = liftCommand(scope, ctx.mode);
  const way = lift === undefined ? `; ${backtestWayOut(scope, true)}` : ` or on ${lift}`;
  const lost = `${account ? 'The account' : `Strategy ${subject.strategyId}`} lost ${groupDigits(pnl.negated().toFixed(0))} KRW today, at or over its limit of ${groupDigits(limit.toFixed())} KRW`;
  const cap = account ? 'account.dailyLossLimitKrw' : 'dailyLossLimitKrw';
  return deny(
    reduce ? 'risk-reducing' : account ? 'risk-daily-loss-account' : 'risk-daily-loss-strategy',
    `${lost}${reduce ? ': only orders that reduce a position are accepted' : ''}; frees at ${describeKst(freesAtMs)}${way}`,
    {
      cap,
      limit: limit.toFixed(),
      pnlKrw: pnl.toFixed(0),
      action: reduce ? 'reduce' : 'halt',
      freesAtMs,
      freesAt: isoKst(freesAtMs),
    },
  );
};

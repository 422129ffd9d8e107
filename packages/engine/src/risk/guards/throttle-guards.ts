/**
 * Abuse throttling (the spec: "Repeating many orders in a short time can be treated as abuse and
 * trading is then restricted for a period"): sliding-window caps on order actions per symbol and
 * per account, and a cancel/replace loop guard. A denial names the cap and when it frees. Cancels
 * count in the windows but are never denied: they only ever reduce risk.
 *
 * @module
 */
import type { RiskVerdict } from '../risk-gate.js';
import {
  ACCEPTED,
  deny,
  loopKeyOf,
  type OrderActionRecord,
  type RiskContext,
  type RiskGuard,
  type RiskSubject,
} from '../risk-types.js';
import { describeKstSeconds, isoKst } from '../valuation.js';

/**
 * Whether `records` (oldest first) already hold `cap` entries inside `windowMs` before `nowMs`;
 * if so, when the window frees one place (epoch ms).
 */
export function windowFull(
  records: readonly OrderActionRecord[],
  nowMs: number,
  windowMs: number,
  cap: number,
): { readonly count: number; readonly freesAtMs: number | null } {
  const inWindow = records.filter((r) => r.tsMs > nowMs - windowMs && r.tsMs <= nowMs);
  if (inWindow.length < cap) return { count: inWindow.length, freesAtMs: null };
  return { count: inWindow.length, freesAtMs: inWindow[inWindow.length - cap]!.tsMs + windowMs };
}

/** When a window frees, for a denial: `2026-11-23 10:00:31 KST (Mon), in 31 s`. */
function freesAt(freesAtMs: number, nowMs: number): string {
  return `${describeKstSeconds(freesAtMs)}, in ${Math.max(1, Math.ceil((freesAtMs - nowMs) / 1000))} s`;
}

function capDenial(
  code: string,
  cap: string,
  what: string,
  limit: number,
  windowMs: number,
  freesAtMs: number,
  nowMs: number,
): RiskVerdict {
  return deny(
    code,
    `${what}: ${limit} order actions per ${windowMs / 1000} s reached; frees at ${freesAt(freesAtMs, nowMs)}`,
    { cap, limit, windowMs, freesAtMs, freesAt: isoKst(freesAtMs) },
  );
}

/** `risk-throttle-symbol`: the symbol's order actions in the window are at the cap. */
export const checkSymbolThrottle: RiskGuard = (ctx, subject) => {
  if (subject.action === 'cancel') return ACCEPTED;
  const { windowMs, perSymbol } = ctx.config.throttle;
  const full = windowFull(
    ctx.actions.filter((a) => a.symbol === subject.symbol),
    ctx.nowMs,
    windowMs,
    perSymbol,
  );
  if (full.freesAtMs === null) return ACCEPTED;
  return capDenial(
    'risk-throttle-symbol',
    'throttle.perSymbol',
    `${subject.symbol}`,
    perSymbol,
    windowMs,
    full.freesAtMs,
    ctx.nowMs,
  );
};

/** `risk-throttle-account`: the account's order actions in the window are at the cap. */
export const checkAccountThrottle: RiskGuard = (ctx, subject) => {
  if (subject.action === 'cancel') return ACCEPTED;
  const { windowMs, perAccount } = ctx.config.throttle;
  const full = windowFull(ctx.actions, ctx.nowMs, windowMs, perAccount);
  if (full.freesAtMs === null) return ACCEPTED;
  return capDenial(
    'risk-throttle-account',
    'throttle.perAccount',
    'the account',
    perAccount,
    windowMs,
    full.freesAtMs,
    ctx.nowMs,
  );
};

/**
 * Whether a create re-places an order: a cancel on the same strategy, symbol and side inside the
 * loop window.
 */
export function isReplace(ctx: RiskContext, subject: RiskSubject): boolean {
  if (subject.action === 'modify') return true;
  if (subject.action !== 'create') return false;
  const key = loopKeyOf(subject.strategyId, subject.symbol, subject.side);
  const since = ctx.nowMs - ctx.config.throttle.loopWindowMs;
  return ctx.actions.some((a) => a.action === 'cancel' && a.loopKey === key && a.tsMs > since);
}

/**
 * `risk-cancel-replace-loop`: the same order (strategy, symbol, side) was modified, or cancelled
 * and re-placed, `loopMaxReplaces` times inside `loopWindowMs`; the next replace is stopped.
 */
export const checkCancelReplaceLoop: RiskGuard = (ctx, subject) => {
  if (!isReplace(ctx, subject)) return ACCEPTED;
  const { loopMaxReplaces, loopWindowMs } = ctx.config.throttle;
  const key = loopKeyOf(subject.strategyId, subject.symbol, subject.side);
  const full = windowFull(
    ctx.actions.filter((a) => a.replace && a.loopKey === key),
    ctx.nowMs,
    loopWindowMs,
    loopMaxReplaces,
  );
  if (full.freesAtMs === null) return ACCEPTED;
  return deny(
    'risk-cancel-replace-loop',
    `${subject.symbol} ${subject.side} of ${subject.strategyId} was replaced ${full.count} times in ${loopWindowMs / 1000} s (cap ${loopMaxReplaces}); frees at ${freesAt(full.freesAtMs, ctx.nowMs)}`,
    {
      cap: 'throttle.loopMaxReplaces',
      limit: loopMaxReplaces,
      windowMs: loopWindowMs,
      freesAtMs: full.freesAtMs,
      freesAt: isoKst(full.freesAtMs),
    },
  );
};

/** The throttle guards, in the order they run. */
export const THROTTLE_GUARDS: readonly RiskGuard[] = [
  checkCancelReplaceLoop,
  checkSymbolThrottle,
  checkAccountThrottle,
];

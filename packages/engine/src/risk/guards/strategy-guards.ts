/**
 * The owner's limits per strategy: allowed symbols, maximum order value, maximum open orders, and
 * maximum position value per symbol and in total (position plus open buys plus the order).
 *
 * @module
 */
import { usPriceTruncation } from '@hoga/broker-model';
import { Decimal, instrumentOf } from '@hoga/core';
import type { RiskVerdict } from '../risk-gate.js';
import { ACCEPTED, deny, type RiskContext, type RiskGuard, type RiskSubject } from '../risk-types.js';
import { exceeds, groupDigits, openOrderValueKrw, positionValueKrw, within } from '../valuation.js';

const ZERO = new Decimal(0);

/**
 * A KRW value over a limit, in whole won rounded up: a value a fraction of a won over the limit
 * (USD through the rate) shows over it, not rounded down onto it.
 */
function wonUp(value: Decimal): string {
  return value.toFixed(0, Decimal.ROUND_UP);
}

/** `risk-symbol-not-allowed`: a new order in a symbol outside the strategy's allowed list. */
export const checkAllowedSymbol: RiskGuard = (ctx, subject) => {
  const allowed = ctx.limits.allowedSymbols;
  if (subject.action !== 'create' || allowed === null || allowed.includes(subject.symbol)) return ACCEPTED;
  return deny(
    'risk-symbol-not-allowed',
    `Strategy ${subject.strategyId} may not trade ${subject.symbol} (allowed: ${allowed.join(', ') || 'none'})`,
    { cap: 'allowedSymbols', allowedSymbols: allowed },
  );
};

/**
 * `risk-price-off-grid`: a US limit price (create or modify) off the broker's grid ($0.01 from $1,
 * $0.0001 below). The broker takes it and truncates it (the broker model's `usPriceTruncation`), so
 * the order would work at a price the strategy did not ask (a sell below it), and hoga's record of
 * it would differ from the broker's: denied, naming the nearest prices, as a KR price off its ticks
 * is refused. One comparison for a US limit (none for any other order).
 */
export const checkUsPriceGrid: RiskGuard = (_ctx, subject) => {
  if (subject.market !== 'US' || subject.price === null || subject.action === 'cancel') return ACCEPTED;
  const instrument =
    subject.command.type === 'SubmitOrder' ? subject.command.intent.instrument : instrumentOf(subject.symbol);
  const off = usPriceTruncation(instrument, subject.price);
  if (off === null) return ACCEPTED;
  const [lower, upper] = off.nearestPrices.map((p) => p.toFixed());
  const nearest = off.truncatedTo.gt(0)
    ? `the nearest prices are ${lower} and ${upper}`
    : `the nearest price is ${upper}`;
  return deny(
    'risk-price-off-grid',
    `price ${subject.price.toFixed()} is off the US price grid (${off.tickSize.toFixed()} at this price): the broker would truncate it to ${off.truncatedTo.toFixed()} and work the order at a price other than the one asked; ${nearest}`,
    {
      field: 'price',
      tickSize: off.tickSize.toFixed(),
      truncatedTo: off.truncatedTo.toFixed(),
      lowerTick: lower,
      upperTick: upper,
      nearestPrices: [lower, upper],
    },
  );
};

/** `risk-max-order-value`: a create or modify worth more than the strategy's maximum order value. */
export const checkMaxOrderValue: RiskGuard = (ctx, subject) => {
  if (subject.action === 'cancel' || within(subject.valueKrw, ctx.limits.maxOrderValueKrw)) return ACCEPTED;
  return deny(
    'risk-max-order-value',
    `The order is worth ${groupDigits(wonUp(subject.valueKrw))} KRW, over the strategy's maximum of ${groupDigits(ctx.limits.maxOrderValueKrw.toFixed())} KRW`,
    {
      cap: 'maxOrderValueKrw',
      limit: ctx.limits.maxOrderValueKrw.toFixed(),
      valueKrw: wonUp(subject.valueKrw),
    },
  );
};

/** `risk-max-open-orders`: a new order when the strategy already has its maximum of open orders. */
export const checkMaxOpenOrders: RiskGuard = (ctx, subject) => {
  if (subject.action !== 'create') return ACCEPTED;
  let open = ctx.openOrderCount?.(subject.strategyId);
  if (open === undefined) {
    open = 0;
    for (const o of ctx.openOrders) if (o.strategyId === subject.strategyId) open += 1;
  }
  if (open < ctx.limits.maxOpenOrders) return ACCEPTED;
  return deny(
    'risk-max-open-orders',
    `Strategy ${subject.strategyId} has ${open} open orders, its maximum is ${ctx.limits.maxOpenOrders}`,
    { cap: 'maxOpenOrders', limit: ctx.limits.maxOpenOrders, open },
  );
};

/** KRW exposure of the strategy's buys, in the subject's symbol and in total. */
interface Exposure {
  readonly symbolKrw: Decimal;
  readonly totalKrw: Decimal;
}

/**
 * KRW exposure of the strategy's buys: positions plus open buys (the target of a modify left out),
 * in the subject's symbol and in total, in one walk (each sum taken in the order of the positions,
 * then of the open orders).
 */
function exposureKrw(ctx: RiskContext, subject: RiskSubject): Exposure {
  let symbolKrw = ZERO;
  let totalKrw = ZERO;
  // a position with no known price adds nothing: with one symbol priced (a backtest knows the
  // order's own symbol's last close only), its position alone can count, found without the walk
  const priced = ctx.lastPrices.size;
  if (priced === 1 && ctx.position !== undefined) {
    const [symbol] = ctx.lastPrices.keys();
    const p = symbol === undefined ? undefined : ctx.position(symbol);
    if (p !== undefined) {
      totalKrw = positionValueKrw(ctx, p);
      if (p.symbol === subject.symbol) symbolKrw = totalKrw;
    }
  } else if (priced > 0) {
    for (const p of ctx.positions) {
      // a position with no known price adds nothing (and costs no arithmetic)
      if (!ctx.lastPrices.has(p.symbol)) continue;
      const value = positionValueKrw(ctx, p);
      totalKrw = totalKrw.plus(value);
      if (p.symbol === subject.symbol) symbolKrw = symbolKrw.plus(value);
    }
  }
  // no open order of the strategy, or no prices and no open order with a limit price or an amount
  // (every open buy is worth 0): the walk would add nothing
  if (ctx.openOrderCount?.(subject.strategyId) === 0) return { symbolKrw, totalKrw };
  if (priced === 0 && ctx.pricedOpenOrderCount?.() === 0) return { symbolKrw, totalKrw };
  for (const o of ctx.openOrders) {
    if (o.strategyId !== subject.strategyId || o.side !== 'BUY') continue;
    if (subject.target !== null && o.clientOrderId === subject.target.clientOrderId) continue;
    // a quantity order at no known price (a market order before any price) is worth 0: adds nothing
    if (o.amount === null && o.price === null && !ctx.lastPrices.has(o.symbol)) continue;
    const value = openOrderValueKrw(ctx, o);
    totalKrw = totalKrw.plus(value);
    if (o.symbol === subject.symbol) symbolKrw = symbolKrw.plus(value);
  }
  return { symbolKrw, totalKrw };
}

/** exposure + value (0 + value is the value: nothing held or working yet costs no addition). */
function plusValue(exposure: Decimal, value: Decimal): Decimal {
  return exposure.isZero() ? value : exposure.plus(value);
}

/**
 * `risk-max-position-value-symbol` / `risk-max-position-value-total`: a buy (create or modify)
 * after which the strategy's position plus open buys would be worth more than its limit, in the
 * symbol or in total. Sells always pass.
 */
export const checkPositionValue: RiskGuard = (ctx, subject): RiskVerdict => {
  if (subject.action === 'cancel' || subject.side !== 'BUY') return ACCEPTED;
  const exposure = exposureKrw(ctx, subject);
  const symbolAfter = plusValue(exposure.symbolKrw, subject.valueKrw);
  if (exceeds(symbolAfter, ctx.limits.maxPositionValuePerSymbolKrw)) {
    return deny(
      'risk-max-position-value-symbol',
      `${subject.symbol} would be worth ${groupDigits(wonUp(symbolAfter))} KRW with open buys, over the strategy's maximum of ${groupDigits(ctx.limits.maxPositionValuePerSymbolKrw.toFixed())} KRW`,
      {
        cap: 'maxPositionValuePerSymbolKrw',
        limit: ctx.limits.maxPositionValuePerSymbolKrw.toFixed(),
        valueAfterKrw: wonUp(symbolAfter),
      },
    );
  }
  const totalAfter = plusValue(exposure.totalKrw, subject.valueKrw);
  if (exceeds(totalAfter, ctx.limits.maxTotalPositionValueKrw)) {
    return deny(
      'risk-max-position-value-total',
      `The strategy's positions would be worth ${groupDigits(wonUp(totalAfter))} KRW with open buys, over its maximum of ${groupDigits(ctx.limits.maxTotalPositionValueKrw.toFixed())} KRW`,
      {
        cap: 'maxTotalPositionValueKrw',
        limit: ctx.limits.maxTotalPositionValueKrw.toFixed(),
        valueAfterKrw: wonUp(totalAfter),
      },
    );
  }
  return ACCEPTED;
};

/** The strategy-limit guards, in the order they run. */
export const STRATEGY_GUARDS: readonly RiskGuard[] = [
  checkUsPriceGrid,
  checkAllowedSymbol,
  checkMaxOrderValue,
  checkMaxOpenOrders,
  checkPositionValue,
];

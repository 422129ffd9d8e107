/**
 * KRW values the guards compare: orders, positions and the trading day the daily limits use.
 *
 * @module
 */
import { type Currency, Decimal, exactIntOf, KST_ZONE, timesExact } from '@hoga/core';
import { DateTime } from 'luxon';
import type { OpenOrderView, PositionView, RiskContext, RiskView } from './risk-types.js';

const ZERO = new Decimal(0);

/** An amount in KRW: USD through the context's display rate. */
export function toKrw(amount: Decimal, currency: Currency, usdKrw: Decimal): Decimal {
  return currency === 'USD' ? timesExact(amount, usdKrw) : amount;
}

/**
 * `value > limit`, without the copy of the limit a Decimal comparison makes when the value is 0 and
 * the limit is not negative (an order at no known price is worth 0).
 */
export function exceeds(value: Decimal, limit: Decimal): boolean {
  // both safe integers (whole won): compared as numbers, no Decimal made
  const v = exactIntOf(value);
  const l = exactIntOf(limit);
  if (!Number.isNaN(v) && !Number.isNaN(l)) return v > l;
  return value.isZero() && notNegative(limit) ? false : value.gt(limit);
}

/** `value ≤ limit`, with the same shortcuts as {@link exceeds} (a NaN value is never within a limit). */
export function within(value: Decimal, limit: Decimal): boolean {
  const v = exactIntOf(value);
  const l = exactIntOf(limit);
  if (!Number.isNaN(v) && !Number.isNaN(l)) return v <= l;
  return value.isZero() && notNegative(limit) ? true : value.lte(limit);
}

/** x ≥ 0 (NaN is not), without a Decimal of 0 to compare with. */
function notNegative(x: Decimal): boolean {
  return !x.isNeg() && !x.isNaN();
}

/** KRW value of what is still working of an open order (a market order at the last price, 0 if unknown). */
export function openOrderValueKrw(ctx: RiskContext, order: OpenOrderView): Decimal {
  if (order.amount !== null) return toKrw(order.amount, order.currency, ctx.usdKrw);
  const price = order.price ?? ctx.lastPrices.get(order.symbol) ?? ZERO;
  return toKrw(timesExact(order.remainingQuantity ?? ZERO, price), order.currency, ctx.usdKrw);
}

/** KRW value of a position at the last price (0 when no price is known). */
export function positionValueKrw(ctx: RiskContext, position: PositionView): Decimal {
  const price = ctx.lastPrices.get(position.symbol) ?? ZERO;
  return toKrw(timesExact(position.quantity, price), position.currency, ctx.usdKrw);
}

/** KST is UTC+9 all year (no daylight saving since 1988): day boundaries are plain arithmetic. */
const KST_OFFSET_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;

/** Start (epoch ms) of the trading day that contains `nowMs`: today's `startHourKst` in KST, or yesterday's. */
export function tradingDayStartMs(nowMs: number, startHourKst: number): number {
  const shift = KST_OFFSET_MS - startHourKst * 3_600_000;
  return Math.floor((nowMs + shift) / DAY_MS) * DAY_MS - shift;
}

/**
 * How long before a backtest's instant its trading day is read, ms. A backtest's instants are its
 * bars' closes: a bar stamped exactly at a day's start (the US after-market's last minute,
 * 17:59–18:00 New York, is 07:59–08:00 KST in winter) closes the day before, whose prices and
 * fills live sees before the day starts. So is what happens at its stamp (its fills, the kill
 * switch's evaluation after it, an order placed on it): of the day the bar closes.
 */
export const BAR_CLOSE_DAY_SHIFT_MS = 1;

/** Start (epoch ms) of the next trading day after `nowMs`. */
export function nextTradingDayStartMs(nowMs: number, startHourKst: number): number {
  return tradingDayStartMs(nowMs, startHourKst) + DAY_MS;
}

/** The trading day containing `nowMs`, as its KST date `YYYY-MM-DD` (the day it started). */
export function tradingDayOf(nowMs: number, startHourKst: number): string {
  const start = tradingDayStartMs(nowMs, startHourKst);
  if (start !== lastDay.start) {
    lastDay.start = start;
    lastDay.text = new Date(start + KST_OFFSET_MS).toISOString().slice(0, 10);
  }
  return lastDay.text;
}

/** The last day named (checks ask for the same day many times in a row). */
const lastDay = { start: Number.NaN, text: '' };

/** An epoch ms for a message, as `2026-11-28 10:00 KST (Sat)` (the form of every risk message). */
export function describeKst(ms: number): string {
  return DateTime.fromMillis(ms, { zone: KST_ZONE }).toFormat("yyyy-MM-dd HH:mm 'KST' (ccc)");
}

/**
 * An epoch ms for a message to the second, as `2026-11-28 10:00:31 KST (Sat)`: for what frees
 * within a minute (the throttles), which {@link describeKst}'s minutes would say too early.
 */
export function describeKstSeconds(ms: number): string {
  return DateTime.fromMillis(ms, { zone: KST_ZONE }).toFormat("yyyy-MM-dd HH:mm:ss 'KST' (ccc)");
}

/** ISO text (KST) of an epoch ms, for denial data. */
export function isoKst(ms: number): string {
  return DateTime.fromMillis(ms, { zone: KST_ZONE }).toISO() ?? String(ms);
}

/**
 * A view's PnL of today as a number, for the kill switch's comparisons without a Decimal: exactly,
 * when it is a safe integer, else a lower bound within a small fraction of it (a backtest's), else
 * NaN (the Decimal answer decides).
 */
export function dailyPnlFloor(view: RiskView, strategyId: string | null, nowMs: number): number {
  const exact = view.dailyPnlKrwInt?.(strategyId, nowMs) ?? Number.NaN;
  return Number.isNaN(exact) ? (view.dailyPnlKrwFloor?.(strategyId, nowMs) ?? Number.NaN) : exact;
}

/**
 * A decimal's text with its whole part grouped by thousands, as reports print amounts
 * (`1101050` → `1,101,050`, `-2500.5` → `-2,500.5`): for the amounts in risk messages (their `data`
 * keeps the plain text).
 */
export function groupDigits(text: string): string {
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (dot < 0 ? '' : text.slice(dot));
}

import { Decimal, type KnownBrokerOrderStatus } from '@hoga/core';
import type { DateTime } from 'luxon';
import type { MarketModel, SimInstrument } from '../market/market-model.js';
import { businessRule, conflict } from './brokerage-errors.js';
import type { Ledger } from './ledger.js';
import { buildOrder, type NewOrderFields } from './order-factory.js';
import { checkMaxAmount, checkOppositePending, checkOrderRules, type RuleSubject } from './order-rules.js';
import type { SimOrder } from './order-types.js';
import { cashBuyingPower, reservedCash, reservedShares, sellableQuantity } from './reservations.js';

/** Order value in KRW (USD at the display rate); market orders are valued at the last price. */
export function orderValueKrw(
  market: MarketModel,
  instrument: SimInstrument,
  price: Decimal | null,
  quantity: Decimal | null,
  orderAmount: Decimal | null,
  now: DateTime,
): Decimal {
  const native =
    orderAmount ?? (quantity ?? new Decimal(0)).times(price ?? market.lastPrice(instrument.symbol, now));
  return instrument.currency === 'USD' ? native.times(market.usdKrw(now)) : native;
}

const CONFLICTS: Partial<Record<KnownBrokerOrderStatus, readonly [string, string]>> = {
  FILLED: ['already-filled', 'is already filled'],
  CANCELED: ['already-canceled', 'is already cancelled'],
  REPLACED: ['already-modified', 'was already modified'],
  REJECTED: ['already-rejected', 'was rejected'],
  CANCEL_REJECTED: ['already-rejected', 'is a rejected cancel request'],
  REPLACE_REJECTED: ['already-rejected', 'is a rejected modify request'],
  PENDING_CANCEL: ['already-processing', 'has a cancel in progress'],
  PENDING_REPLACE: ['already-processing', 'has a modify in progress'],
};

/**
 * 409 when a modify or cancel targets an order that is no longer open
 * (`already-filled`, `already-canceled`, `already-modified`,
 * `already-rejected`) or is being changed (`already-processing`).
 */
export function checkStillOpen(order: SimOrder): void {
  const hit = CONFLICTS[order.status];
  if (hit) {
    const data = hit[0] === 'already-processing' ? { retryAfterSeconds: 1 } : undefined;
    throw conflict(hit[0], `Order ${order.orderId} ${hit[1]}`, data);
  }
}

/** Close orders (`CLS`) can no longer be modified or cancelled this long before the close. */
export const CLOSE_ORDER_FREEZE_MS = 10 * 60 * 1000;

/**
 * 422 `modify-restricted` / `cancel-restricted` for an open order that may not
 * be changed: an amount-based order cannot be modified; a `CLS` order can be
 * neither modified nor cancelled in the last 10 minutes before the close.
 */
export function checkChangeable(order: SimOrder, action: 'modify' | 'cancel', nowMs: number): void {
  const code = action === 'modify' ? 'modify-restricted' : 'cancel-restricted';
  if (action === 'modify' && order.orderAmount !== null) {
    throw businessRule(code, 'An amount-based order cannot be modified');
  }
  if (order.timeInForce === 'CLS' && nowMs >= order.expiresAtMs - CLOSE_ORDER_FREEZE_MS) {
    throw businessRule(
      code,
      `A close order cannot be ${action === 'modify' ? 'modified' : 'cancelled'} in the last 10 minutes before the close`,
    );
  }
}

/** What admission needs to know about the account. */
export interface AdmissionContext {
  readonly market: MarketModel;
  readonly ledger: Ledger;
  /** Open orders of every account (the opposite-side rule reads the account's own). */
  readonly openOrders: readonly SimOrder[];
}

/**
 * The 422 rules and the money check of a new order, or of a modify's
 * replacement (`replacing` gives back its reservation and is exempt from the
 * opposite-side rule): business rules first, then buying power (buys) or the
 * sellable quantity (sells; also 422 `insufficient-buying-power`).
 */
export function checkAdmission(
  ctx: AdmissionContext,
  fields: NewOrderFields,
  now: DateTime,
  replacing: SimOrder | null,
): void {
  const fractional = fields.orderAmount !== null || !(fields.quantity ?? new Decimal(0)).isInteger();
  const subject: RuleSubject = {
    instrument: fields.instrument,
    side: fields.side,
    orderType: fields.orderType,
    timeInForce: fields.timeInForce,
    price: fields.price,
    fractionalOrAmount: fractional,
    sizingField: fields.orderAmount !== null ? 'orderAmount' : 'quantity',
  };
  checkOrderRules(ctx.market, subject, now);
  checkMaxAmount(
    orderValueKrw(ctx.market, fields.instrument, fields.price, fields.quantity, fields.orderAmount, now),
  );
  if (replacing === null) checkOppositePending(ctx.openOrders, subject, fields.accountSeq);
  const probe = buildOrder(ctx.market, fields, { seq: 0, orderId: '' }, now, 0);
  const open = ctx.openOrders.filter((o) => o.accountSeq === fields.accountSeq && o !== replacing);
  if (fields.side === 'BUY') {
    const available = cashBuyingPower(ctx.ledger, open, probe.currency);
    const required = reservedCash(probe);
    if (required.gt(available)) {
      throw businessRule(
        'insufficient-buying-power',
        `The order needs ${required.toFixed()} ${probe.currency}`,
        {
          currency: probe.currency,
          required: required.toFixed(),
          cashBuyingPower: available.toFixed(),
        },
      );
    }
    return;
  }
  const sellable = sellableQuantity(ctx.ledger, open, probe.symbol);
  const needed = reservedShares(probe);
  if (needed.gt(sellable)) {
    throw businessRule(
      'insufficient-buying-power',
      `Only ${sellable.toFixed()} ${probe.symbol} can be sold`,
      {
        field: fields.orderAmount !== null ? 'orderAmount' : 'quantity',
        sellableQuantity: sellable.toFixed(),
      },
    );
  }
}

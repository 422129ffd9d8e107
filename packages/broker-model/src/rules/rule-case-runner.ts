/**
 * Runs a rule-case row through the broker model: builds the instrument, the market moment and the
 * account view the rules look at (buying power and sellable quantity from the economics, net of
 * the row's open orders) and answers `admitOrder`, `admitModify` or `admitCancel`.
 *
 * @module
 */
import {
  type BrokerVerdict,
  Decimal,
  type KnownBrokerOrderStatus,
  KST_ZONE,
  type TradableInstrument,
} from '@hoga/core';
import { DateTime } from 'luxon';
import { cashBuyingPower, type ReservingOrder, sellableQuantity } from '../economics/reservations.js';
import { admitCancel, admitModify, admitOrder } from './admission.js';
import { krPriceLimits } from './price-limits.js';
import type { RuleCase, RuleCaseOpenOrder } from './rule-case-types.js';
import type { AccountView, MarketMoment, OrderRequest, TargetOrder } from './rule-inputs.js';

const d = (text: string | undefined) => (text === undefined ? null : new Decimal(text));
const ZERO = new Decimal(0);
/** The end of the DAY orders of a row (far enough: only CLS expiry matters to the rules). */
const FAR_MS = Number.MAX_SAFE_INTEGER;

/** The instant of an ISO time, in KST. */
function kst(iso: string): DateTime {
  return DateTime.fromISO(iso, { setZone: true }).setZone(KST_ZONE);
}

/** The instrument of a row. */
export function ruleCaseInstrument(row: RuleCase): TradableInstrument {
  const { symbol, market, currency, securityType, flags } = row.instrument;
  return { symbol, market, currency, securityType, flags };
}

/** The market moment of a row (KR limits ±30% of its reference price). */
export function ruleCaseMoment(row: RuleCase): MarketMoment {
  const m = row.moment;
  const instrument = ruleCaseInstrument(row);
  return {
    at: kst(m.at),
    session: m.session,
    nextOpenAt: null,
    usRegularHours:
      m.usRegularHours === null
        ? null
        : { start: kst(m.usRegularHours.start), end: kst(m.usRegularHours.end) },
    priceLimits: m.referencePrice === null ? null : krPriceLimits(instrument, new Decimal(m.referencePrice)),
    lastPrice: new Decimal(m.lastPrice),
    usdKrw: new Decimal(m.usdKrw),
  };
}

function openOrderOf(
  order: RuleCaseOpenOrder,
  index: number,
  row: RuleCase,
): ReservingOrder & { orderId: string } {
  return {
    orderId: `${row.id}-open-${index}`,
    symbol: order.symbol,
    currency: row.instrument.currency,
    side: order.side,
    price: new Decimal(order.price),
    quantity: new Decimal(order.quantity),
    orderAmount: null,
    filledQuantity: ZERO,
    filledAmount: ZERO,
    reservePrice: new Decimal(order.price),
  };
}

const TARGET_STATUS: Record<string, KnownBrokerOrderStatus> = {
  PENDING: 'PENDING',
  FILLED: 'FILLED',
  CANCELED: 'CANCELED',
  REPLACED: 'REPLACED',
};

/** The target of a modify or cancel row: the account's first open order, in the row's state. */
export function ruleCaseTarget(row: RuleCase): TargetOrder {
  if (row.action.kind === 'create') throw new Error(`rule case ${row.id} has no target`);
  const first = row.account.openOrders[0];
  if (first === undefined) throw new Error(`rule case ${row.id}: a ${row.action.kind} needs an open order`);
  const status = TARGET_STATUS[row.action.targetStatus] ?? 'PENDING';
  const quantity = new Decimal(first.quantity);
  const cls = first.timeInForce === 'CLS';
  const close = row.moment.usRegularHours?.end;
  return {
    orderId: `${row.id}-open-0`,
    status,
    side: first.side,
    timeInForce: first.timeInForce ?? 'DAY',
    quantity,
    filledQuantity: status === 'FILLED' ? quantity : ZERO,
    orderAmount: null,
    expiresAtMs: cls && close !== undefined ? kst(close).toMillis() : FAR_MS,
  };
}

/**
 * The account view of a row: its open orders (without a modify's target, whose reservation a
 * modify gives back, and without a target no longer open), buying power in the instrument's
 * currency and the sellable quantity of its symbol, net of those orders.
 */
export function ruleCaseAccount(row: RuleCase): AccountView {
  const { currency, symbol } = row.instrument;
  const action = row.action;
  const withoutTarget =
    action.kind === 'modify' || (action.kind === 'cancel' && action.targetStatus !== 'PENDING');
  const open = row.account.openOrders
    .map((o, i) => openOrderOf(o, i, row))
    .filter((_, i) => !(withoutTarget && i === 0));
  return {
    cashBuyingPower: cashBuyingPower(new Decimal(row.account.cash[currency]), open, currency),
    sellableQuantity: sellableQuantity(new Decimal(row.account.holdings[symbol] ?? '0'), open, symbol),
    openOrders: open,
  };
}

/** The verdict of the broker model on a row. */
export function ruleCaseVerdict(row: RuleCase): BrokerVerdict {
  const instrument = ruleCaseInstrument(row);
  const moment = ruleCaseMoment(row);
  const action = row.action;
  if (action.kind === 'create') {
    const o = action.order;
    const request: OrderRequest = {
      side: o.side,
      orderType: o.orderType,
      timeInForce: o.timeInForce ?? null,
      quantity: d(o.quantity),
      price: d(o.price),
      orderAmount: d(o.orderAmount),
      confirmHighValueOrder: o.confirmHighValueOrder ?? false,
    };
    return admitOrder({ instrument, request, moment, account: ruleCaseAccount(row) });
  }
  const order = ruleCaseTarget(row);
  if (action.kind === 'cancel') return admitCancel({ instrument, order, moment });
  const r = action.request;
  return admitModify({
    instrument,
    order,
    request: {
      orderType: r.orderType,
      price: d(r.price),
      quantity: d(r.quantity),
      confirmHighValueOrder: r.confirmHighValueOrder ?? false,
    },
    moment,
    account: ruleCaseAccount(row),
  });
}

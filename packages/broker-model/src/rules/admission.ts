/**
 * The broker's rules applied in its order: 400s before 422s, business rules before buying power.
 * `admitOrder`, `admitModify` and `admitCancel` answer the verdict the broker would give; the
 * simulator runs the same stages with its own steps (symbol lookup, `clientOrderId` window) in
 * between, and the engine's risk module runs them whole.
 *
 * @module
 */
import {
  type BrokerRefusal,
  type BrokerVerdict,
  checkOrderForm,
  type Decimal,
  firstRefusal,
  type OrderSide,
  type OrderType,
  type TimeInForce,
  type TradableInstrument,
} from '@hoga/core';
import { orderValueKrw } from '../economics/order-value.js';
import { checkFunds, checkMaxAmount, checkOppositePending } from './account-rules.js';
import {
  type AcceptedModify,
  checkChangeable,
  checkModifyRequest,
  checkReplacementShape,
  checkStillOpen,
} from './change-rules.js';
import { checkHighValue, checkOrderRequest } from './order-request.js';
import { checkPriceLimits } from './price-limits.js';
import type {
  AcceptedRequest,
  AccountView,
  MarketMoment,
  ModifyRequest,
  NewOrderCase,
  TargetOrder,
} from './rule-inputs.js';
import {
  checkAmountOrderWindow,
  checkMarketSupported,
  checkNotSuspended,
  checkOrderHours,
  checkOrderTypeInSession,
  checkPrerequisite,
  isAmountOrFractional,
} from './session-rules.js';

/** A working order as the 422 rules see it (a new order, or a modify's replacement). */
export interface WorkingOrder {
  readonly side: OrderSide;
  readonly orderType: OrderType;
  /** Null means `DAY`. */
  readonly timeInForce: TimeInForce | null;
  /** The price on the grid; null for market orders. */
  readonly price: Decimal | null;
  readonly quantity: Decimal | null;
  readonly orderAmount: Decimal | null;
}

/** What {@link checkTradingRules} looks at. */
export interface TradingRulesInput {
  readonly instrument: TradableInstrument;
  readonly order: WorkingOrder;
  readonly moment: MarketMoment;
  readonly account: AccountView;
  /** True for a modify's replacement: exempt from the opposite-side rule. */
  readonly replacing: boolean;
}

/** The KRW value of a working order at a moment (the economics' `orderValueKrw`). */
export function workingOrderValueKrw(
  instrument: TradableInstrument,
  order: Pick<WorkingOrder, 'price' | 'quantity' | 'orderAmount'>,
  moment: MarketMoment,
): Decimal {
  return orderValueKrw({
    currency: instrument.currency,
    price: order.price,
    quantity: order.quantity,
    orderAmount: order.orderAmount,
    lastPrice: moment.lastPrice,
    usdKrw: moment.usdKrw,
  });
}

/**
 * The 422 rules of a new order or a modify's replacement, in the broker's order: hours,
 * suspension, prerequisite, NXT support, amount-order window, order type in the session, price
 * limits, maximum amount, the opposite side (not for a replacement), then buying power or the
 * sellable quantity.
 */
export function checkTradingRules(input: TradingRulesInput): BrokerVerdict {
  const { instrument, order, moment, account } = input;
  return firstRefusal(
    () => checkOrderHours(instrument, moment),
    () => checkNotSuspended(instrument, moment),
    () => checkPrerequisite(instrument),
    () => checkMarketSupported(instrument, moment),
    () =>
      isAmountOrFractional(order)
        ? checkAmountOrderWindow(
            order.orderAmount !== null ? 'orderAmount' : 'quantity',
            moment.usRegularHours,
            moment.at,
            moment.regularOpenAt,
          )
        : { accepted: true },
    () => checkOrderTypeInSession(order, moment, instrument.market),
    () => checkPriceLimits(order.price, moment.priceLimits),
    () => checkMaxAmount(workingOrderValueKrw(instrument, order, moment)),
    () =>
      input.replacing ? { accepted: true } : checkOppositePending(instrument, order.side, account.openOrders),
    () => checkFunds(instrument, order, moment, account),
  );
}

/**
 * The 400 checks of a new order once its symbol is known: shape, price grid, high-value
 * confirmation. Answers the price the broker works with.
 */
export function checkNewOrderRequest(kase: Omit<NewOrderCase, 'account'>): AcceptedRequest | BrokerRefusal {
  const request = checkOrderRequest(kase.instrument, kase.request);
  if (!request.accepted) return request;
  const value = workingOrderValueKrw(kase.instrument, { ...kase.request, price: request.price }, kase.moment);
  const highValue = checkHighValue(value, kase.request.confirmHighValueOrder);
  return highValue.accepted ? request : highValue;
}

/**
 * Every rule of a new order in the broker's order: the form (400), shape and price grid (400), the
 * high-value confirmation (400), then {@link checkTradingRules} (422).
 *
 * @example
 * ```ts
 * const verdict = admitOrder({ instrument, request, moment, account });
 * if (!verdict.accepted) console.log(verdict.status, verdict.code); // 422 price-out-of-range
 * ```
 */
export function admitOrder(kase: NewOrderCase): AcceptedRequest | BrokerRefusal {
  const form = checkOrderForm(kase.request);
  if (!form.accepted) return form;
  const request = checkNewOrderRequest(kase);
  if (!request.accepted) return request;
  const rules = checkTradingRules({
    instrument: kase.instrument,
    order: { ...kase.request, price: request.price },
    moment: kase.moment,
    account: kase.account,
    replacing: false,
  });
  return rules.accepted ? request : rules;
}

/** What a modify is judged on. */
export interface ModifyCase {
  readonly instrument: TradableInstrument;
  readonly order: TargetOrder;
  readonly request: ModifyRequest;
  readonly moment: MarketMoment;
  /** The account without the order being modified (its reservation given back). */
  readonly account: AccountView;
}

/**
 * The 400 and 409 checks of a modify, before it may be processed: the target still open (409), the
 * modify's fields (400), the replacement's shape (400: CLS stays LIMIT, a fraction stays MARKET),
 * the high-value confirmation (400), the order changeable (422 `modify-restricted`).
 */
export function checkModify(kase: Omit<ModifyCase, 'account'>): AcceptedModify | BrokerRefusal {
  const open = checkStillOpen(kase.order);
  if (!open.accepted) return open;
  const request = checkModifyRequest(kase.instrument, kase.order, kase.request);
  if (!request.accepted) return request;
  const shape = checkReplacementShape(kase.instrument, kase.order, kase.request, request);
  if (!shape.accepted) return shape;
  const value = workingOrderValueKrw(
    kase.instrument,
    { price: request.price, quantity: request.quantity, orderAmount: null },
    kase.moment,
  );
  const highValue = checkHighValue(value, kase.request.confirmHighValueOrder);
  if (!highValue.accepted) return highValue;
  const changeable = checkChangeable(kase.order, 'modify', kase.moment.at.toMillis());
  return changeable.accepted ? request : changeable;
}

/**
 * Every rule of a modify in the broker's order: {@link checkModify}, then {@link checkTradingRules}
 * on the replacement (same side and time in force, the new type, price and quantity; exempt from
 * the opposite-side rule).
 */
export function admitModify(kase: ModifyCase): AcceptedModify | BrokerRefusal {
  const modify = checkModify(kase);
  if (!modify.accepted) return modify;
  const rules = checkTradingRules({
    instrument: kase.instrument,
    order: {
      side: kase.order.side,
      orderType: kase.request.orderType,
      timeInForce: kase.order.timeInForce,
      price: modify.price,
      quantity: modify.quantity,
      orderAmount: null,
    },
    moment: kase.moment,
    account: kase.account,
    replacing: true,
  });
  return rules.accepted ? modify : rules;
}

/** What a cancel is judged on. */
export interface CancelCase {
  readonly instrument: TradableInstrument;
  readonly order: TargetOrder;
  readonly moment: MarketMoment;
}

/** Every rule of a cancel in the broker's order: still open (409), order hours (422), changeable (422). */
export function admitCancel(kase: CancelCase): BrokerVerdict {
  return firstRefusal(
    () => checkStillOpen(kase.order),
    () => checkOrderHours(kase.instrument, kase.moment),
    () => checkChangeable(kase.order, 'cancel', kase.moment.at.toMillis()),
  );
}

/**
 * The broker's own rules, run before the broker: each create, modify and cancel passes the broker
 * model's admission (`admitOrder`, `admitModify`, `admitCancel`) against the engine's view —
 * instrument flags, the session from the calendar, price limits and ticks, buying power and
 * sellable quantity net of open orders, the KR opposite side, the US amount window, the high-value
 * confirmation and the maximum amount. A refusal becomes a denial with the broker's code.
 *
 * @module
 */
import {
  type AccountView,
  admitCancel,
  admitModify,
  admitOrder,
  type MarketMoment,
  minOrderAmountRejection,
  type ReservingOrder,
  reservedCash,
  reservedShares,
  type TargetOrder,
} from '@hoga/broker-model';
import {
  type BrokerRefusal,
  type Currency,
  Decimal,
  judgeOrderIntent,
  MIN_ORDER_AMOUNT_USD,
  type TradableInstrument,
} from '@hoga/core';
import type { DateTime } from 'luxon';
import { intentFields } from './intent-fields.js';
import type { RiskOrder } from './risk-book.js';
import type { RiskVerdict } from './risk-gate.js';
import { ACCEPTED, deny, type OpenOrderView, type RiskSubject } from './risk-types.js';

const ZERO = new Decimal(0);

/** The market as the broker's rules need it, from the engine's caches. */
export interface MarketRulesView {
  /** The instrument with its trading flags, or undefined when not known (yet). */
  instrument(symbol: string): TradableInstrument | undefined;
  /** The market moment of an instrument at an instant, or undefined when data is missing. */
  moment(instrument: TradableInstrument, at: DateTime): MarketMoment | undefined;
  /**
   * What is missing when {@link MarketRulesView.moment} has no moment, if the view can say (e.g.
   * the broker has no calendar for the instant's date), for the denial's message.
   */
  missing?(instrument: TradableInstrument, at: DateTime): string | undefined;
}

/** Buying power and sellable quantity as the broker last told them, net of orders hoga sent since. */
export interface FundsView {
  cashBuyingPower(currency: Currency): Decimal | undefined;
  sellableQuantity(symbol: string): Decimal | undefined;
}

/** What {@link checkBrokerRules} reads besides the subject. */
export interface BrokerRulesInput {
  readonly market: MarketRulesView;
  readonly funds: FundsView;
  /** Every open order of the account the engine knows (live: those that are not the run's too). */
  readonly openOrders: readonly OpenOrderView[];
  /** The order a modify or cancel targets (open or closed), when known. */
  readonly target: RiskOrder | undefined;
  readonly at: DateTime;
}

/** A refusal of the broker's rules as the risk verdict (its code, message, data and HTTP status). */
export function fromRefusal(refusal: BrokerRefusal): RiskVerdict {
  return deny(refusal.code, refusal.message, { ...(refusal.data ?? {}), status: refusal.status });
}

/**
 * The KR opposite-side refusal, naming the strategy whose order it is when it is not the subject's:
 * the rule is the account's, and a strategy sees only its own orders (the broker's message names
 * an order id it could not look up).
 */
function oppositeOfWhom(
  refusal: BrokerRefusal,
  subject: RiskSubject,
  others: readonly { readonly orderId: string; readonly symbol: string; readonly side: string }[],
  input: BrokerRulesInput,
): RiskVerdict {
  // the order the rule found: the first open one of the other side on the symbol
  const found = others.find((o) => o.symbol === subject.symbol && o.side !== subject.side);
  const owner = input.openOrders.find((o) => o.clientOrderId === found?.orderId)?.strategyId;
  return fromRefusal(namingOppositeOwner(refusal, owner, subject.strategyId));
}

/**
 * An `opposite-pending-order-exists` refusal with whose the open order is (`…exists: ID, strategy
 * a's (…)`) when `owner` is known and not `subject`, the strategy refused; else as it is.
 */
export function namingOppositeOwner(
  refusal: BrokerRefusal,
  owner: string | undefined,
  subject: string | undefined,
): BrokerRefusal {
  if (owner === undefined || owner === subject) return refusal;
  return {
    ...refusal,
    message: `${refusal.message}, strategy ${owner}'s (the broker takes one side at a time on a KR stock, for the whole account)`,
  };
}

/**
 * `risk-amount-below-minimum`: a US amount order under the broker's least amount, which the broker
 * would take and then reject (the broker model's `minOrderAmountRejection`): denied before it is
 * sent, once the broker's other rules passed it (it is their refusal the broker would answer
 * first). Undefined when the subject is no such order.
 */
export function checkMinOrderAmount(subject: RiskSubject): RiskVerdict | undefined {
  if (subject.action !== 'create' || subject.amount === null) return undefined;
  const rejection = minOrderAmountRejection(subject.amount);
  if (rejection === null) return undefined;
  const minimum = MIN_ORDER_AMOUNT_USD.toFixed();
  return deny('risk-amount-below-minimum', `${rejection}. Give an amount of at least ${minimum} USD`, {
    field: 'amount',
    minimum,
    currency: 'USD',
    amount: subject.amount.toFixed(),
  });
}

/** A reservation view of an order (what it holds back of cash or shares). */
export function reservingOf(order: RiskOrder, reservePrice: Decimal): ReservingOrder {
  return {
    symbol: order.symbol,
    currency: order.currency,
    side: order.side,
    price: order.price,
    quantity: order.quantity,
    orderAmount: order.amount,
    filledQuantity: order.amount === null ? order.filledQuantity : ZERO,
    filledAmount: ZERO,
    reservePrice,
  };
}

function targetOf(order: RiskOrder, moment: MarketMoment): TargetOrder {
  const cls = order.timeInForce === 'CLS' && moment.usRegularHours !== null;
  return {
    orderId: order.clientOrderId,
    status: order.status,
    side: order.side,
    timeInForce: order.timeInForce,
    quantity: order.quantity ?? ZERO,
    filledQuantity: order.filledQuantity,
    orderAmount: order.amount,
    expiresAtMs: cls
      ? (moment.usRegularHours?.end.toMillis() ?? Number.MAX_SAFE_INTEGER)
      : Number.MAX_SAFE_INTEGER,
  };
}

/**
 * The broker's verdict on a subject, as the risk module's: accepted, or denied with the broker's
 * code. `risk-market-data-missing` when the view lacks what the rules need (never sent blind).
 */
export function checkBrokerRules(subject: RiskSubject, input: BrokerRulesInput): RiskVerdict {
  const instrument = input.market.instrument(subject.symbol);
  const moment = instrument === undefined ? undefined : input.market.moment(instrument, input.at);
  if (instrument === undefined || moment === undefined) {
    const detail = instrument === undefined ? undefined : input.market.missing?.(instrument, input.at);
    return deny(
      'risk-market-data-missing',
      detail ?? `hoga has no market data for ${subject.symbol} to check the order against`,
      {
        symbol: subject.symbol,
      },
    );
  }
  const others = input.openOrders
    .filter((o) => o.clientOrderId !== subject.clientOrderId)
    .map((o) => ({ orderId: o.clientOrderId, symbol: o.symbol, side: o.side }));
  const cash = input.funds.cashBuyingPower(instrument.currency);
  const sellable = input.funds.sellableQuantity(subject.symbol);
  if (
    subject.action !== 'cancel' &&
    (cash === undefined || (subject.side === 'SELL' && sellable === undefined))
  ) {
    return deny(
      'risk-account-data-missing',
      `hoga does not know the buying power or sellable quantity for ${subject.symbol}`,
      {
        symbol: subject.symbol,
      },
    );
  }
  const account: AccountView = {
    cashBuyingPower: cash ?? ZERO,
    sellableQuantity: sellable ?? ZERO,
    openOrders: others,
  };
  const command = subject.command;
  if (command.type === 'SubmitOrder') {
    const i = command.intent;
    const verdict = admitOrder({
      instrument,
      request: {
        side: i.side,
        orderType: i.orderType,
        ...intentFields(i),
        confirmHighValueOrder: i.confirmHighValue,
      },
      moment,
      account,
    });
    if (verdict.accepted) return ACCEPTED;
    if (verdict.code === 'opposite-pending-order-exists')
      return oppositeOfWhom(verdict, subject, others, input);
    // an amount the broker would refuse for its shape: in the intent's words (`amount`, what to do)
    // rather than the wire's (`orderAmount`), as a strategy's intent is told (hoga order --amount)
    const shaped = verdict.data?.field === 'orderAmount' ? judgeOrderIntent(i).refusal : null;
    return fromRefusal(shaped ?? verdict);
  }
  const target = input.target;
  if (target === undefined) {
    return deny('order-not-found', `No order ${command.clientOrderId} is known`, { status: 404 });
  }
  if (command.type === 'CancelOrder') {
    const verdict = admitCancel({ instrument, order: targetOf(target, moment), moment });
    return verdict.accepted ? ACCEPTED : fromRefusal(verdict);
  }
  // A modify's replacement is judged with the target's reservation given back.
  const held = reservingOf(target, target.price ?? moment.lastPrice);
  const verdict = admitModify({
    instrument,
    order: targetOf(target, moment),
    request: {
      orderType: command.orderType,
      price: command.price ?? null,
      quantity: command.quantity ?? null,
      confirmHighValueOrder: command.confirmHighValue,
    },
    moment,
    account: {
      cashBuyingPower: account.cashBuyingPower.plus(reservedCash(held)),
      sellableQuantity: account.sellableQuantity.plus(reservedShares(held)),
      openOrders: others,
    },
  });
  return verdict.accepted ? ACCEPTED : fromRefusal(verdict);
}

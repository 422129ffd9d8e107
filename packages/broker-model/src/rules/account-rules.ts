/**
 * The rules that look at the account: the maximum order amount, the KR opposite-side rule, and
 * buying power (buys) or sellable quantity (sells), both answered `insufficient-buying-power`.
 *
 * @module
 */
import {
  ACCEPTED,
  type BrokerVerdict,
  Decimal,
  MAX_ORDER_AMOUNT_KRW,
  type OrderSide,
  refuse,
  type TradableInstrument,
} from '@hoga/core';
import { type ReservingOrder, reservedCash, reservedShares } from '../economics/reservations.js';
import type { AccountView, MarketMoment, OpenOrderView } from './rule-inputs.js';

/** How far above the last price a US market buy reserves cash (the walk of the book may cost more than last). */
export const US_MARKET_BUY_BUFFER = new Decimal('1.05');

/** 422 `max-order-amount-exceeded` at 3,000,000,000 KRW or more, whatever the confirmation. */
export function checkMaxAmount(valueKrw: Decimal): BrokerVerdict {
  if (valueKrw.lt(MAX_ORDER_AMOUNT_KRW)) return ACCEPTED;
  return refuse(
    'max-order-amount-exceeded',
    `An order worth ${valueKrw.toFixed(0, Decimal.ROUND_UP)} KRW is at or over the maximum order amount of ${MAX_ORDER_AMOUNT_KRW.toFixed()} KRW`,
    { limits: { maxAmount: MAX_ORDER_AMOUNT_KRW.toFixed(), currency: 'KRW' } },
  );
}

/**
 * 422 `opposite-pending-order-exists` (KR only): an open order of the other side on the same stock,
 * whatever its price. Not applied to a modify's replacement.
 */
export function checkOppositePending(
  instrument: TradableInstrument,
  side: OrderSide,
  openOrders: readonly OpenOrderView[],
): BrokerVerdict {
  if (instrument.market !== 'KR') return ACCEPTED;
  const opposite = openOrders.find((o) => o.symbol === instrument.symbol && o.side !== side);
  if (opposite === undefined) return ACCEPTED;
  return refuse(
    'opposite-pending-order-exists',
    `An open ${opposite.side} order on ${instrument.symbol} exists: ${opposite.orderId}`,
  );
}

/** What the reserve price of a new order depends on. */
export interface ReserveInput {
  readonly side: OrderSide;
  readonly price: Decimal | null;
  readonly orderAmount: Decimal | null;
}

/**
 * The price a new order reserves at: limit orders at their price; sells and amount orders at the
 * last price; KR market buys at the upper price limit (as KR brokers do); US market buys 5% above
 * the last price, rounded up to the cent.
 */
export function reservePrice(
  instrument: Pick<TradableInstrument, 'market'>,
  order: ReserveInput,
  moment: Pick<MarketMoment, 'lastPrice' | 'priceLimits'>,
): Decimal {
  if (order.price !== null) return order.price;
  const last = moment.lastPrice;
  if (order.side === 'SELL' || order.orderAmount !== null) return last;
  if (instrument.market === 'KR') return moment.priceLimits?.upper ?? last;
  return last.times(US_MARKET_BUY_BUFFER).toDecimalPlaces(2, Decimal.ROUND_UP);
}

/** A new order as the funds check sees it. */
export interface FundedOrder extends ReserveInput {
  readonly quantity: Decimal | null;
}

/**
 * 422 `insufficient-buying-power` when a buy needs more cash than the buying power (its reservation:
 * amount at the reserve price plus commission, rounded up; `data = {currency, required,
 * cashBuyingPower}`), or a sell more shares than are sellable (`data = {field, sellableQuantity}`).
 */
export function checkFunds(
  instrument: Pick<TradableInstrument, 'symbol' | 'currency' | 'market'>,
  order: FundedOrder,
  moment: Pick<MarketMoment, 'lastPrice' | 'priceLimits'>,
  account: Pick<AccountView, 'cashBuyingPower' | 'sellableQuantity'>,
): BrokerVerdict {
  const probe: ReservingOrder = {
    symbol: instrument.symbol,
    currency: instrument.currency,
    side: order.side,
    price: order.price,
    quantity: order.quantity,
    orderAmount: order.orderAmount,
    filledQuantity: new Decimal(0),
    filledAmount: new Decimal(0),
    reservePrice: reservePrice(instrument, order, moment),
  };
  if (order.side === 'BUY') {
    const required = reservedCash(probe);
    if (required.lte(account.cashBuyingPower)) return ACCEPTED;
    return refuse(
      'insufficient-buying-power',
      `The order needs ${required.toFixed()} ${instrument.currency} with its commission, more than the cash buying power of ${account.cashBuyingPower.toFixed()} ${instrument.currency}`,
      {
        currency: instrument.currency,
        required: required.toFixed(),
        cashBuyingPower: account.cashBuyingPower.toFixed(),
      },
    );
  }
  const needed = reservedShares(probe);
  if (needed.lte(account.sellableQuantity)) return ACCEPTED;
  return refuse(
    'insufficient-buying-power',
    `Only ${account.sellableQuantity.toFixed()} ${instrument.symbol} can be sold`,
    {
      field: order.orderAmount !== null ? 'orderAmount' : 'quantity',
      sellableQuantity: account.sellableQuantity.toFixed(),
    },
  );
}

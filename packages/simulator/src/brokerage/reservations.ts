import { type Currency, Decimal } from '@hoga/core';
import type { MarketModel } from '../market/market-model.js';
import { invalidRequest, stockNotFound } from './brokerage-errors.js';
import { COMMISSION_RATES, cashPlaces, ceilCash } from './fees.js';
import type { Ledger } from './ledger.js';
import { isOpen, type SimOrder } from './order-types.js';

const SYMBOL_TEXT = /^[A-Za-z0-9.-]+$/;

/**
 * Cash an open buy order holds back: its unfilled quantity at its limit price
 * (market orders: at the reserve price fixed on creation; amount orders: the
 * unfilled amount), plus the commission on it, rounded up to the currency.
 */
export function reservedCash(order: SimOrder): Decimal {
  if (order.side !== 'BUY' || !isOpen(order) || order.kind !== 'ORDER') return new Decimal(0);
  const gross =
    order.orderAmount !== null
      ? Decimal.max(0, order.orderAmount.minus(order.filledAmount))
      : order.quantity.minus(order.filledQuantity).times(order.price ?? order.reservePrice);
  return ceilCash(order.currency, gross.times(COMMISSION_RATES[order.country].plus(1)));
}

/** Shares an open sell order holds back: its unfilled quantity (amount sells: estimated at the reserve price). */
export function reservedShares(order: SimOrder): Decimal {
  if (order.side !== 'SELL' || !isOpen(order) || order.kind !== 'ORDER') return new Decimal(0);
  if (order.orderAmount !== null) {
    return Decimal.max(0, order.orderAmount.minus(order.filledAmount))
      .dividedBy(order.reservePrice)
      .toDecimalPlaces(6, Decimal.ROUND_UP);
  }
  return order.quantity.minus(order.filledQuantity);
}

/** Cash buying power in a currency: cash minus what open buys hold back, never below 0. */
export function cashBuyingPower(ledger: Ledger, orders: readonly SimOrder[], currency: Currency): Decimal {
  const reserved = orders
    .filter((o) => o.currency === currency)
    .reduce((sum, o) => sum.plus(reservedCash(o)), new Decimal(0));
  return Decimal.max(0, ledger.cash(currency).minus(reserved)).toDecimalPlaces(
    cashPlaces(currency),
    Decimal.ROUND_DOWN,
  );
}

/** Sellable quantity of a symbol: the holding minus what open sells hold back, never below 0. */
export function sellableQuantity(ledger: Ledger, orders: readonly SimOrder[], symbol: string): Decimal {
  const reserved = orders
    .filter((o) => o.symbol === symbol)
    .reduce((sum, o) => sum.plus(reservedShares(o)), new Decimal(0));
  return Decimal.max(0, ledger.quantity(symbol).minus(reserved));
}

/** Payload of `GET /api/v1/buying-power?currency=KRW|USD`. */
export function buyingPowerPayload(
  ledger: Ledger,
  orders: readonly SimOrder[],
  query: URLSearchParams,
): unknown {
  const currency = query.get('currency');
  if (currency !== 'KRW' && currency !== 'USD') {
    throw invalidRequest('currency', 'currency must be KRW or USD', { allowedValues: ['KRW', 'USD'] });
  }
  return { currency, cashBuyingPower: cashBuyingPower(ledger, orders, currency).toFixed() };
}

/** Payload of `GET /api/v1/sellable-quantity?symbol=`. */
export function sellableQuantityPayload(
  market: MarketModel,
  ledger: Ledger,
  orders: readonly SimOrder[],
  query: URLSearchParams,
): unknown {
  const symbol = query.get('symbol');
  if (symbol === null || !SYMBOL_TEXT.test(symbol)) {
    throw invalidRequest('symbol', 'symbol is required: letters, digits, "." and "-"', {
      pattern: SYMBOL_TEXT.source,
    });
  }
  const instrument = market.instrument(symbol);
  if (!instrument) throw stockNotFound(symbol);
  return { sellableQuantity: sellableQuantity(ledger, orders, instrument.symbol).toFixed() };
}

import * as model from '@hoga/broker-model';
import type { Currency, Decimal } from '@hoga/core';
import type { MarketModel } from '../market/market-model.js';
import { invalidRequest, stockNotFound } from './brokerage-errors.js';
import type { Ledger } from './ledger.js';
import { isOpen, type SimOrder } from './order-types.js';

const SYMBOL_TEXT = /^[A-Za-z0-9.-]+$/;

/** The orders that hold anything back: open working orders (cancel records never do). */
function openOnly(orders: readonly SimOrder[]): SimOrder[] {
  return orders.filter((order) => isOpen(order) && order.kind === 'ORDER');
}

/** Cash buying power in a currency: the ledger's cash net of what the open orders among `orders` hold. */
function cashBuyingPower(ledger: Ledger, orders: readonly SimOrder[], currency: Currency): Decimal {
  return model.cashBuyingPower(ledger.cash(currency), openOnly(orders), currency);
}

/** Sellable quantity of a symbol: the holding net of what the open sells among `orders` hold. */
function sellableQuantity(ledger: Ledger, orders: readonly SimOrder[], symbol: string): Decimal {
  return model.sellableQuantity(ledger.quantity(symbol), openOnly(orders), symbol);
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

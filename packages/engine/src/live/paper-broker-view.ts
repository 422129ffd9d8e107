/**
 * What paper's risk gate judges the broker's rules against: the broker's market data (instrument
 * flags, calendars, price limits, last prices, the exchange rate, minute candles: reads only, never
 * an order request) and the paper account's own books for buying power and sellable quantity. With it, paper
 * refuses what the broker would (order hours, suspension, tick grid, price limits, the high-value
 * confirmation, the opposite side, funds) with the broker's codes.
 *
 * @module
 */
import type { Ledger } from '@hoga/broker-model';
import type { AccountInfoSource } from '../risk/account-info-provider.js';
import type { MarketInfoSource } from '../risk/market-info-source.js';
import type { PriorCloseSource } from '../risk/prior-closes.js';

/**
 * The broker's market reads and the paper ledger's funds, as the risk gate's broker.
 *
 * @param market - the broker (a `BrokerClient`): market data only
 * @param ledger - the paper account's books (its buying power and sellable quantity are net of the
 *   paper venue's open orders, as the broker's are of the real account's)
 */
export function paperBrokerView(
  market: MarketInfoSource & Partial<PriorCloseSource>,
  ledger: Ledger,
): MarketInfoSource & AccountInfoSource & Partial<PriorCloseSource> {
  const candles = market.getCandles;
  return {
    ...(candles === undefined
      ? {}
      : { getCandles: (symbol, query, options) => candles.call(market, symbol, query, options) }),
    // the read options carry the background refresh's POLL priority and stop signal
    getStocks: (symbols, options) => market.getStocks(symbols, options),
    getStockWarnings: (symbol, options) => market.getStockWarnings(symbol, options),
    getPrices: (symbols, options) => market.getPrices(symbols, options),
    getPriceLimits: (symbol, options) => market.getPriceLimits(symbol, options),
    getExchangeRate: () => market.getExchangeRate(),
    getKrMarketCalendar: (date) => market.getKrMarketCalendar(date),
    getUsMarketCalendar: (date) => market.getUsMarketCalendar(date),
    getBuyingPower: (currency) => Promise.resolve({ cashBuyingPower: ledger.buyingPower(currency) }),
    getSellableQuantity: (symbol) => Promise.resolve({ sellableQuantity: ledger.sellableQuantity(symbol) }),
  };
}

/**
 * What the market-calendar integration tests share: the simulator's client as a market view's
 * source, noting each calendar read.
 *
 * @module
 */
import type { BrokerClient } from '@hoga/connector';
import type { MarketInfoSource } from './market-info-source.js';

/** The simulator's client as a view's source, noting each calendar read (market and date asked). */
export function recording(client: BrokerClient): { source: MarketInfoSource; reads: string[] } {
  const reads: string[] = [];
  const source: MarketInfoSource = {
    getStocks: (symbols, options) => client.getStocks(symbols, options),
    getStockWarnings: (symbol, options) => client.getStockWarnings(symbol, options),
    getPrices: (symbols, options) => client.getPrices(symbols, options),
    getPriceLimits: (symbol, options) => client.getPriceLimits(symbol, options),
    getExchangeRate: () => client.getExchangeRate(),
    getKrMarketCalendar: (date) => {
      reads.push(`KR ${date}`);
      return client.getKrMarketCalendar(date);
    },
    getUsMarketCalendar: (date) => {
      reads.push(`US ${date}`);
      return client.getUsMarketCalendar(date);
    },
  };
  return { source, reads };
}

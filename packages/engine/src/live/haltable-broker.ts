/**
 * The risk gate's broker of a live or paper run, whose background reads a stopping run aborts.
 *
 * @module
 */
import type { AccountInfoSource } from '../risk/account-info-provider.js';
import type { MarketInfoSource, ReadOptions } from '../risk/market-info-source.js';
import type { PriorCloseSource } from '../risk/prior-closes.js';
import { withLinkedSignal } from './linked-signal.js';

/**
 * The risk gate's broker with its background reads (those queued with a signal: the refresh's)
 * aborted by `halt` too, so a stopping run leaves none waiting for a rate-limit token. An order's
 * own reads (no options) pass as they are.
 */
export function haltable(
  broker: MarketInfoSource & AccountInfoSource & Partial<PriorCloseSource>,
  halt: AbortSignal,
): MarketInfoSource & AccountInfoSource & Partial<PriorCloseSource> {
  // Not AbortSignal.any(): it keeps every composite reachable from the long-lived `halt` on Node 22
  // (see linked-signal.ts); these links are undone when each read settles.
  const read = <T>(
    options: ReadOptions | undefined,
    call: (options: ReadOptions | undefined) => Promise<T>,
  ) => {
    const own = options?.signal;
    if (own === undefined) return call(options);
    return withLinkedSignal([own, halt], (signal) => call({ ...options, signal }));
  };
  const candles = broker.getCandles;
  return {
    ...(candles === undefined
      ? {}
      : {
          getCandles: (symbol, query, options) =>
            read(options, (o) => candles.call(broker, symbol, query, o)),
        }),
    getStocks: (symbols, options) => read(options, (o) => broker.getStocks(symbols, o)),
    getStockWarnings: (symbol, options) => read(options, (o) => broker.getStockWarnings(symbol, o)),
    getPrices: (symbols, options) => read(options, (o) => broker.getPrices(symbols, o)),
    getPriceLimits: (symbol, options) => read(options, (o) => broker.getPriceLimits(symbol, o)),
    getExchangeRate: () => broker.getExchangeRate(),
    getKrMarketCalendar: (date) => broker.getKrMarketCalendar(date),
    getUsMarketCalendar: (date) => broker.getUsMarketCalendar(date),
    getBuyingPower: (currency, options) => read(options, (o) => broker.getBuyingPower(currency, o)),
    getSellableQuantity: (symbol, options) => read(options, (o) => broker.getSellableQuantity(symbol, o)),
  };
}

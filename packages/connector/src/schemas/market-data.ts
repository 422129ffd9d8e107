/**
 * Schemas and domain types of the Market Data endpoints: orderbook, prices, trades, price limits
 * and candles.
 *
 * @module
 */
import { z } from 'zod';
import { currency, dateTime, decimal, nullableDateTime, nullableDecimal, withRaw } from './primitives.js';

const bookLevel = z.object({ price: decimal, volume: decimal });

/** One orderbook level. */
export type BookLevel = z.output<typeof bookLevel>;

/**
 * `GET /orderbook` result. The wire order of asks is not consistent (spec), so asks are sorted
 * lowest price first and bids highest price first.
 */
export const OrderbookSchema = withRaw(
  z
    .object({ timestamp: dateTime, currency, asks: z.array(bookLevel), bids: z.array(bookLevel) })
    .transform((book) => ({
      ...book,
      asks: [...book.asks].sort((a, b) => a.price.comparedTo(b.price)),
      bids: [...book.bids].sort((a, b) => b.price.comparedTo(a.price)),
    })),
);
/** An orderbook snapshot: asks lowest first, bids highest first. */
export type Orderbook = z.output<typeof OrderbookSchema>;

/** One element of the `GET /prices` result. */
export const PriceSchema = withRaw(
  z.object({ symbol: z.string(), timestamp: dateTime, lastPrice: decimal, currency }),
);
/** The last price of a symbol. */
export type Price = z.output<typeof PriceSchema>;

/** One element of the `GET /trades` result (newest first on the wire). */
export const TradeSchema = withRaw(
  z.object({ price: decimal, volume: decimal, timestamp: dateTime, currency }),
);
/** One trade. */
export type Trade = z.output<typeof TradeSchema>;

/** `GET /price-limits` result; both limits are null where none exist (US). */
export const PriceLimitSchema = withRaw(
  z.object({
    timestamp: dateTime,
    upperLimitPrice: nullableDecimal,
    lowerLimitPrice: nullableDecimal,
    currency,
  }),
);
/** Daily price limits. */
export type PriceLimit = z.output<typeof PriceLimitSchema>;

/** One candle; `timestamp` is the end of a 1m candle or KST midnight of the trading day for 1d. */
export const CandleSchema = withRaw(
  z.object({
    timestamp: dateTime,
    openPrice: decimal,
    highPrice: decimal,
    lowPrice: decimal,
    closePrice: decimal,
    volume: decimal,
    currency,
  }),
);
/** One candle. */
export type Candle = z.output<typeof CandleSchema>;

/** `GET /candles` result: candles newest first, `nextBefore` null on the last page. */
export const CandlePageSchema = withRaw(
  z.object({ candles: z.array(CandleSchema), nextBefore: nullableDateTime }),
);
/** One page of candles. */
export type CandlePage = z.output<typeof CandlePageSchema>;

/** Candle intervals offered by the broker. */
export const CandleInterval = { ONE_MINUTE: '1m', ONE_DAY: '1d' } as const;
/** `1m` or `1d`. */
export type CandleInterval = (typeof CandleInterval)[keyof typeof CandleInterval];

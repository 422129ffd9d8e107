/**
 * Schemas and domain types of the Stock Info and Market Info endpoints: stock reference data,
 * purchase warnings, the display exchange rate and the two market calendars.
 *
 * @module
 */
import { z } from 'zod';
import {
  currency,
  date,
  dateTime,
  decimal,
  nullableDate,
  nullableDecimal,
  openEnum,
  withRaw,
} from './primitives.js';

const koreanMarketDetail = z.object({
  liquidationTrading: z.boolean(),
  nxtSupported: z.boolean(),
  krxTradingSuspended: z.boolean(),
  nxtTradingSuspended: z.boolean().nullable(),
});

/** One element of the `GET /stocks` result. */
export const StockInfoSchema = withRaw(
  z.object({
    symbol: z.string(),
    name: z.string(),
    englishName: z.string(),
    isinCode: z.string(),
    market: openEnum(['KOSPI', 'KOSDAQ', 'NYSE', 'NASDAQ', 'AMEX', 'KR_ETC', 'US_ETC'] as const),
    securityType: openEnum(['STOCK', 'ETF', 'ETN'] as const),
    isCommonShare: z.boolean(),
    status: openEnum(['SCHEDULED', 'ACTIVE', 'DELISTED'] as const),
    currency,
    listDate: nullableDate,
    delistDate: nullableDate,
    sharesOutstanding: decimal,
    leverageFactor: nullableDecimal,
    koreanMarketDetail: koreanMarketDetail.nullable(),
  }),
);
/** Stock reference data. */
export type StockInfo = z.output<typeof StockInfoSchema>;

/** One element of the `GET /stocks/{symbol}/warnings` result. */
export const StockWarningSchema = withRaw(
  z.object({
    warningType: openEnum([
      'LIQUIDATION_TRADING',
      'OVERHEATED',
      'INVESTMENT_WARNING',
      'INVESTMENT_RISK',
      'VI_STATIC',
      'VI_DYNAMIC',
      'VI_STATIC_AND_DYNAMIC',
      'STOCK_WARRANTS',
    ] as const),
    exchange: z.string(),
    startDate: date,
    endDate: nullableDate,
  }),
);
/** A purchase warning; `endDate` null means still in force. */
export type StockWarning = z.output<typeof StockWarningSchema>;

/** `GET /exchange-rate` result. */
export const ExchangeRateSchema = withRaw(
  z.object({
    baseCurrency: currency,
    quoteCurrency: currency,
    rate: decimal,
    midRate: decimal,
    basisPoint: decimal,
    rateChangeType: openEnum(['UP', 'EQUAL', 'DOWN'] as const),
    validFrom: dateTime,
    validUntil: dateTime,
  }),
);
/** The display exchange rate valid from `validFrom` to `validUntil`. */
export type ExchangeRate = z.output<typeof ExchangeRateSchema>;

const optionalTime = z.union([z.null(), dateTime]).optional();

/** A session `{startTime, endTime}` with the optional auction times, or null when closed. */
const session = z
  .object({
    startTime: dateTime,
    endTime: dateTime,
    singlePriceAuctionStartTime: optionalTime,
    singlePriceAuctionEndTime: optionalTime,
  })
  .transform(({ startTime, endTime, singlePriceAuctionStartTime, singlePriceAuctionEndTime }) => ({
    startTime,
    endTime,
    ...(singlePriceAuctionStartTime ? { singlePriceAuctionStartTime } : {}),
    ...(singlePriceAuctionEndTime ? { singlePriceAuctionEndTime } : {}),
  }))
  .nullable();
/** One trading session in KST; auction times only where the broker sends them. */
export type MarketSession = z.output<typeof session>;

const nullableSession = session.optional().transform((s) => s ?? null);

const krDay = z.object({
  date,
  integrated: z
    .object({ preMarket: nullableSession, regularMarket: nullableSession, afterMarket: nullableSession })
    .nullable(),
});

/** `GET /market-calendar/KR` result (integrated mode). */
export const KrMarketCalendarSchema = withRaw(
  z.object({ previousBusinessDay: krDay, today: krDay, nextBusinessDay: krDay }),
);
/** The KR calendar around a date; `integrated` is null on a non-trading day. */
export type KrMarketCalendarResult = z.output<typeof KrMarketCalendarSchema>;

const usDay = z.object({
  date,
  dayMarket: nullableSession,
  preMarket: nullableSession,
  regularMarket: nullableSession,
  afterMarket: nullableSession,
});

/** `GET /market-calendar/US` result. */
export const UsMarketCalendarSchema = withRaw(
  z.object({ previousBusinessDay: usDay, today: usDay, nextBusinessDay: usDay }),
);
/** The US calendar around a date (times in KST); all four sessions null on a closed day. */
export type UsMarketCalendarResult = z.output<typeof UsMarketCalendarSchema>;

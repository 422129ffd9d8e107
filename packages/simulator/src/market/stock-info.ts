/**
 * Reference data payloads: `StockInfo` and the active purchase warnings.
 *
 * @module
 */
import type { InstrumentSpec, WarningSpec } from './universe.js';

/**
 * The reference's enumeration of `StockInfo.market`; every listed instrument uses one of these
 * (the connector still tolerates others).
 */
export const STOCK_MARKETS = ['KOSPI', 'KOSDAQ', 'NYSE', 'NASDAQ', 'AMEX', 'KR_ETC', 'US_ETC'] as const;
/** One of {@link STOCK_MARKETS}. */
export type StockMarket = (typeof STOCK_MARKETS)[number];

/** `koreanMarketDetail` of a KR stock. */
export interface KoreanMarketDetailJson {
  readonly liquidationTrading: boolean;
  readonly nxtSupported: boolean;
  readonly krxTradingSuspended: boolean;
  readonly nxtTradingSuspended: boolean | null;
}

/** One `StockInfo`. */
export interface StockInfoJson {
  readonly symbol: string;
  readonly name: string;
  readonly englishName: string;
  readonly isinCode: string;
  /** One of {@link STOCK_MARKETS}. */
  readonly market: string;
  readonly securityType: string;
  readonly isCommonShare: boolean;
  readonly status: string;
  readonly currency: string;
  readonly listDate: string;
  readonly delistDate: string | null;
  readonly sharesOutstanding: string;
  readonly leverageFactor: string | null;
  readonly koreanMarketDetail: KoreanMarketDetailJson | null;
}

/** The `StockInfo` of an instrument. */
export function stockInfo(spec: InstrumentSpec): StockInfoJson {
  return {
    symbol: spec.symbol,
    name: spec.name,
    englishName: spec.englishName,
    isinCode: spec.isinCode,
    market: spec.exchange,
    securityType: spec.securityType,
    isCommonShare: spec.isCommonShare,
    status: 'ACTIVE',
    currency: spec.currency,
    listDate: spec.listDate,
    delistDate: null,
    sharesOutstanding: spec.sharesOutstanding,
    leverageFactor: spec.leverageFactor,
    koreanMarketDetail:
      spec.country === 'KR'
        ? {
            liquidationTrading: spec.warnings.some((w) => w.warningType === 'LIQUIDATION_TRADING'),
            nxtSupported: spec.nxtSupported,
            krxTradingSuspended: spec.suspended,
            nxtTradingSuspended: spec.nxtSupported ? spec.suspended : null,
          }
        : null,
  };
}

/**
 * The warnings active on `today` (`startDate <= today <= endDate`, or `endDate` null), newest
 * `startDate` first.
 */
export function activeWarnings(spec: InstrumentSpec, today: string): WarningSpec[] {
  return spec.warnings
    .filter((w) => w.startDate <= today && (w.endDate === null || today <= w.endDate))
    .sort((a, b) => (a.startDate < b.startDate ? 1 : a.startDate > b.startDate ? -1 : 0))
    .map((w) => ({ ...w }));
}

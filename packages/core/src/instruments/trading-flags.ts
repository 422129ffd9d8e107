/**
 * What the broker's reference data says about whether and where an instrument trades: the flags
 * the order rules read (suspension, the alternative exchange, the prerequisite) and the active
 * purchase warnings.
 *
 * @module
 */
import type { Instrument } from './instrument.js';

/** The purchase-warning kinds the broker lists (`StockWarning.warningType`); others are kept as strings. */
export const StockWarningType = {
  LIQUIDATION_TRADING: 'LIQUIDATION_TRADING',
  OVERHEATED: 'OVERHEATED',
  INVESTMENT_WARNING: 'INVESTMENT_WARNING',
  INVESTMENT_RISK: 'INVESTMENT_RISK',
  VI_STATIC: 'VI_STATIC',
  VI_DYNAMIC: 'VI_DYNAMIC',
  VI_STATIC_AND_DYNAMIC: 'VI_STATIC_AND_DYNAMIC',
  STOCK_WARRANTS: 'STOCK_WARRANTS',
} as const;
/** One of {@link StockWarningType}, or an unknown kind the broker sent. */
export type StockWarningType = (typeof StockWarningType)[keyof typeof StockWarningType] | (string & {});

/** The trading flags of an instrument. */
export interface TradingFlags {
  /** KR: also traded on the alternative exchange (NXT), so in its pre- and after-market. US: false. */
  readonly nxtSupported: boolean;
  /** KR: trading suspended on the main exchange (KRX). US: false. */
  readonly krxSuspended: boolean;
  /** KR: trading suspended on NXT; null when NXT does not trade the stock. US: null. */
  readonly nxtSuspended: boolean | null;
  /** Orders need a completed prerequisite (risk notice, suitability), e.g. US leveraged or inverse ETFs. */
  readonly prerequisiteRequired: boolean;
  /** KR: trades after the close (after-hours single price) even without NXT. */
  readonly afterMarketEligible: boolean;
  /** The purchase warnings in force. */
  readonly warnings: readonly StockWarningType[];
}

/** An instrument with its trading flags: what the broker's order rules look at. */
export interface TradableInstrument extends Instrument {
  readonly flags: TradingFlags;
}

/** Flags of an instrument nothing is known against: not suspended, no NXT, no prerequisite. */
export const PLAIN_TRADING_FLAGS: TradingFlags = Object.freeze({
  nxtSupported: false,
  krxSuspended: false,
  nxtSuspended: null,
  prerequisiteRequired: false,
  afterMarketEligible: false,
  warnings: Object.freeze([]) as readonly StockWarningType[],
});

/** The `koreanMarketDetail` of a `StockInfo`, as the wire carries it. */
export interface KoreanMarketDetailFields {
  readonly nxtSupported: boolean;
  readonly krxTradingSuspended: boolean;
  readonly nxtTradingSuspended: boolean | null;
}

/**
 * Trading flags from the broker's reference data: the `koreanMarketDetail` of `StockInfo` (null for
 * US stocks), the active warnings, and what the broker's data does not carry (the prerequisite,
 * after-market eligibility), which the caller knows from elsewhere.
 *
 * @param detail - `StockInfo.koreanMarketDetail`
 * @param extra - prerequisite, after-market eligibility and warnings (defaults: false, false, none)
 */
export function tradingFlagsOf(
  detail: KoreanMarketDetailFields | null,
  extra: Partial<Pick<TradingFlags, 'prerequisiteRequired' | 'afterMarketEligible' | 'warnings'>> = {},
): TradingFlags {
  return {
    nxtSupported: detail?.nxtSupported ?? false,
    krxSuspended: detail?.krxTradingSuspended ?? false,
    nxtSuspended: detail?.nxtTradingSuspended ?? null,
    prerequisiteRequired: extra.prerequisiteRequired ?? false,
    afterMarketEligible: extra.afterMarketEligible ?? false,
    warnings: extra.warnings ?? [],
  };
}

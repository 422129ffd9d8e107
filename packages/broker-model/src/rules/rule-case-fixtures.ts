/**
 * The instruments, moments and accounts the rule-case rows are built from. The values match the
 * simulator's listing and (within wide margins) its seed-7 market, so the rows run over HTTP too.
 *
 * @module
 */
import { PLAIN_TRADING_FLAGS, SessionName, type TradingFlags } from '@hoga/core';
import type {
  RuleCaseAccount,
  RuleCaseInstrument,
  RuleCaseMoment,
  RuleCaseOpenOrder,
} from './rule-case-types.js';

const flags = (overrides: Partial<TradingFlags>): TradingFlags => ({ ...PLAIN_TRADING_FLAGS, ...overrides });

/** Samsung Electronics: KR stock, traded on NXT too. */
export const SAMSUNG: RuleCaseInstrument = {
  symbol: '005930',
  market: 'KR',
  currency: 'KRW',
  securityType: 'STOCK',
  flags: flags({ nxtSupported: true, nxtSuspended: false, afterMarketEligible: true }),
};
/** KODEX 200: KR ETF (5-won grid), not traded on NXT. */
export const KODEX200: RuleCaseInstrument = {
  symbol: '069500',
  market: 'KR',
  currency: 'KRW',
  securityType: 'ETF',
  flags: flags({ afterMarketEligible: true }),
};
/** A KR stock suspended on the main exchange (not on NXT). */
export const SUSPENDED_KR: RuleCaseInstrument = {
  symbol: '900110',
  market: 'KR',
  currency: 'KRW',
  securityType: 'STOCK',
  flags: flags({ krxSuspended: true }),
};
/** Apple: US stock. */
export const APPLE: RuleCaseInstrument = {
  symbol: 'AAPL',
  market: 'US',
  currency: 'USD',
  securityType: 'STOCK',
  flags: PLAIN_TRADING_FLAGS,
};
/** A 3x leveraged US ETF: needs the prerequisite. */
export const SOXL: RuleCaseInstrument = {
  symbol: 'SOXL',
  market: 'US',
  currency: 'USD',
  securityType: 'ETF',
  flags: flags({ prerequisiteRequired: true }),
};

/** Monday 2026-11-23 10:00 KST: KR regular session. */
export const KR_REGULAR = '2026-11-23T10:00:00+09:00';
/** Monday 2026-11-23 08:30 KST: KR pre-market (NXT); the US market is closed. */
export const KR_PRE = '2026-11-23T08:30:00+09:00';
/** Saturday 2026-11-28 10:00 KST: no session. */
export const SATURDAY = '2026-11-28T10:00:00+09:00';
/** 2026-11-24 01:00 KST: US regular session (11:00 New York). */
export const US_REGULAR = '2026-11-24T01:00:00+09:00';
/** 2026-11-24 05:30 KST: the last hour of the US regular session. */
export const US_LAST_HOUR = '2026-11-24T05:30:00+09:00';
/** 2026-11-24 05:55 KST: five minutes before the US close. */
export const US_CLOSE_FREEZE = '2026-11-24T05:55:00+09:00';
/** 2026-11-23 19:00 KST: US pre-market (05:00 New York). */
export const US_PRE = '2026-11-23T19:00:00+09:00';
/** 2026-11-23 12:00 KST: the US day market (KST daytime). */
export const US_DAY = '2026-11-23T12:00:00+09:00';
/** 2026-11-23 17:45 KST: the last minutes of the US day market. */
export const US_DAY_END = '2026-11-23T17:45:00+09:00';
/** 2026-11-23 17:55 KST: the gap between the US day market and the pre-market. */
export const US_GAP = '2026-11-23T17:55:00+09:00';

/** The US regular session of trading day 2026-11-23 (09:30–16:00 New York). */
const US_HOURS = { start: '2026-11-23T23:30:00+09:00', end: '2026-11-24T06:00:00+09:00' } as const;
const USD_KRW = '1370';

/** Samsung at a KR instant (last 65,800, reference 65,400: limits 45,800–85,000). */
export function samsungAt(at: string, session: SessionName | null): RuleCaseMoment {
  return { at, session, lastPrice: '65800', referencePrice: '65400', usdKrw: USD_KRW, usRegularHours: null };
}

/** KODEX 200 at a KR instant (last 35,015, reference 34,815). */
export function kodexAt(at: string, session: SessionName | null): RuleCaseMoment {
  return { at, session, lastPrice: '35015', referencePrice: '34815', usdKrw: USD_KRW, usRegularHours: null };
}

/** The suspended stock at a KR instant (frozen at 86). */
export function suspendedAt(at: string, session: SessionName | null): RuleCaseMoment {
  return { at, session, lastPrice: '86', referencePrice: '86', usdKrw: USD_KRW, usRegularHours: null };
}

/** A US instrument at an instant of trading day 2026-11-23. */
export function usAt(at: string, session: SessionName | null, lastPrice = '226'): RuleCaseMoment {
  const regular = at >= US_HOURS.start && at < US_HOURS.end ? US_HOURS : null;
  return { at, session, lastPrice, referencePrice: null, usdKrw: USD_KRW, usRegularHours: regular };
}

/** Session names, re-exported for the rows. */
export const S = SessionName;

/** An account: 50,000,000 KRW and 20,000 USD, 100 Samsung and 10 Apple, unless told otherwise. */
export function account(
  openOrders: readonly RuleCaseOpenOrder[] = [],
  overrides: Partial<Omit<RuleCaseAccount, 'openOrders'>> = {},
): RuleCaseAccount {
  return {
    cash: overrides.cash ?? { KRW: '50000000', USD: '20000' },
    holdings: overrides.holdings ?? { '005930': '100', AAPL: '10' },
    openOrders,
  };
}

/** A limit order resting on the book (or, when marketable, filled at once). */
export function resting(
  symbol: string,
  side: 'BUY' | 'SELL',
  quantity: string,
  price: string,
  timeInForce: 'DAY' | 'CLS' = 'DAY',
): RuleCaseOpenOrder {
  return { symbol, side, orderType: 'LIMIT', quantity, price, timeInForce };
}

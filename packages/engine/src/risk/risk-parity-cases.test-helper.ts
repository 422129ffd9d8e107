/**
 * The risk module's own rows of the parity table: buying power and sellable quantity net of open
 * orders on the simulator's default account 1 (₩50,000,000 and $20,000; 100 Samsung, 10 Apple,
 * 5.5 NVIDIA), which the broker model's rows (written for other cash levels) cannot all use.
 */
import type { RuleCase, RuleCaseAccount, RuleCaseInstrument, RuleCaseMoment } from '@hoga/broker-model';
import { PLAIN_TRADING_FLAGS, SessionName } from '@hoga/core';

const SAMSUNG: RuleCaseInstrument = {
  symbol: '005930',
  market: 'KR',
  currency: 'KRW',
  securityType: 'STOCK',
  flags: { ...PLAIN_TRADING_FLAGS, nxtSupported: true, nxtSuspended: false },
};
const APPLE: RuleCaseInstrument = {
  symbol: 'AAPL',
  market: 'US',
  currency: 'USD',
  securityType: 'STOCK',
  flags: PLAIN_TRADING_FLAGS,
};
const NVIDIA: RuleCaseInstrument = { ...APPLE, symbol: 'NVDA' };

const KR_OPEN: RuleCaseMoment = {
  at: '2026-11-23T10:00:00+09:00',
  session: SessionName.REGULAR_MARKET,
  lastPrice: '65800',
  referencePrice: '65400',
  usdKrw: '1370',
  usRegularHours: null,
};
const US_OPEN: RuleCaseMoment = {
  at: '2026-11-24T01:00:00+09:00',
  session: SessionName.REGULAR_MARKET,
  lastPrice: '226',
  referencePrice: null,
  usdKrw: '1370',
  usRegularHours: { start: '2026-11-23T23:30:00+09:00', end: '2026-11-24T06:00:00+09:00' },
};

const DEFAULT_ACCOUNT: RuleCaseAccount = {
  cash: { KRW: '50000000', USD: '20000' },
  holdings: { '005930': '100', AAPL: '10', NVDA: '5.5' },
  openOrders: [],
};
const withOpen = (...openOrders: RuleCaseAccount['openOrders']): RuleCaseAccount => ({
  ...DEFAULT_ACCOUNT,
  openOrders,
});

/** The risk module's rows (ids P01…). */
// biome-ignore format: one row per line keeps the table readable
export const OWN_PARITY_CASES: readonly RuleCase[] = [
  { id: 'P01', rule: 'insufficient-buying-power', description: 'a KR buy of 54M KRW with 50M cash', instrument: SAMSUNG, account: DEFAULT_ACCOUNT, moment: KR_OPEN, action: { kind: 'create', order: { symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '900', price: '60000' } }, expected: 'insufficient-buying-power' },
  { id: 'P02', rule: 'insufficient-buying-power', description: 'a KR buy of 48M KRW plus commission with 50M cash', instrument: SAMSUNG, account: DEFAULT_ACCOUNT, moment: KR_OPEN, action: { kind: 'create', order: { symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '800', price: '60000' } }, expected: 'accepted' },
  { id: 'P03', rule: 'insufficient-buying-power', description: 'a KR buy that fits the cash but not what an open buy of 30M leaves', instrument: SAMSUNG, account: withOpen({ symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '500', price: '60000' }), moment: KR_OPEN, action: { kind: 'create', order: { symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '400', price: '60000' } }, expected: 'insufficient-buying-power' },
  { id: 'P04', rule: 'insufficient-buying-power', description: 'a KR sell of 101 shares with 100 held', instrument: SAMSUNG, account: DEFAULT_ACCOUNT, moment: KR_OPEN, action: { kind: 'create', order: { symbol: '005930', side: 'SELL', orderType: 'LIMIT', quantity: '101', price: '80000' } }, expected: 'insufficient-buying-power' },
  { id: 'P05', rule: 'insufficient-buying-power', description: 'a KR sell of 41 while an open sell holds 60 of 100', instrument: SAMSUNG, account: withOpen({ symbol: '005930', side: 'SELL', orderType: 'LIMIT', quantity: '60', price: '80000' }), moment: KR_OPEN, action: { kind: 'create', order: { symbol: '005930', side: 'SELL', orderType: 'LIMIT', quantity: '41', price: '80000' } }, expected: 'insufficient-buying-power' },
  { id: 'P06', rule: 'insufficient-buying-power', description: 'a KR sell of 40 while an open sell holds 60 of 100', instrument: SAMSUNG, account: withOpen({ symbol: '005930', side: 'SELL', orderType: 'LIMIT', quantity: '60', price: '80000' }), moment: KR_OPEN, action: { kind: 'create', order: { symbol: '005930', side: 'SELL', orderType: 'LIMIT', quantity: '40', price: '80000' } }, expected: 'accepted' },
  { id: 'P07', rule: 'insufficient-buying-power', description: 'a $19,000 amount buy with $20,000 (commission included)', instrument: APPLE, account: DEFAULT_ACCOUNT, moment: US_OPEN, action: { kind: 'create', order: { symbol: 'AAPL', side: 'BUY', orderType: 'MARKET', orderAmount: '19000' } }, expected: 'accepted' },
  { id: 'P08', rule: 'insufficient-buying-power', description: 'a $20,000 amount buy with $20,000 (the commission does not fit; no automatic FX)', instrument: APPLE, account: DEFAULT_ACCOUNT, moment: US_OPEN, action: { kind: 'create', order: { symbol: 'AAPL', side: 'BUY', orderType: 'MARKET', orderAmount: '20000' } }, expected: 'insufficient-buying-power' },
  { id: 'P09', rule: 'fractional-quantity', description: 'a fractional market sell of 0.5 NVIDIA of 5.5 held', instrument: NVIDIA, account: DEFAULT_ACCOUNT, moment: US_OPEN, action: { kind: 'create', order: { symbol: 'NVDA', side: 'SELL', orderType: 'MARKET', quantity: '0.5' } }, expected: 'accepted' },
  { id: 'P10', rule: 'insufficient-buying-power', description: 'a fractional market sell of 5.6 NVIDIA of 5.5 held', instrument: NVIDIA, account: DEFAULT_ACCOUNT, moment: US_OPEN, action: { kind: 'create', order: { symbol: 'NVDA', side: 'SELL', orderType: 'MARKET', quantity: '5.6' } }, expected: 'insufficient-buying-power' },
  { id: 'P11', rule: 'modify', description: 'a KR modify of an open sell to a new price', instrument: SAMSUNG, account: withOpen({ symbol: '005930', side: 'SELL', orderType: 'LIMIT', quantity: '10', price: '80000' }), moment: KR_OPEN, action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'LIMIT', price: '79000', quantity: '10' } }, expected: 'accepted' },
  { id: 'P12', rule: 'confirm-high-value-required', description: 'a confirmed 40M KRW modify of a buy is not asked for confirmation', instrument: SAMSUNG, account: withOpen({ symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '600', price: '60000' }), moment: KR_OPEN, action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'LIMIT', price: '61000', quantity: '600' } }, expected: 'accepted' },
];

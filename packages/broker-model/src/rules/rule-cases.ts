/**
 * THE table of broker rule cases: each row an order (or a modify or cancel), an account, a market
 * moment and the verdict the broker gives. The broker model's unit tests run every row through
 * `admitOrder`/`admitModify`/`admitCancel` (rule-case-runner.ts), the simulator's HTTP test sends
 * every row to a running simulator, and the engine's risk tests can run them through the risk gate.
 * docs/broker-rules.md lists, per rule, the rows that test it.
 *
 * @module
 */
import {
  APPLE,
  account,
  KODEX200,
  KR_PRE,
  KR_REGULAR,
  kodexAt,
  resting,
  S,
  SAMSUNG,
  SATURDAY,
  SOXL,
  SUSPENDED_KR,
  samsungAt,
  suspendedAt,
  US_CLOSE_FREEZE,
  US_DAY,
  US_DAY_END,
  US_GAP,
  US_LAST_HOUR,
  US_PRE,
  US_REGULAR,
  usAt,
} from './rule-case-fixtures.js';
import type { RuleCase, RuleCaseOrder } from './rule-case-types.js';

const krOpen = samsungAt(KR_REGULAR, S.REGULAR_MARKET);
const usOpen = usAt(US_REGULAR, S.REGULAR_MARKET);
const create = (order: RuleCaseOrder) => ({ kind: 'create', order }) as const;
const buy = (symbol: string, quantity: string, price?: string): RuleCaseOrder =>
  price === undefined
    ? { symbol, side: 'BUY', orderType: 'MARKET', quantity }
    : { symbol, side: 'BUY', orderType: 'LIMIT', quantity, price };
const sell = (symbol: string, quantity: string, price?: string): RuleCaseOrder => ({
  ...buy(symbol, quantity, price),
  side: 'SELL',
});

/** Every row; ids are stable (R01…), the docs refer to them. */
// biome-ignore format: one row per line keeps the table readable
export const BROKER_RULE_CASES: readonly RuleCase[] = [
  // ── Order shape (400 invalid-request) ──
  { id: 'R01', rule: 'fractional-quantity', description: 'a KR fractional quantity', instrument: SAMSUNG, account: account(), moment: krOpen, action: create(buy('005930', '1.5', '60000')), expected: 'invalid-request' },
  { id: 'R02', rule: 'fractional-quantity', description: 'a US fractional market buy (fractional buys use orderAmount)', instrument: APPLE, account: account(), moment: usOpen, action: create(buy('AAPL', '0.5')), expected: 'invalid-request' },
  { id: 'R03', rule: 'fractional-quantity', description: 'a US fractional market sell of 0.5', instrument: APPLE, account: account(), moment: usOpen, action: create(sell('AAPL', '0.5')), expected: 'accepted' },
  { id: 'R04', rule: 'fractional-quantity', description: 'a US fractional market sell with 7 decimals', instrument: APPLE, account: account(), moment: usOpen, action: create(sell('AAPL', '0.1234567')), expected: 'invalid-request' },
  { id: 'R05', rule: 'cls-us-limit-only', description: 'CLS on a KR limit', instrument: SAMSUNG, account: account(), moment: krOpen, action: create({ ...buy('005930', '1', '60000'), timeInForce: 'CLS' }), expected: 'invalid-request' },
  { id: 'R06', rule: 'cls-us-limit-only', description: 'CLS on a US market order', instrument: APPLE, account: account(), moment: usOpen, action: create({ ...sell('AAPL', '1'), timeInForce: 'CLS' }), expected: 'invalid-request' },
  { id: 'R07', rule: 'amount-us-market-only', description: 'orderAmount on a KR stock', instrument: SAMSUNG, account: account(), moment: krOpen, action: create({ symbol: '005930', side: 'BUY', orderType: 'MARKET', orderAmount: '100000' }), expected: 'invalid-request' },
  { id: 'R08', rule: 'amount-us-market-only', description: 'orderAmount on a US limit', instrument: APPLE, account: account(), moment: usOpen, action: create({ symbol: 'AAPL', side: 'BUY', orderType: 'LIMIT', orderAmount: '100', price: '220' }), expected: 'invalid-request' },
  { id: 'R09', rule: 'amount-us-market-only', description: 'orderAmount with 3 decimals', instrument: APPLE, account: account(), moment: usOpen, action: create({ symbol: 'AAPL', side: 'BUY', orderType: 'MARKET', orderAmount: '100.005' }), expected: 'invalid-request' },
  { id: 'R10', rule: 'price-presence', description: 'a LIMIT without price', instrument: SAMSUNG, account: account(), moment: krOpen, action: create({ symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '1' }), expected: 'invalid-request' },
  { id: 'R11', rule: 'price-presence', description: 'a MARKET with a price', instrument: SAMSUNG, account: account(), moment: krOpen, action: create({ ...buy('005930', '1', '60000'), orderType: 'MARKET' }), expected: 'invalid-request' },
  { id: 'R12', rule: 'kr-tick-grid', description: 'a KR price off the 100-won grid', instrument: SAMSUNG, account: account(), moment: krOpen, action: create(buy('005930', '1', '60050')), expected: 'invalid-request' },
  { id: 'R13', rule: 'kr-tick-grid', description: 'a KR ETF price off the 5-won grid', instrument: KODEX200, account: account(), moment: kodexAt(KR_REGULAR, S.REGULAR_MARKET), action: create(buy('069500', '1', '34002')), expected: 'invalid-request' },
  { id: 'R14', rule: 'us-price-grid', description: 'a US price with extra decimals is truncated, not refused', instrument: APPLE, account: account(), moment: usOpen, action: create(buy('AAPL', '1', '220.129')), expected: 'accepted' },
  // ── High-value confirmation (400) ──
  { id: 'R15', rule: 'confirm-high-value-required', description: '2,000 × 60,000 KRW = 120M without confirmation', instrument: SAMSUNG, account: account([], { cash: { KRW: '200000000', USD: '0' } }), moment: krOpen, action: create(buy('005930', '2000', '60000')), expected: 'confirm-high-value-required' },
  { id: 'R16', rule: 'confirm-high-value-required', description: 'the same order confirmed', instrument: SAMSUNG, account: account([], { cash: { KRW: '200000000', USD: '0' } }), moment: krOpen, action: create({ ...buy('005930', '2000', '60000'), confirmHighValueOrder: true }), expected: 'accepted' },
  { id: 'R17', rule: 'confirm-high-value-required', description: 'a US amount order of $80,000 (≈ 109M KRW at the display rate)', instrument: APPLE, account: account([], { cash: { KRW: '0', USD: '100000' } }), moment: usOpen, action: create({ symbol: 'AAPL', side: 'BUY', orderType: 'MARKET', orderAmount: '80000' }), expected: 'confirm-high-value-required' },
  // ── Hours (422 order-hours-closed) ──
  { id: 'R18', rule: 'order-hours-closed', description: 'a KR order on a Saturday', instrument: SAMSUNG, account: account(), moment: samsungAt(SATURDAY, null), action: create(buy('005930', '1', '60000')), expected: 'order-hours-closed' },
  { id: 'R19', rule: 'order-hours-closed', description: 'a US order while every US session is closed (08:30 KST)', instrument: APPLE, account: account(), moment: usAt(KR_PRE, null), action: create(buy('AAPL', '1', '220')), expected: 'order-hours-closed' },
  { id: 'R20', rule: 'order-hours', description: 'a US limit in the day market (KST daytime)', instrument: APPLE, account: account(), moment: usAt(US_DAY, S.DAY_MARKET), action: create(buy('AAPL', '1', '220')), expected: 'accepted' },
  // ── Instrument flags ──
  { id: 'R21', rule: 'stock-restricted', description: 'a stock suspended on the main exchange', instrument: SUSPENDED_KR, account: account(), moment: suspendedAt(KR_REGULAR, S.REGULAR_MARKET), action: create(buy('900110', '1')), expected: 'stock-restricted' },
  { id: 'R22', rule: 'prerequisite-required', description: 'a leveraged ETF without the prerequisite', instrument: SOXL, account: account(), moment: usAt(US_REGULAR, S.REGULAR_MARKET, '27'), action: create(buy('SOXL', '1', '25')), expected: 'prerequisite-required' },
  { id: 'R23', rule: 'market-not-supported-for-stock', description: 'a stock NXT does not trade, in the pre-market', instrument: KODEX200, account: account(), moment: kodexAt(KR_PRE, S.PRE_MARKET), action: create(buy('069500', '1', '34000')), expected: 'market-not-supported-for-stock' },
  { id: 'R24', rule: 'market-not-supported-for-stock', description: 'an NXT stock in the pre-market', instrument: SAMSUNG, account: account(), moment: samsungAt(KR_PRE, S.PRE_MARKET), action: create(buy('005930', '1', '60000')), expected: 'accepted' },
  // ── Order types in the session (422 order-type-not-allowed) ──
  { id: 'R25', rule: 'order-type-not-allowed', description: 'a KR MARKET order in the pre-market', instrument: SAMSUNG, account: account(), moment: samsungAt(KR_PRE, S.PRE_MARKET), action: create(buy('005930', '1')), expected: 'order-type-not-allowed' },
  { id: 'R26', rule: 'order-type-not-allowed', description: 'a US MARKET order in the pre-market', instrument: APPLE, account: account(), moment: usAt(US_PRE, S.PRE_MARKET), action: create(buy('AAPL', '1')), expected: 'order-type-not-allowed' },
  { id: 'R27', rule: 'order-type-not-allowed', description: 'a US CLS limit in the pre-market', instrument: APPLE, account: account(), moment: usAt(US_PRE, S.PRE_MARKET), action: create({ ...sell('AAPL', '1', '250'), timeInForce: 'CLS' }), expected: 'order-type-not-allowed' },
  { id: 'R28', rule: 'order-type-not-allowed', description: 'a US CLS limit in the regular session', instrument: APPLE, account: account(), moment: usOpen, action: create({ ...sell('AAPL', '1', '250'), timeInForce: 'CLS' }), expected: 'accepted' },
  // ── Amount and fractional orders: US regular start until one hour before the end ──
  { id: 'R29', rule: 'amount-order-outside-regular-hours', description: 'a $100 amount buy in the regular session', instrument: APPLE, account: account(), moment: usOpen, action: create({ symbol: 'AAPL', side: 'BUY', orderType: 'MARKET', orderAmount: '100' }), expected: 'accepted' },
  { id: 'R30', rule: 'amount-order-outside-regular-hours', description: 'a $100 amount buy in the last hour', instrument: APPLE, account: account(), moment: usAt(US_LAST_HOUR, S.REGULAR_MARKET), action: create({ symbol: 'AAPL', side: 'BUY', orderType: 'MARKET', orderAmount: '100' }), expected: 'amount-order-outside-regular-hours' },
  { id: 'R31', rule: 'amount-order-outside-regular-hours', description: 'a fractional sell in the pre-market (the window is checked before the order type)', instrument: APPLE, account: account(), moment: usAt(US_PRE, S.PRE_MARKET), action: create(sell('AAPL', '0.5')), expected: 'amount-order-outside-regular-hours' },
  // ── Price limits (KR ±30%) ──
  { id: 'R32', rule: 'price-out-of-range', description: 'a KR limit above the upper limit (85,000)', instrument: SAMSUNG, account: account(), moment: krOpen, action: create(buy('005930', '1', '90000')), expected: 'price-out-of-range' },
  { id: 'R33', rule: 'price-out-of-range', description: 'a KR limit below the lower limit (45,800)', instrument: SAMSUNG, account: account(), moment: krOpen, action: create(buy('005930', '1', '45000')), expected: 'price-out-of-range' },
  { id: 'R34', rule: 'price-out-of-range', description: 'a KR limit at the upper limit exactly', instrument: SAMSUNG, account: account(), moment: krOpen, action: create(buy('005930', '1', '85000')), expected: 'accepted' },
  // ── Maximum amount ──
  { id: 'R35', rule: 'max-order-amount-exceeded', description: '40,000 × 80,000 KRW = 3.2B, confirmed (before buying power)', instrument: SAMSUNG, account: account(), moment: krOpen, action: create({ ...buy('005930', '40000', '80000'), confirmHighValueOrder: true }), expected: 'max-order-amount-exceeded' },
  // ── Opposite side (KR only) ──
  { id: 'R36', rule: 'opposite-pending-order-exists', description: 'a KR sell while a buy of the same stock is open, prices apart', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '1', '60000')]), moment: krOpen, action: create(sell('005930', '1', '70000')), expected: 'opposite-pending-order-exists' },
  { id: 'R37', rule: 'opposite-pending-order-exists', description: 'a US sell while a buy of the same stock is open', instrument: APPLE, account: account([resting('AAPL', 'BUY', '1', '200')]), moment: usOpen, action: create(sell('AAPL', '1', '250')), expected: 'accepted' },
  // ── Buying power and sellable quantity (422 insufficient-buying-power) ──
  { id: 'R38', rule: 'insufficient-buying-power', description: 'a KR buy beyond the cash', instrument: SAMSUNG, account: account([], { cash: { KRW: '1000000', USD: '0' } }), moment: krOpen, action: create(buy('005930', '20', '60000')), expected: 'insufficient-buying-power' },
  { id: 'R39', rule: 'insufficient-buying-power', description: 'a KR buy within the cash but not within what an open buy leaves', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '10', '60000')], { cash: { KRW: '1000000', USD: '0' } }), moment: krOpen, action: create(buy('005930', '7', '60000')), expected: 'insufficient-buying-power' },
  { id: 'R40', rule: 'insufficient-buying-power', description: 'a KR buy within what an open buy leaves', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '10', '60000')], { cash: { KRW: '1000000', USD: '0' } }), moment: krOpen, action: create(buy('005930', '6', '60000')), expected: 'accepted' },
  { id: 'R41', rule: 'insufficient-buying-power', description: 'a KR market buy reserves at the upper limit (12 × 85,000 > 1M, though 12 × last fits)', instrument: SAMSUNG, account: account([], { cash: { KRW: '1000000', USD: '0' } }), moment: krOpen, action: create(buy('005930', '12')), expected: 'insufficient-buying-power' },
  { id: 'R42', rule: 'insufficient-buying-power', description: 'a KR sell beyond what an open sell leaves of the holding', instrument: SAMSUNG, account: account([resting('005930', 'SELL', '8', '70000')], { holdings: { '005930': '10' } }), moment: krOpen, action: create(sell('005930', '5', '70000')), expected: 'insufficient-buying-power' },
  { id: 'R43', rule: 'insufficient-buying-power', description: 'a US buy beyond the USD cash, KRW plenty (no automatic exchange)', instrument: APPLE, account: account([], { cash: { KRW: '50000000', USD: '20000' } }), moment: usOpen, action: create(buy('AAPL', '100', '220')), expected: 'insufficient-buying-power' },
  // ── The order of the checks ──
  { id: 'R44', rule: 'order: 400 before 422', description: 'an off-grid price on a Saturday answers the 400', instrument: SAMSUNG, account: account(), moment: samsungAt(SATURDAY, null), action: create(buy('005930', '1', '60050')), expected: 'invalid-request' },
  { id: 'R45', rule: 'order: 400 before 422', description: 'an unconfirmed high-value order on a Saturday answers the 400', instrument: SAMSUNG, account: account(), moment: samsungAt(SATURDAY, null), action: create(buy('005930', '2000', '60000')), expected: 'confirm-high-value-required' },
  { id: 'R46', rule: 'order: hours first', description: 'a suspended stock on a Saturday answers order-hours-closed', instrument: SUSPENDED_KR, account: account(), moment: suspendedAt(SATURDAY, null), action: create(buy('900110', '1')), expected: 'order-hours-closed' },
  { id: 'R47', rule: 'order: business rules before buying power', description: 'a suspended stock with no cash answers stock-restricted', instrument: SUSPENDED_KR, account: account([], { cash: { KRW: '0', USD: '0' } }), moment: suspendedAt(KR_REGULAR, S.REGULAR_MARKET), action: create(buy('900110', '1')), expected: 'stock-restricted' },
  { id: 'R48', rule: 'order: business rules before buying power', description: 'a price above the limit with no cash answers price-out-of-range', instrument: SAMSUNG, account: account([], { cash: { KRW: '0', USD: '0' } }), moment: krOpen, action: create(buy('005930', '1', '90000')), expected: 'price-out-of-range' },
  // ── Modify and cancel ──
  { id: 'R49', rule: 'cancel', description: 'a cancel of an open order', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '1', '60000')]), moment: krOpen, action: { kind: 'cancel', targetStatus: 'PENDING' }, expected: 'accepted' },
  { id: 'R50', rule: 'modify', description: 'a KR modify of price and quantity', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '2', '60000')]), moment: krOpen, action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'LIMIT', price: '61000', quantity: '1' } }, expected: 'accepted' },
  { id: 'R51', rule: 'already-filled', description: 'a cancel of a filled order', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '1', '70000')]), moment: krOpen, action: { kind: 'cancel', targetStatus: 'FILLED' }, expected: 'already-filled' },
  { id: 'R52', rule: 'already-canceled', description: 'a second cancel', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '1', '60000')]), moment: krOpen, action: { kind: 'cancel', targetStatus: 'CANCELED' }, expected: 'already-canceled' },
  { id: 'R53', rule: 'already-canceled', description: 'a modify of a cancelled order', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '1', '60000')]), moment: krOpen, action: { kind: 'modify', targetStatus: 'CANCELED', request: { orderType: 'LIMIT', price: '61000', quantity: '1' } }, expected: 'already-canceled' },
  { id: 'R54', rule: 'already-modified', description: 'a second modify of the original', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '1', '60000')]), moment: krOpen, action: { kind: 'modify', targetStatus: 'REPLACED', request: { orderType: 'LIMIT', price: '61000', quantity: '1' } }, expected: 'already-modified' },
  { id: 'R55', rule: 'us-modify-quantity-not-supported', description: 'a US modify with a quantity', instrument: APPLE, account: account([resting('AAPL', 'BUY', '1', '200')]), moment: usOpen, action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'LIMIT', price: '201', quantity: '1' } }, expected: 'us-modify-quantity-not-supported' },
  { id: 'R56', rule: 'modify', description: 'a US modify of the price only', instrument: APPLE, account: account([resting('AAPL', 'BUY', '1', '200')]), moment: usOpen, action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'LIMIT', price: '201' } }, expected: 'accepted' },
  { id: 'R57', rule: 'modify-quantity', description: 'a KR modify above the unfilled quantity', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '1', '60000')]), moment: krOpen, action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'LIMIT', price: '60000', quantity: '2' } }, expected: 'invalid-request' },
  { id: 'R58', rule: 'price-out-of-range', description: 'a KR modify to a price above the upper limit', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '1', '60000')]), moment: krOpen, action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'LIMIT', price: '90000', quantity: '1' } }, expected: 'price-out-of-range' },
  { id: 'R59', rule: 'confirm-high-value-required', description: 'a KR modify to 2,000 × 51,000 (102M) without confirmation', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '2000', '50000')], { cash: { KRW: '200000000', USD: '0' } }), moment: krOpen, action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'LIMIT', price: '51000', quantity: '2000' } }, expected: 'confirm-high-value-required' },
  { id: 'R60', rule: 'insufficient-buying-power', description: 'a KR modify needing more than the cash, its own reservation given back', instrument: SAMSUNG, account: account([resting('005930', 'BUY', '10', '60000')], { cash: { KRW: '700000', USD: '0' } }), moment: krOpen, action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'LIMIT', price: '70000', quantity: '10' } }, expected: 'insufficient-buying-power' },
  { id: 'R61', rule: 'cancel-restricted', description: 'a cancel of a CLS order 5 minutes before the close', instrument: APPLE, account: account([resting('AAPL', 'SELL', '1', '250', 'CLS')]), moment: usAt(US_CLOSE_FREEZE, S.REGULAR_MARKET), action: { kind: 'cancel', targetStatus: 'PENDING' }, expected: 'cancel-restricted' },
  { id: 'R62', rule: 'modify-restricted', description: 'a modify of a CLS order 5 minutes before the close', instrument: APPLE, account: account([resting('AAPL', 'SELL', '1', '250', 'CLS')]), moment: usAt(US_CLOSE_FREEZE, S.REGULAR_MARKET), action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'LIMIT', price: '251' } }, expected: 'modify-restricted' },
  { id: 'R65', rule: 'modify-keeps-order-shape', description: 'a modify of a US CLS limit to MARKET (CLS is for limit orders only)', instrument: APPLE, account: account([resting('AAPL', 'SELL', '1', '250', 'CLS')]), moment: usOpen, action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'MARKET' } }, expected: 'invalid-request' },
  { id: 'R63', rule: 'order-hours-closed', description: 'a cancel between the US day market and the pre-market', instrument: APPLE, account: account([resting('AAPL', 'BUY', '1', '200')]), moment: usAt(US_GAP, null), setupAt: US_DAY_END, action: { kind: 'cancel', targetStatus: 'PENDING' }, expected: 'order-hours-closed' },
  { id: 'R64', rule: 'order-hours-closed', description: 'a modify between the US day market and the pre-market', instrument: APPLE, account: account([resting('AAPL', 'BUY', '1', '200')]), moment: usAt(US_GAP, null), setupAt: US_DAY_END, action: { kind: 'modify', targetStatus: 'PENDING', request: { orderType: 'LIMIT', price: '201' } }, expected: 'order-hours-closed' },
];

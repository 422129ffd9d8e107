/**
 * `@hoga/broker-model`: the broker's rules as pure verdicts, its economics (fees, tax, cash
 * rounding, settlement, buying power), a ledger and fill models, shared by the simulator, the
 * engine's risk module, paper trading and backtests.
 *
 * @packageDocumentation
 */

export {
  CALENDAR_RANGE,
  type HolidayPredicate,
  isUsEarlyClose,
  KRX_HOLIDAYS,
  KRX_SPECIAL_HOURS,
  type KrxSpecialHours,
  knownHolidays,
  krxSpecialHours,
  NO_HOLIDAYS,
  NYSE_EARLY_CLOSES,
  NYSE_HOLIDAYS,
} from './calendar/exchange-holidays.js';
export {
  dayNumber,
  daySessions,
  isoDate,
  isSessionDay,
  type KrSessions,
  krRegularHours,
  krSessions,
  kstDay,
  kstMs,
  localDay,
  type NamedSpan,
  nyMs,
  orderSessionAt,
  type SessionSpan,
  type UsSessions,
  usRegularSessionAt,
  usSessions,
  usTradingDay,
} from './calendar/session-hours.js';
export {
  AVERAGE_FILL_PRICE_PLACES,
  AVERAGE_PURCHASE_PRICE_PLACES,
  averageFillPrice,
  averagePurchasePrice,
} from './economics/average-price.js';
export { CASH_PLACES, cashPlaces, ceilCash, floorCash, roundCash } from './economics/cash.js';
export {
  COMMISSION_RATES,
  commissionFor,
  commissionRateFor,
  KR_COMMISSION_PERIOD,
  KR_SELL_TAX_RATE,
  marketOfCurrency,
  sellTaxFor,
  type TradeCharges,
  type TradeChargesInput,
  tradeCharges,
} from './economics/fees.js';
export {
  type HoldingValue,
  type HoldingValueInput,
  REPORT_RATE_PLACES,
  reportRate,
  valueHolding,
} from './economics/holding-value.js';
export { type OrderValueInput, orderValueKrw } from './economics/order-value.js';
export {
  buyReservation,
  cashBuyingPower,
  type ReservingOrder,
  reservedCash,
  reservedShares,
  SHARE_PLACES,
  sellableQuantity,
  totalReservedCash,
  totalReservedShares,
} from './economics/reservations.js';
export {
  addBusinessDays,
  dayOrderExpiry,
  isBusinessDay,
  SETTLEMENT_LAG_DAYS,
  settlementDate,
  tradingDate,
} from './economics/settlement.js';
export {
  BarFillModel,
  type BarFillModelOptions,
  DEFAULT_VOLUME_FRACTION,
} from './fills/bar-fill-model.js';
export {
  type BookFillLimits,
  BookFillModel,
  type BookFillSlice,
  type BookLevel,
  fillableQuantity,
  isFillComplete,
  isMarketable,
  type MatchProgress,
  type OrderBook,
  progressAfter,
  SHARE_UNIT,
} from './fills/book-fill-model.js';
export type { BookLiquiditySnapshot } from './fills/book-liquidity.js';
export { BookMatcher } from './fills/book-matcher.js';
export type { FillableOrder, FillModel, FillSlice } from './fills/fill-model.js';
export {
  type Holding,
  Ledger,
  type LedgerEntry,
  type LedgerFill,
  type LedgerSnapshot,
  type Reservation,
} from './ledger/ledger.js';
export { LedgerError, LedgerErrorCode } from './ledger/ledger-error.js';
// The broker's rules as verdicts (docs/broker-rules.md)
export {
  checkFunds,
  checkMaxAmount,
  checkOppositePending,
  type FundedOrder,
  type ReserveInput,
  reservePrice,
  US_MARKET_BUY_BUFFER,
} from './rules/account-rules.js';
export {
  admitCancel,
  admitModify,
  admitOrder,
  type CancelCase,
  checkModify,
  checkNewOrderRequest,
  checkTradingRules,
  type ModifyCase,
  type TradingRulesInput,
  type WorkingOrder,
  workingOrderValueKrw,
} from './rules/admission.js';
export {
  type AcceptedModify,
  checkChangeable,
  checkModifyRequest,
  checkReplacementShape,
  checkStillOpen,
} from './rules/change-rules.js';
export {
  checkHighValue,
  checkLimitPrice,
  checkOrderRequest,
  minOrderAmountRejection,
  type UsPriceTruncation,
  usPriceTruncation,
} from './rules/order-request.js';
export { checkPriceLimits, krPriceLimits, krPriceLimitsOfNumber } from './rules/price-limits.js';
export {
  ruleCaseAccount,
  ruleCaseInstrument,
  ruleCaseMoment,
  ruleCaseTarget,
  ruleCaseVerdict,
} from './rules/rule-case-runner.js';
export type {
  RuleCase,
  RuleCaseAccount,
  RuleCaseAction,
  RuleCaseInstrument,
  RuleCaseMoment,
  RuleCaseOpenOrder,
  RuleCaseOrder,
  RuleCaseTargetStatus,
} from './rules/rule-case-types.js';
/** The broker's rule-case table, shared by the model's, the simulator's and the risk module's tests. */
export { BROKER_RULE_CASES } from './rules/rule-cases.js';
export type {
  AcceptedRequest,
  AccountView,
  MarketMoment,
  ModifyRequest,
  NewOrderCase,
  OpenOrderView,
  OrderRequest,
  PriceLimits,
  RequestVerdict,
  SessionHours,
  TargetOrder,
} from './rules/rule-inputs.js';
export {
  checkAmountOrderWindow,
  checkMarketSupported,
  checkNotSuspended,
  checkOrderHours,
  checkOrderTypeInSession,
  checkPrerequisite,
  describeOpening,
  isAmountOrFractional,
  nextOrderOpen,
} from './rules/session-rules.js';

/**
 * The broker's numeric order limits: one home for each figure the rules compare against.
 *
 * @module
 */
import { Decimal } from '../decimal/decimal.js';

/**
 * Order value (in KRW; US orders converted at the display rate) from which the broker requires
 * `confirmHighValueOrder=true` on create and modify: 100 million KRW.
 */
export const HIGH_VALUE_ORDER_KRW: Decimal = new Decimal('100000000');

/** Order value (KRW) from which an order is refused whatever the flag (422 `max-order-amount-exceeded`). */
export const MAX_ORDER_AMOUNT_KRW: Decimal = new Decimal('3000000000');

/** Most decimal places of a fractional US market-sell quantity. */
export const MAX_FRACTIONAL_DECIMALS = 6;

/** Most decimal places of a US `orderAmount` (cents). */
export const MAX_ORDER_AMOUNT_DECIMALS = 2;

/**
 * The least US `orderAmount`: an amount order below it is taken and then ends `REJECTED` at the
 * broker (the reference's behaviour; no create error names it).
 */
export const MIN_ORDER_AMOUNT_USD: Decimal = new Decimal(1);

/** Amount and fractional orders close this long before the US regular session ends. */
export const AMOUNT_ORDER_CUTOFF_MS = 60 * 60 * 1000;

/** Close orders (`CLS`) can no longer be modified or cancelled this long before the close. */
export const CLOSE_ORDER_FREEZE_MS = 10 * 60 * 1000;

/** KR daily price limits: this fraction above and below the reference price (±30%). */
export const KR_PRICE_LIMIT_RATE: Decimal = new Decimal('0.3');

/**
 * Order sides, types, time-in-force and sizing.
 *
 * @module
 */

/** Buy or sell. */
export const OrderSide = { BUY: 'BUY', SELL: 'SELL' } as const;
/** `BUY` or `SELL`. */
export type OrderSide = (typeof OrderSide)[keyof typeof OrderSide];

/** Limit (with a price) or market (without). */
export const OrderType = { LIMIT: 'LIMIT', MARKET: 'MARKET' } as const;
/** `LIMIT` or `MARKET`. */
export type OrderType = (typeof OrderType)[keyof typeof OrderType];

/**
 * Time in force. `DAY` is the default; `CLS` is a US limit order at the close; `OPG` appears on
 * order records only (it cannot be chosen when creating an order).
 */
export const TimeInForce = { DAY: 'DAY', CLS: 'CLS', OPG: 'OPG' } as const;
/** `DAY`, `CLS` or `OPG`. */
export type TimeInForce = (typeof TimeInForce)[keyof typeof TimeInForce];

/** How an order is sized: by share quantity or by cash amount (US market orders only). */
export const OrderSizing = { QUANTITY: 'QUANTITY', AMOUNT: 'AMOUNT' } as const;
/** `QUANTITY` or `AMOUNT`. */
export type OrderSizing = (typeof OrderSizing)[keyof typeof OrderSizing];

/**
 * Whether a value is an {@link OrderSide}.
 *
 * @param value - any value
 */
export function isOrderSide(value: unknown): value is OrderSide {
  return value === OrderSide.BUY || value === OrderSide.SELL;
}

/**
 * Whether a value is an {@link OrderType}.
 *
 * @param value - any value
 */
export function isOrderType(value: unknown): value is OrderType {
  return value === OrderType.LIMIT || value === OrderType.MARKET;
}

/**
 * Whether a value is a {@link TimeInForce}.
 *
 * @param value - any value
 */
export function isTimeInForce(value: unknown): value is TimeInForce {
  return value === TimeInForce.DAY || value === TimeInForce.CLS || value === TimeInForce.OPG;
}

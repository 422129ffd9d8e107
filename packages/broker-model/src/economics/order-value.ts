/**
 * The KRW value of an order, the figure the broker's maximum-amount and high-value rules compare.
 *
 * @module
 */
import { type Currency, Decimal, timesExact } from '@hoga/core';

const ZERO = new Decimal(0);

/** What valuing an order looks at. */
export interface OrderValueInput {
  /** The order's currency (its instrument's). */
  readonly currency: Currency;
  /** The limit price; null for market orders (valued at `lastPrice`). */
  readonly price: Decimal | null;
  /** The ordered quantity; null for amount orders. */
  readonly quantity: Decimal | null;
  /** The ordered amount in the order's currency (amount orders); null otherwise. */
  readonly orderAmount: Decimal | null;
  /** The instrument's last price, which values a market order. */
  readonly lastPrice: Decimal;
  /** KRW per USD at the display rate (used only for USD orders). */
  readonly usdKrw: Decimal;
}

/**
 * Order value in KRW: the amount of an amount order, else quantity × (limit price, or the last
 * price for a market order); USD converted at the display rate. Not rounded.
 *
 * @example
 * ```ts
 * orderValueKrw({ currency: 'USD', price: null, quantity: new Decimal(2), orderAmount: null,
 *   lastPrice: new Decimal('150'), usdKrw: new Decimal('1400') }); // 420000
 * ```
 */
export function orderValueKrw(input: OrderValueInput): Decimal {
  const native = input.orderAmount ?? timesExact(input.quantity ?? ZERO, input.price ?? input.lastPrice);
  return input.currency === 'USD' ? timesExact(native, input.usdKrw) : native;
}

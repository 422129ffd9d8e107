/**
 * The cash a live run's open buy orders hold back at the broker, as the store has them: the part of
 * the broker's cash buying power that the run's own open orders take. The live `ctx.account` adds
 * what these held when it last read the broker and takes off what they hold now, so that a resting
 * buy's fill is not taken twice from a buying power that already held its cash back (the broker
 * model's rule, {@link reservedCash}: the unfilled quantity at the limit price plus the commission
 * on it; an amount order its unfilled amount). Market orders by quantity hold cash at a price the
 * engine does not know (KR: the day's upper limit) and are left out: they seldom rest.
 *
 * @module
 */
import { reservedCash } from '@hoga/broker-model';
import { type Currency, Decimal, ORDER_STATES, TERMINAL_ORDER_STATES } from '@hoga/core';
import type { HogaDatabase, OrderRecord } from '@hoga/store';

const ZERO = new Decimal(0);
const OPEN = ORDER_STATES.filter((s) => !TERMINAL_ORDER_STATES.has(s));

/** Cash held back per currency (KRW and USD, 0 when none). */
export type CashByCurrency = Readonly<Record<Currency, Decimal>>;

/**
 * The cash the live open buy orders of `strategies` (and those of no strategy: manual and adopted
 * orders, whose events the run reports too) hold back, per currency.
 *
 * @param db - the run's store
 * @param strategies - the run's strategy ids
 */
export function openOrdersReservedCash(db: HogaDatabase, strategies: ReadonlySet<string>): CashByCurrency {
  const held: Record<Currency, Decimal> = { KRW: ZERO, USD: ZERO };
  for (const order of db.orders.list({ mode: 'live', state: OPEN })) {
    if (order.side !== 'BUY') continue;
    if (order.strategyId !== null && !strategies.has(order.strategyId)) continue;
    held[order.currency] = held[order.currency].plus(heldBack(order));
  }
  return held;
}

/** What one open buy holds back (0 for a market order by quantity). */
function heldBack(order: OrderRecord): Decimal {
  if (order.amount === null && order.price === null) return ZERO;
  const filledAmount =
    order.averageFillPrice === null ? ZERO : order.filledQuantity.times(order.averageFillPrice);
  return reservedCash({
    symbol: order.symbol,
    currency: order.currency,
    side: order.side,
    price: order.price,
    quantity: order.quantity,
    orderAmount: order.amount,
    filledQuantity: order.filledQuantity,
    filledAmount,
    reservePrice: order.price ?? ZERO,
  });
}

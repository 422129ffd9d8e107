/**
 * Conversion of core's order intent into the record the store keeps.
 *
 * @module
 */
import type { OrderIntent, OrderState } from '@hoga/core';
import type { TradingMode } from '../trading-mode.js';
import type { NewOrder } from './order-record.js';

/** Context of {@link orderFromIntent}. */
export interface IntentContext {
  /** Mode of the session placing the order. */
  readonly mode: TradingMode;
  /** When the intent was made (epoch ms, from the engine's clock). */
  readonly createdAt: number;
  /** Initial state; `INITIALIZED` when omitted. */
  readonly state?: OrderState | undefined;
}

/**
 * The store record of an order intent, ready for {@link OrderRepository.recordIntent}.
 *
 * @example
 * ```ts
 * db.orders.recordIntent(orderFromIntent(intent, { mode: 'live', createdAt: clock.nowMs(), state: 'SUBMITTED' }));
 * ```
 */
export function orderFromIntent(intent: OrderIntent, context: IntentContext): NewOrder {
  const common = {
    clientOrderId: intent.clientOrderId,
    strategyId: intent.strategyId ?? null,
    mode: context.mode,
    symbol: intent.instrument.symbol,
    market: intent.instrument.market,
    currency: intent.instrument.currency,
    side: intent.side,
    orderType: intent.orderType,
    state: context.state,
    createdAt: context.createdAt,
  };
  if (intent.sizing === 'AMOUNT') {
    return { ...common, timeInForce: 'DAY', price: null, quantity: null, amount: intent.amount };
  }
  return {
    ...common,
    timeInForce: intent.timeInForce,
    price: intent.orderType === 'LIMIT' ? intent.price : null,
    quantity: intent.quantity,
    amount: null,
  };
}

/**
 * A live strategy's open orders across restarts: what an earlier run placed and the broker still
 * works is tracked again by its strategy and known to the risk module, as the store (reconciled
 * with the broker when the run starts) has it.
 *
 * @module
 */
import { ORDER_STATES, type OrderState, TERMINAL_ORDER_STATES } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import type { RiskBook } from '../risk/risk-book.js';
import type { EngineRuntime } from '../runtime/engine-runtime.js';

/** Store states of an order that has not ended (a strategy still sees it among its open orders). */
const OPEN_ORDER_STATES: readonly OrderState[] = ORDER_STATES.filter((s) => !TERMINAL_ORDER_STATES.has(s));

/**
 * Each strategy tracks again its own orders of earlier live runs that the store still has open,
 * with their fills so far: the strategy's `openOrders()` shows them in `onStart`, and their later
 * fills, cancels and modifies move its view of them. The risk module's book knows them as open
 * too: a modify or cancel of one is judged against it, they count towards the strategy's open
 * orders and exposure, and a kill switch cancels them.
 *
 * @param db - the run's store, reconciled with the broker
 * @param runtime - the run's strategies
 * @param book - the risk module's book
 */
export function retrackStoredOrders(db: HogaDatabase, runtime: EngineRuntime, book: RiskBook): void {
  for (const host of runtime.hosts) {
    const orders = db.orders.list({ mode: 'live', strategyId: host.strategyId, state: OPEN_ORDER_STATES });
    for (const order of orders) {
      if (host.owns(order.clientOrderId)) continue;
      book.restoreOpen({ ...order, strategyId: host.strategyId });
      host.track({
        clientOrderId: order.clientOrderId,
        symbol: order.symbol,
        side: order.side,
        orderType: order.orderType,
        price: order.price,
        quantity: order.quantity,
        amount: order.amount,
        state: order.state,
        filledQuantity: order.filledQuantity,
        averageFillPrice: order.averageFillPrice,
      });
    }
  }
}

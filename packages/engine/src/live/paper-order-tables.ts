/**
 * A paper run's orders and fills in the store's `orders` and `fills` tables (mode `paper`), as the
 * live order manager keeps a live run's: `hoga db orders` and `hoga db fills` list what a paper run
 * did, with its strategy and paper broker order ids. Follows the paper venue's events.
 *
 * An order the paper venue takes back after a restart (its unfilled part, submitted again under
 * the same `clientOrderId`) keeps its row: its fills count on from the row's filled quantity, so
 * each fill is stored once with the order's cumulative quantity after it.
 *
 * @module
 */
import { averageFillPrice } from '@hoga/broker-model';
import { Decimal, type OrderEvent, type OrderState } from '@hoga/core';
import { type HogaDatabase, orderFromIntent } from '@hoga/store';

const ENDS: Partial<Record<OrderEvent['type'], OrderState>> = {
  OrderCanceled: 'CANCELED',
  OrderExpired: 'EXPIRED',
  OrderRejected: 'REJECTED',
};

/** Writes the paper venue's order events into the `orders` and `fills` tables. */
export class PaperOrderTables {
  /** @param db - the run's store */
  constructor(private readonly db: HogaDatabase) {}

  /** Applies one event of the paper venue (other events are ignored). */
  apply(event: OrderEvent): void {
    const orders = this.db.orders;
    const id = event.clientOrderId;
    if (event.type === 'OrderSubmitted') {
      // submitted again after a restart: the row is there already
      if (orders.get(id) !== null) return;
      orders.recordIntent({
        ...orderFromIntent(event.intent, { mode: 'paper', state: 'SUBMITTED', createdAt: event.tsEvent }),
        strategyId: event.strategyId ?? event.intent.strategyId ?? null,
      });
      return;
    }
    const row = orders.get(id);
    if (row === null || row.mode !== 'paper') return;
    switch (event.type) {
      case 'OrderAccepted':
        orders.linkBrokerOrderId(id, event.brokerOrderId, 'create', event.tsEvent);
        if (row.state === 'SUBMITTED')
          orders.updateState(id, { state: 'ACCEPTED', updatedAt: event.tsEvent });
        return;
      case 'OrderModified':
        orders.linkBrokerOrderId(id, event.brokerOrderId, 'modify', event.tsEvent);
        orders.updateState(id, {
          state: row.state,
          updatedAt: event.tsEvent,
          ...(event.price === undefined ? {} : { price: event.price }),
          ...(event.quantity === undefined ? {} : { quantity: event.quantity }),
        });
        return;
      case 'OrderPartiallyFilled':
      case 'OrderFilled': {
        const f = event.fill;
        const filled = row.filledQuantity.plus(f.quantity);
        this.db.connection.transaction(() => {
          this.db.fills.record({
            orderId: row.id,
            brokerOrderId: f.brokerOrderId ?? null,
            symbol: f.symbol,
            side: f.side,
            quantity: f.quantity,
            price: f.price,
            commission: f.commission.amount,
            commissionCurrency: f.commission.currency,
            tax: f.tax?.amount ?? null,
            filledAt: f.tsEvent,
            cumulativeQuantity: filled,
          });
          // the average over the order's stored fills, this one among them (exact amounts, rounded once)
          let amount = new Decimal(0);
          for (const stored of this.db.fills.byOrder(row.id))
            amount = amount.plus(stored.price.times(stored.quantity));
          orders.updateState(id, {
            state: event.type === 'OrderFilled' ? 'FILLED' : 'PARTIALLY_FILLED',
            updatedAt: event.tsEvent,
            filledQuantity: filled,
            averageFillPrice: averageFillPrice(row.currency, amount, filled),
          });
        })();
        return;
      }
      default: {
        const state = ENDS[event.type];
        if (state === undefined) return;
        const reason = 'reason' in event ? (event.reason ?? null) : null;
        orders.updateState(id, {
          state,
          updatedAt: event.tsEvent,
          ...(state === 'REJECTED' ? { rejectReason: reason } : {}),
        });
      }
    }
  }
}

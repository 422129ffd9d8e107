/**
 * The account's open orders that are not the risk book's own: orders of strategies not in this run
 * (another live run's, or one not started), orders placed with `hoga order`, and orders from
 * another channel the order manager adopted (`ext-<brokerOrderId>`), as the store lists them. The
 * broker's rules count them (the KR opposite-side rule, what they hold of buying power and
 * shares); nothing else does: they are not the run's strategies' to count against their limits,
 * to cancel on a kill switch, or to modify. The list is replaced whole at each read, so an order
 * that ended (filled, cancelled, expired, by this process or another) leaves it.
 *
 * @module
 */

import { left } from './risk-book-records.js';
import type { OpenOrderView, RestoredRiskOrder } from './risk-types.js';

interface Kept {
  readonly view: OpenOrderView;
  /** What of the order, once changed, changes what it holds back (its fills, price, size). */
  readonly key: string;
}

/** See the module description. */
export class OutsideOrders {
  private kept = new Map<string, Kept>();
  private list: readonly OpenOrderView[] = [];

  /** How many are open. */
  get size(): number {
    return this.kept.size;
  }

  /**
   * Takes `orders` as the open outside orders now.
   *
   * @returns the orders that appeared, ended or changed since the last list (what the broker's
   *   figures of buying power and sellable quantity, read before, may not count yet)
   */
  replace(orders: readonly RestoredRiskOrder[]): readonly OpenOrderView[] {
    const next = new Map<string, Kept>();
    const moved: OpenOrderView[] = [];
    for (const order of orders) {
      const key = keyOf(order);
      const before = this.kept.get(order.clientOrderId);
      if (before !== undefined && before.key === key) {
        next.set(order.clientOrderId, before);
        continue;
      }
      const view = viewOf(order);
      next.set(order.clientOrderId, { view, key });
      moved.push(view);
    }
    for (const [id, { view }] of this.kept) if (!next.has(id)) moved.push(view);
    if (moved.length > 0 || next.size !== this.kept.size) {
      this.kept = next;
      this.list = [...next.values()].map((k) => k.view);
    }
    return moved;
  }

  /** The open outside orders. */
  orders(): readonly OpenOrderView[] {
    return this.list;
  }
}

function keyOf(o: RestoredRiskOrder): string {
  return `${o.price?.toFixed() ?? ''}|${o.quantity?.toFixed() ?? ''}|${o.amount?.toFixed() ?? ''}|${o.filledQuantity.toFixed()}`;
}

function viewOf(o: RestoredRiskOrder): OpenOrderView {
  const filledAmount =
    o.amount === null || o.averageFillPrice === null ? null : o.filledQuantity.times(o.averageFillPrice);
  return {
    clientOrderId: o.clientOrderId,
    strategyId: o.strategyId,
    symbol: o.symbol,
    market: o.market,
    currency: o.currency,
    side: o.side,
    orderType: o.orderType,
    price: o.price,
    remainingQuantity: o.quantity === null ? null : left(o.quantity, o.filledQuantity),
    amount: o.amount === null ? null : filledAmount === null ? o.amount : left(o.amount, filledAmount),
  };
}

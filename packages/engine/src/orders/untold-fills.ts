/**
 * Fills of a strategy's orders that a process not running the strategy counted: another live run
 * on the same store, or `hoga order`, polled them while the strategy was down (docs/order-manager.md,
 * "Several processes on one store"). The strategy's books take them from the store when it starts
 * again, but no event of its own run ever told it: before, such a fill never reached its `onFill`
 * (a strategy placing its exit on the fill never placed it). The process that counts one notes its
 * event in the same transaction (`strategy_state`, owner `live:untold-fills`, one row per strategy
 * id: a `:` no strategy id has); the strategy's next live start tells it of them, in the order they
 * were counted, before the fills its own reconciliation finds, and drops the note.
 *
 * @module
 */
import {
  type BrokerOrderId,
  type ClientOrderId,
  type Currency,
  Decimal,
  type Fill,
  Money,
  type OrderFilled,
  type OrderPartiallyFilled,
  type StrategyId,
} from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';

/** The `strategy_state` owner of the notes. */
const OWNER = 'live:untold-fills';

/** A fill event as noted (decimals as plain strings). */
interface NotedFill {
  readonly type: 'OrderFilled' | 'OrderPartiallyFilled';
  readonly eventId: string;
  readonly clientOrderId: string;
  readonly tsEvent: number;
  readonly tsInit: number;
  readonly fill: {
    readonly fillId: string;
    readonly brokerOrderId: string;
    readonly symbol: string;
    readonly side: 'BUY' | 'SELL';
    readonly quantity: string;
    readonly price: string;
    readonly currency: Currency;
    readonly commission: string;
    readonly tax: string;
    readonly cumulativeQuantity: string;
    readonly tsEvent: number;
  };
}

/**
 * Notes a fill event of `strategyId`'s order for the strategy's next start (call inside the
 * transaction that stores the fill).
 */
export function noteUntoldFill(db: HogaDatabase, event: OrderFilled | OrderPartiallyFilled): void {
  const strategyId = event.strategyId;
  if (strategyId === undefined) return;
  const f = event.fill;
  const noted: NotedFill = {
    type: event.type,
    eventId: event.eventId,
    clientOrderId: event.clientOrderId,
    tsEvent: event.tsEvent,
    tsInit: event.tsInit,
    fill: {
      fillId: f.fillId,
      brokerOrderId: f.brokerOrderId,
      symbol: f.symbol,
      side: f.side,
      quantity: f.quantity.toFixed(),
      price: f.price.toFixed(),
      currency: f.commission.currency,
      commission: f.commission.amount.toFixed(),
      tax: (f.tax?.amount ?? new Decimal(0)).toFixed(),
      cumulativeQuantity: f.cumulativeQuantity.toFixed(),
      tsEvent: f.tsEvent,
    },
  };
  const before = db.strategyState.get(OWNER, strategyId);
  db.strategyState.set(OWNER, strategyId, [...(Array.isArray(before) ? (before as NotedFill[]) : []), noted]);
}

/** The fill events noted for `strategyId`, oldest first (see the module description). */
export function untoldFills(db: HogaDatabase, strategyId: string): (OrderFilled | OrderPartiallyFilled)[] {
  const noted = db.strategyState.get(OWNER, strategyId);
  if (!Array.isArray(noted)) return [];
  return (noted as NotedFill[]).map((n) => {
    const f = n.fill;
    const fill: Fill = {
      fillId: f.fillId,
      clientOrderId: n.clientOrderId as ClientOrderId,
      brokerOrderId: f.brokerOrderId as BrokerOrderId,
      symbol: f.symbol,
      side: f.side,
      quantity: new Decimal(f.quantity),
      price: new Decimal(f.price),
      commission: Money.of(new Decimal(f.commission), f.currency),
      tax: Money.of(new Decimal(f.tax), f.currency),
      cumulativeQuantity: new Decimal(f.cumulativeQuantity),
      tsEvent: f.tsEvent,
    };
    return {
      type: n.type,
      eventId: n.eventId,
      clientOrderId: n.clientOrderId as ClientOrderId,
      strategyId: strategyId as StrategyId,
      tsEvent: n.tsEvent,
      tsInit: n.tsInit,
      fill,
    };
  });
}

/** Drops the notes of `strategyId` (once it was told of them). */
export function dropUntoldFills(db: HogaDatabase, strategyId: string): void {
  db.strategyState.delete(OWNER, strategyId);
}

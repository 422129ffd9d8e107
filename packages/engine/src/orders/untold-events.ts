/**
 * Events of a strategy's orders that a process not running the strategy made: another live run on
 * the same store, or `hoga order`, counted a fill or ended an order while the strategy was down
 * (docs/order-manager.md, "Several processes on one store"). The strategy's books take the fills
 * from the store when it starts again, and an ended order is no longer among its open orders, but
 * no event of its own run ever told it: before, such a fill never reached its `onFill` (a strategy
 * placing its exit on the fill never placed it) and such an end never reached its `onOrderEvent`.
 * The process that makes one notes it as it emits it (a fill in the transaction that stores it;
 * `strategy_state`, owner `live:untold-events`, one row per strategy id: a `:` no strategy id
 * has); the strategy's next live start tells it of them, in the order they were made, before what
 * its own reconciliation finds, and drops the note.
 *
 * Paper notes its own fills the same way (owner `paper:untold-events`): each in the transaction
 * that stores it, dropped once told to the runtime ({@link dropToldFills}); a run killed between
 * the two (the commit's fsync is milliseconds wide) leaves the note, and the next paper start tells
 * the fill. Before, such a fill was stored and booked and never reached `onOrderEvent` or `onFill`.
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
  type OrderEvent,
  type StrategyId,
} from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';

/** Whose notes: a live strategy's (made by another process), or a paper strategy's (its own run's). */
export type UntoldNotes = 'live' | 'paper';

/** The `strategy_state` owner of the notes. */
const ownerOf = (notes: UntoldNotes): string => `${notes}:untold-events`;

/** The events noted: fills, and the ends of orders. */
const NOTED: ReadonlySet<OrderEvent['type']> = new Set([
  'OrderFilled',
  'OrderPartiallyFilled',
  'OrderCanceled',
  'OrderExpired',
  'OrderRejected',
]);

/** Whether `event` is one a strategy not running is told of at its next start. */
export function isNotedEvent(event: OrderEvent): boolean {
  return NOTED.has(event.type);
}

/** A fill as noted (decimals as plain strings). */
interface NotedFill {
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
}

/** An event as noted: an end as it is (no decimals), a fill event with its fill as {@link NotedFill}. */
type Noted = Record<string, unknown> & { readonly type: OrderEvent['type']; readonly fill?: NotedFill };

function notedOf(event: OrderEvent): Noted {
  if (event.type !== 'OrderFilled' && event.type !== 'OrderPartiallyFilled') return { ...event };
  const f = event.fill;
  return {
    ...event,
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
}

function eventOf(noted: Noted, strategyId: string): OrderEvent {
  const f = noted.fill;
  if (f === undefined) return { ...noted, strategyId: strategyId as StrategyId } as unknown as OrderEvent;
  const fill: Fill = {
    fillId: f.fillId,
    clientOrderId: noted.clientOrderId as ClientOrderId,
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
  return { ...noted, strategyId: strategyId as StrategyId, fill } as unknown as OrderEvent;
}

/**
 * Notes an event of `event.strategyId`'s order for the strategy's next start (a fill: call inside
 * the transaction that stores it).
 */
export function noteUntoldEvent(db: HogaDatabase, event: OrderEvent, notes: UntoldNotes = 'live'): void {
  const strategyId = event.strategyId;
  if (strategyId === undefined) return;
  const noted = notedOf(event);
  // read and written in one transaction (a savepoint in the caller's): another process noting at
  // once (`hoga order` and a run) keeps its note too
  db.transaction(() => {
    const before = db.strategyState.get(ownerOf(notes), strategyId);
    db.strategyState.set(ownerOf(notes), strategyId, [...(Array.isArray(before) ? before : []), noted]);
  });
}

/** The events noted for `strategyId`, oldest first (see the module description). */
export function untoldEvents(
  db: HogaDatabase,
  strategyId: string,
  notes: UntoldNotes = 'live',
): OrderEvent[] {
  const noted = db.strategyState.get(ownerOf(notes), strategyId);
  if (!Array.isArray(noted)) return [];
  return (noted as Noted[]).map((n) => eventOf(n, strategyId));
}

/** Drops the notes of `strategyId` (once it was told of them). */
export function dropUntoldEvents(db: HogaDatabase, strategyId: string, notes: UntoldNotes = 'live'): void {
  db.strategyState.delete(ownerOf(notes), strategyId);
}

/**
 * Drops the notes of `strategyId`'s fills among `fillIds` (told since they were noted), in one
 * transaction (a savepoint in the caller's); its other notes stay.
 */
export function dropToldFills(
  db: HogaDatabase,
  strategyId: string,
  fillIds: ReadonlySet<string>,
  notes: UntoldNotes,
): void {
  db.transaction(() => {
    const owner = ownerOf(notes);
    const before = db.strategyState.get(owner, strategyId);
    const rest = Array.isArray(before)
      ? (before as Noted[]).filter((n) => n.fill === undefined || !fillIds.has(n.fill.fillId))
      : [];
    if (rest.length === 0) db.strategyState.delete(owner, strategyId);
    else if (rest.length !== (before as Noted[]).length) db.strategyState.set(owner, strategyId, rest);
  });
}

/** Adds a fill told to `told` (per strategy, the ids of its noted fills told: what {@link dropToldFills} drops). */
export function addToldFill(told: Map<string, Set<string>>, strategyId: string, fillId: string): void {
  const ids = told.get(strategyId);
  if (ids === undefined) told.set(strategyId, new Set([fillId]));
  else ids.add(fillId);
}

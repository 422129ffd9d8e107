/**
 * A strategy's books across restarts: its positions, cash, realized PnL and charges are built from
 * its own fills, and those are in the store (`fills` joined to their `orders`, mode `live` or
 * `paper`). A live or paper run opens each strategy's book from its cash allocation and books the
 * strategy's stored fills into it, in the order they were stored, before the strategy starts; the
 * fills of this run (reconciliation's included) follow as events. Without it, a restarted strategy
 * saw itself flat with all its cash: the next cross bought again.
 *
 * @module
 */
import { type BrokerOrderId, type ClientOrderId, type Currency, Decimal, type Fill, Money } from '@hoga/core';
import type { HogaDatabase, TradingMode } from '@hoga/store';
import { dropUntoldEvents, type UntoldNotes, untoldEvents } from '../orders/untold-events.js';
import type { StrategyBook } from '../portfolio/strategy-book.js';
import type { EngineRuntime } from '../runtime/engine-runtime.js';
import { StateWriteHold } from '../store/state-write-hold.js';
import type { RunEventRecorder } from './run-event-recorder.js';
import { storedView } from './stored-orders.js';

interface StoredFillRow {
  readonly id: number;
  readonly client_order_id: string;
  readonly broker_order_id: string | null;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: string;
  readonly price: string;
  readonly commission: string;
  readonly commission_currency: Currency;
  readonly tax: string | null;
  readonly filled_at: number;
  readonly cumulative_quantity: string;
}

/**
 * Books the stored fills of one strategy (in `mode`) into its book.
 *
 * @param also - handed each fill after the book took it (the risk module's book takes them too)
 * @returns how many fills were booked
 */
export function bookStoredFills(
  db: HogaDatabase,
  mode: TradingMode,
  strategyId: string,
  book: StrategyBook,
  also?: (fill: Fill, currency: Currency) => void,
): number {
  const rows = db.connection
    .prepare(
      `SELECT f.id, o.client_order_id, f.broker_order_id, f.symbol, f.side, f.quantity, f.price,
              f.commission, f.commission_currency, f.tax, f.filled_at, f.cumulative_quantity
       FROM fills f JOIN orders o ON o.id = f.order_id
       WHERE o.mode = ? AND o.strategy_id = ?
       ORDER BY f.id`,
    )
    .all(mode, strategyId) as StoredFillRow[];
  for (const r of rows) {
    const currency = r.commission_currency;
    const fill: Fill = {
      fillId: `stored-${r.id}`,
      clientOrderId: r.client_order_id as ClientOrderId,
      brokerOrderId: (r.broker_order_id ?? '') as BrokerOrderId,
      symbol: r.symbol,
      side: r.side,
      quantity: new Decimal(r.quantity),
      price: new Decimal(r.price),
      commission: Money.of(new Decimal(r.commission), currency),
      tax: Money.of(new Decimal(r.tax ?? 0), currency),
      cumulativeQuantity: new Decimal(r.cumulative_quantity),
      tsEvent: r.filled_at,
    };
    book.apply(fill, currency);
    also?.(fill, currency);
  }
  return rows.length;
}

/**
 * Live: tells each strategy of the run what another process did to its orders while it was down
 * (`untold-events.ts`: fills, ends); paper (`notes` `'paper'`): the fills a killed paper run stored
 * and never told. Oldest first, as the events they were (`onOrderEvent`, and
 * `onFill` for a fill), journalled and shown as any event; its books hold the fills already ({@link
 * bookStoredFills}) and its open orders are tracked from the store ({@link trackStoredOpenOrders},
 * before this), so neither is changed again. The order of an event is known to `ctx.order(id)` as
 * it is told, as the store has it now (an order that ended: its final state; before, `undefined`).
 * The events are of the time the strategy was down, not of this session: a rejection told is not
 * counted among the session's refused orders, and a fill told, booked before the session started,
 * not among its fills (`recordTold`). Call before the run's reconciliation, whose events are newer.
 *
 * @param db - the run's store
 * @param runtime - the run's strategies, their books opened
 * @param recorder - the run's journal of order events
 * @param notes - whose notes: live's (default) or paper's
 */
export function tellUntoldEvents(
  db: HogaDatabase,
  runtime: EngineRuntime,
  recorder: Pick<RunEventRecorder, 'recordTold'>,
  notes: UntoldNotes = 'live',
): void {
  for (const host of runtime.hosts) {
    const events = untoldEvents(db, host.strategyId, notes);
    if (events.length === 0) continue;
    // the notes dropped with the state the strategy wrote as it heard them
    StateWriteHold.of(db).telling(
      () => {
        for (const event of events) {
          // one read per order told (an order still open is tracked already)
          if (!host.owns(event.clientOrderId)) {
            const order = db.orders.get(event.clientOrderId);
            if (order !== null) host.track(storedView(order));
          }
          recorder.recordTold(event);
          runtime.call(host, 'onOrderEvent', event);
          if (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled')
            runtime.call(host, 'onFill', event.fill);
        }
      },
      () => dropUntoldEvents(db, host.strategyId, notes),
    );
  }
}

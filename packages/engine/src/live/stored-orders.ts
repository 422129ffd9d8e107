/**
 * A live strategy's open orders across restarts: what an earlier run placed and the broker still
 * works is tracked again by its strategy and known to the risk module, as the store (reconciled
 * with the broker when the run starts) has it.
 *
 * @module
 */
import { type Logger, ORDER_STATES, type OrderState, TERMINAL_ORDER_STATES } from '@hoga/core';
import type { HogaDatabase, OrderRecord } from '@hoga/store';
import type { RestoredRiskOrder, RiskBook } from '../risk/risk-book.js';
import type { EngineRuntime } from '../runtime/engine-runtime.js';
import type { StrategyHost } from '../runtime/strategy-host.js';
import type { OrderView } from '../strategy/strategy-context.js';
import { leasedLiveStrategies } from './run-lease.js';

/** Store states of an order that has not ended (a strategy still sees it among its open orders). */
export const OPEN_ORDER_STATES: readonly OrderState[] = ORDER_STATES.filter(
  (s) => !TERMINAL_ORDER_STATES.has(s),
);

/**
 * Each strategy tracks again its own orders of earlier live runs that the store still has open,
 * with their fills so far, as they stood before the run's reconciliation: what the reconcile and
 * the telling at the start find of them (`tellUntoldEvents`, `liveVenue.start()`) moves the view
 * by each event, so that `ctx.order(id)` in the `onFill` of a fill told at the start is the order
 * as it stands then (before, the orders were tracked only after the telling: `undefined` there).
 * Call before the telling; {@link retrackStoredOrders} after the reconcile.
 *
 * @param db - the run's store, before its reconciliation
 * @param runtime - the run's strategies
 */
export function trackStoredOpenOrders(db: HogaDatabase, runtime: EngineRuntime): void {
  for (const host of runtime.hosts) {
    const orders = db.orders.list({ mode: 'live', strategyId: host.strategyId, state: OPEN_ORDER_STATES });
    for (const order of orders) if (!host.owns(order.clientOrderId)) host.track(storedView(order));
  }
}

/**
 * Each strategy tracks again its own orders of earlier live runs that the store still has open,
 * with their fills so far: the strategy's `openOrders()` shows them in `onStart`, and their later
 * fills, cancels and modifies move its view of them. The risk module's book knows them as open
 * too: a modify or cancel of one is judged against it, they count towards the strategy's open
 * orders and exposure, and a kill switch cancels them. An order the strategy tracks already
 * ({@link trackStoredOpenOrders}, moved by the reconcile's events) keeps its view.
 *
 * @param db - the run's store, reconciled with the broker
 * @param runtime - the run's strategies
 * @param book - the risk module's book
 */
export function retrackStoredOrders(db: HogaDatabase, runtime: EngineRuntime, book: RiskBook): void {
  for (const host of runtime.hosts) {
    const orders = db.orders.list({ mode: 'live', strategyId: host.strategyId, state: OPEN_ORDER_STATES });
    for (const order of orders) {
      book.restoreOpen({ ...order, strategyId: host.strategyId });
      if (!host.owns(order.clientOrderId)) host.track(storedView(order));
    }
  }
}

/**
 * Every open live order of the account the store lists (the risk module's `outsideOrders`): its
 * book counts those that are not its strategies' own in the broker's rules — another live run's
 * strategies', strategies' not in this run, `hoga order`'s (with no strategy: `manual`), and those
 * from another channel the order manager adopted (`ext-<brokerOrderId>`, stored as it polls the
 * broker's open orders). Read again before each check: an order another process ended (`hoga order
 * cancel`, another run's fill) has left the list once that process or this run's poll stored it.
 *
 * @param db - the run's store
 */
export function storedOpenOrders(db: HogaDatabase): RestoredRiskOrder[] {
  return db.orders
    .list({ mode: 'live', state: OPEN_ORDER_STATES, limit: 10_000 })
    .map((o) => ({ ...o, strategyId: o.strategyId ?? 'manual' }));
}

/**
 * {@link storedOpenOrders} read again only when the store may have changed since the last read:
 * another connection committed (`PRAGMA data_version` moved) or this one wrote (`total_changes()`
 * moved); else the last list. A live order asks for the list twice (the risk engine's `prepare`,
 * then its check, with the broker's reads between) and the background refresh once a period; each
 * read decodes every open order (about 120 µs with 5 open, 1 ms with 100), the two counters a few
 * µs. Before, every ask read the list.
 *
 * @param db - the run's store
 */
export function storedOpenOrdersReader(db: HogaDatabase): () => readonly RestoredRiskOrder[] {
  const version = db.connection.prepare('PRAGMA data_version').pluck();
  const changes = db.connection.prepare('SELECT total_changes()').pluck();
  let last: {
    readonly version: unknown;
    readonly changes: unknown;
    readonly orders: RestoredRiskOrder[];
  } | null = null;
  return () => {
    // the counters first: a change committed while the list is read moves them for the next ask
    const v: unknown = version.get();
    const c: unknown = changes.get();
    if (last !== null && last.version === v && last.changes === c) return last.orders;
    const orders = storedOpenOrders(db);
    last = { version: v, changes: c, orders };
    return orders;
  };
}

/**
 * One stored open order tracked again by its strategy and known to the risk module as open (see
 * {@link retrackStoredOrders}; paper's restart too, for each order it works again).
 */
export function trackStoredOrder(host: StrategyHost, book: RiskBook, order: OrderRecord): void {
  if (host.owns(order.clientOrderId)) return;
  book.restoreOpen({ ...order, strategyId: host.strategyId });
  host.track(storedView(order));
}

/** A strategy's view of a stored order, as the store has it now. */
export function storedView(order: OrderRecord): OrderView {
  return {
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
  };
}

/**
 * The open orders in the store of strategies this run does not run (one renamed, or not started
 * this time), each as `<clientOrderId> <strategy> <side> <size> <symbol> <type>[ @ <price>]`:
 * they keep working (live at the broker, paper on the paper venue) with no strategy managing them.
 * Manual orders (no strategy), orders from other channels (`ext-`) and, live, the orders of
 * strategies another live run on the store works (that run manages them) are not counted.
 *
 * @param db - the run's store (reconciled with the broker, or the paper orders restored)
 * @param mode - the run's mode
 * @param runtime - the run's strategies
 */
function ordersOfAbsentStrategies(
  db: HogaDatabase,
  mode: 'live' | 'paper',
  runtime: EngineRuntime,
): string[] {
  const running = new Set<string>(runtime.hosts.map((h) => h.strategyId));
  if (mode === 'live') for (const id of leasedLiveStrategies(db)) running.add(id);
  return db.orders
    .list({ mode, state: OPEN_ORDER_STATES, limit: 10_000 })
    .filter((o) => o.strategyId !== null && !running.has(o.strategyId) && !o.clientOrderId.startsWith('ext-'))
    .map((o) => {
      const size = o.quantity?.toFixed() ?? `${o.amount?.toFixed() ?? '?'} ${o.currency}`;
      const price = o.price === null ? '' : ` @ ${o.price.toFixed()}`;
      return `${o.clientOrderId} ${o.strategyId} ${o.side} ${size} ${o.symbol} ${o.orderType}${price}`;
    });
}

/**
 * Warns of the open orders of strategies this run does not run (see `ordersOfAbsentStrategies`),
 * naming each, once the run's own orders are tracked again (live) or put back (paper).
 */
export function warnOfAbsentStrategies(
  db: HogaDatabase,
  mode: 'live' | 'paper',
  runtime: EngineRuntime,
  logger: Logger,
): void {
  const orders = ordersOfAbsentStrategies(db, mode, runtime);
  if (orders.length === 0) return;
  logger.warn(
    { orders },
    mode === 'paper'
      ? 'open paper orders of strategies not in this run keep working until their session ends; ' +
          'run their strategy to manage them'
      : 'open orders of strategies not in this run keep working at the broker; run their strategy ' +
          'to manage them, or end one with hoga order cancel <clientOrderId>',
  );
}

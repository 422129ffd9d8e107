/**
 * `hoga db orders --mode backtest`: a backtest's orders. The store keeps them in the journal, one
 * `OrderSummary` entry per order written by the run's journal writer (a backtest of many thousand
 * orders would otherwise fill the orders table of paper and live orders), so they are read from
 * there: `--run` for one run's, the same filters as the other modes, and the reason of an order the
 * risk module denied or the venue rejected.
 *
 * @module
 */
import { Decimal, type OrderState, OrderState as State } from '@hoga/core';
import { backtestOrderIdPrefix, type HogaDatabase, type OrderSummary } from '@hoga/store';

/** A backtest order as listed. */
export interface BacktestOrder {
  /** Its first event (epoch ms). */
  readonly createdAt: number;
  readonly clientOrderId: string;
  readonly strategyId: string | null;
  readonly symbol: string;
  readonly side: string;
  readonly orderType: string;
  readonly price: Decimal | null;
  readonly quantity: Decimal | null;
  readonly amount: Decimal | null;
  readonly filledQuantity: Decimal;
  readonly averageFillPrice: Decimal | null;
  readonly state: OrderState;
  readonly reason: string | null;
  readonly summary: OrderSummary;
}

/** Which backtest orders to list. */
export interface BacktestOrderQuery {
  /** One run's (its id), else every backtest's. */
  readonly runId?: string | undefined;
  readonly states?: readonly string[] | undefined;
  readonly strategyId?: string | undefined;
  readonly symbol?: string | undefined;
  /** Created in `[from, to)` (epoch ms). */
  readonly from?: number | undefined;
  readonly to?: number | undefined;
  readonly limit: number;
}

/** The state an order's last event left it in (an order still open at the run's end: as it stood). */
const TERMINAL: Readonly<Record<string, OrderState>> = {
  OrderFilled: State.FILLED,
  OrderCanceled: State.CANCELED,
  OrderRejected: State.REJECTED,
  OrderDenied: State.DENIED,
  OrderExpired: State.EXPIRED,
};

function stateOf(s: OrderSummary, filled: Decimal): OrderState {
  const terminal = TERMINAL[s.last];
  if (terminal !== undefined) return terminal;
  if (!filled.isZero()) return State.PARTIALLY_FILLED;
  return s.events.some(([type]) => type === 'OrderAccepted') ? State.ACCEPTED : State.SUBMITTED;
}

function decimalOrNull(text: string | null): Decimal | null {
  return text === null ? null : new Decimal(text);
}

/** The order a summary describes. */
export function backtestOrderOf(s: OrderSummary): BacktestOrder {
  let filled = new Decimal(0);
  let cost = new Decimal(0);
  for (const [, quantity, price] of s.fills) {
    filled = filled.plus(quantity);
    cost = cost.plus(new Decimal(quantity).times(price));
  }
  return {
    createdAt: s.events[0]?.[1] ?? 0,
    clientOrderId: s.clientOrderId,
    strategyId: s.strategyId,
    symbol: s.symbol,
    side: s.side,
    orderType: s.orderType,
    price: decimalOrNull(s.price),
    quantity: decimalOrNull(s.quantity),
    amount: decimalOrNull(s.amount),
    filledQuantity: filled,
    averageFillPrice: filled.isZero() ? null : cost.dividedBy(filled),
    state: stateOf(s, filled),
    reason: s.reason,
    summary: s,
  };
}

/** The sequence number a run gave an order (`bt…-7`: 7), in the order the run created them. */
function sequenceOf(clientOrderId: string): number {
  return Number(clientOrderId.slice(clientOrderId.lastIndexOf('-') + 1));
}

/** Oldest first: by creation time, then (one run's orders created at one time) by sequence number. */
function byCreation(a: BacktestOrder, b: BacktestOrder): number {
  return (
    a.createdAt - b.createdAt ||
    sequenceOf(a.clientOrderId) - sequenceOf(b.clientOrderId) ||
    (a.clientOrderId < b.clientOrderId ? -1 : a.clientOrderId > b.clientOrderId ? 1 : 0)
  );
}

/**
 * The backtest orders `query` asks for, oldest first, at most `limit` (the oldest). The journal has
 * them as they ended (a limit order canceled after three bars comes after the orders placed
 * meanwhile), so every summary is read and the oldest kept.
 */
export function backtestOrders(db: HogaDatabase, query: BacktestOrderQuery): BacktestOrder[] {
  const prefix = query.runId === undefined ? '' : `${backtestOrderIdPrefix(query.runId)}-`;
  let out: BacktestOrder[] = [];
  for (const entry of db.journal.orderSummaries('backtest', prefix)) {
    const o = backtestOrderOf(entry.payload as OrderSummary);
    if (query.states !== undefined && !query.states.includes(o.state)) continue;
    if (query.strategyId !== undefined && o.strategyId !== query.strategyId) continue;
    if (query.symbol !== undefined && o.symbol !== query.symbol) continue;
    if (query.from !== undefined && o.createdAt < query.from) continue;
    if (query.to !== undefined && o.createdAt >= query.to) continue;
    out.push(o);
    // the oldest `limit` so far, in bounded memory over a run of many thousand orders
    if (out.length >= 2 * query.limit) out = out.sort(byCreation).slice(0, query.limit);
  }
  return out.sort(byCreation).slice(0, query.limit);
}

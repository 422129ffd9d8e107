/**
 * When the broker ends a DAY order placed at an instant (KR 20:00 KST of its order date, US 20:00
 * New York of its trading date: `dayOrderExpiry`), answered from a one-hour cache: the day rolls on
 * a whole hour in both markets, so every instant of one UTC hour has the same end, and a venue's
 * orders come in time order (a backtest's thousands of orders read the calendar once an hour).
 *
 * @module
 */
import { dayOrderExpiry } from '@hoga/broker-model';
import { Market, marketOfSymbol, TimeInForce } from '@hoga/core';
import type { SimulatedOrder } from './simulated-order.js';
import type { VenueOrders } from './venue-orders.js';

const HOUR_MS = 3_600_000;
/** What {@link DayOrderEnds.due} answers while no order's end has passed (asked before every bar). */
const NONE_DUE: readonly SimulatedOrder[] = Object.freeze([]);

/**
 * The end of the trading day of orders placed at an instant, per market, cached by the hour; and
 * which of a venue's working orders are past theirs.
 */
export class DayOrderEnds {
  private readonly hour = { [Market.KR]: Number.NaN, [Market.US]: Number.NaN };
  private readonly end = { [Market.KR]: 0, [Market.US]: 0 };
  /** No working order ends before this (a lower bound: the earliest end of those noted). */
  private next = Number.POSITIVE_INFINITY;

  /**
   * When a working order of `symbol` placed at `acceptedAt` with `timeInForce` ends at the latest:
   * a DAY order at the end of its trading day; any other (CLS, ended at the close) never here.
   */
  of(symbol: string, timeInForce: TimeInForce, acceptedAt: number): number {
    if (timeInForce !== TimeInForce.DAY) return Number.POSITIVE_INFINITY;
    const market = marketOfSymbol(symbol);
    const hour = Math.floor(acceptedAt / HOUR_MS);
    if (this.hour[market] !== hour) {
      this.hour[market] = hour;
      this.end[market] = dayOrderExpiry(market, acceptedAt);
    }
    return this.end[market];
  }

  /** Notes a working order's end (its `dayEnd`, once known). */
  note(order: SimulatedOrder): void {
    if (order.dayEnd < this.next) this.next = order.dayEnd;
  }

  /**
   * The working orders whose day ended before `time` (none at the cost of one comparison while no
   * working order's end has passed, and no allocation: a backtest asks before each of its bars).
   */
  due(time: number, orders: VenueOrders): readonly SimulatedOrder[] {
    if (time <= this.next) return NONE_DUE;
    const out: SimulatedOrder[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const symbol of orders.workingSymbols()) {
      for (const order of orders.workingOf(symbol)) {
        if (order.dayEnd < time) out.push(order);
        else if (order.dayEnd < next) next = order.dayEnd;
      }
    }
    this.next = next;
    return out;
  }
}

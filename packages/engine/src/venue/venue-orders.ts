/**
 * The simulated venue's order tables: the orders not ended yet by client id, the working ones per
 * symbol (lists kept in place, so a caller may hold a symbol's list), and the ids of the last
 * {@link KEPT_ENDED_ORDERS} orders ended.
 *
 * @module
 */

import { RecentRing } from '../recent-ring.js';
import type { SimulatedOrder } from './simulated-order.js';

/**
 * How many ended orders the venue still recognises (a modify or cancel of one is refused with the
 * broker's code of its end, `already-filled`, `already-canceled` or `already-rejected`, not as unknown); older ones are let go, so that a long backtest's venue does not
 * grow with every order it ever took. The strategies' own view keeps 1,000 of them.
 */
export const KEPT_ENDED_ORDERS = 4_096;

/** The orders of a simulated venue. */
export class VenueOrders {
  /** Orders not ended yet, by client id. */
  private readonly live = new Map<string, SimulatedOrder>();
  private readonly working = new Map<string, SimulatedOrder[]>();
  /** The last orders ended (filled, canceled, expired, rejected). */
  private readonly ended = new RecentRing<SimulatedOrder>(KEPT_ENDED_ORDERS);
  /** Number of working orders. */
  workingCount = 0;

  /** Takes a submitted order (not working yet). */
  add(order: SimulatedOrder): void {
    this.live.set(order.clientOrderId, order);
  }

  /** An order not ended yet. */
  get(clientOrderId: string): SimulatedOrder | undefined {
    return this.live.get(clientOrderId);
  }

  /** Puts an accepted order among its symbol's working orders. */
  work(order: SimulatedOrder): void {
    (this.workingOf(order.symbol) as SimulatedOrder[]).push(order);
    this.workingCount++;
  }

  /** An order ended: it leaves the tables, its id stays among the recently ended. */
  end(order: SimulatedOrder): void {
    this.live.delete(order.clientOrderId);
    this.ended.add(order);
    const list = this.working.get(order.symbol);
    const at = list?.indexOf(order) ?? -1;
    if (list !== undefined && at >= 0) {
      list.splice(at, 1);
      this.workingCount--;
    }
  }

  /** The order of `clientOrderId` when it is one of the last orders ended (its final state), else undefined. */
  endedRecently(clientOrderId: string): SimulatedOrder | undefined {
    return this.ended.findNewest((order) => order.clientOrderId === clientOrderId);
  }

  /** The working orders of `symbol`: the same array, kept up to date in place, for the venue's life. */
  workingOf(symbol: string): readonly SimulatedOrder[] {
    let list = this.working.get(symbol);
    if (list === undefined) {
      list = [];
      this.working.set(symbol, list);
    }
    return list;
  }

  /** The symbols with working orders. */
  workingSymbols(): string[] {
    const out: string[] = [];
    for (const [symbol, list] of this.working) if (list.length > 0) out.push(symbol);
    return out;
  }
}

/**
 * What a modify or a cancel does to an order of the simulated venue: the order it addresses must be
 * working (else the broker's code for what became of it), the broker's rules the venue was given
 * must take the change (the risk module disabled: see `SimulatedVenue.judgeOrdersBy`), a modify's
 * price goes onto the grid, and the order is replaced under a new broker id (the cash it holds
 * reserved anew) or ends cancelled; each told as live reports it, the change asked for (the order
 * pending), then done or refused (`sent: true`), as live hears a change the broker refuses. Kept apart
 * from `SimulatedVenue`, which owns an order's life in the market (taken in, matched, filled,
 * expired): this runs once per change, never per market view.
 *
 * @module
 */
import { checkLimitPrice, type Ledger } from '@hoga/broker-model';
import type { Clock } from '@hoga/core';
import type { CancelOrder, ModifyOrder } from '../commands/order-commands.js';
import { isWorking, type SimulatedOrder } from './simulated-order.js';
import type { VenueOrderRules } from './simulated-venue-options.js';
import type { VenueEvents } from './venue-events.js';
import type { VenueOrders } from './venue-orders.js';

/** What {@link VenueChanges} works on: the venue's tables, events, ledger and clock. */
export interface VenueChangesParts {
  readonly orders: VenueOrders;
  readonly events: VenueEvents;
  readonly ledger: Ledger;
  readonly clock: Clock;
  /** Ends an order cancelled (its cash given back, out of the working tables). */
  readonly closeCanceled: (order: SimulatedOrder) => void;
  /** The broker's rules the venue judges changes by now (none: the risk module judged them). */
  readonly rules: () => VenueOrderRules | undefined;
}

/** See the module description. */
export class VenueChanges {
  constructor(private readonly p: VenueChangesParts) {}

  /** A modify of a working order: replaced at its new price (and, KR, quantity), or refused. */
  modify(command: ModifyOrder): void {
    const order = this.workingOrRejected(command, 'OrderModifyRejected');
    if (order === undefined) return;
    const now = this.p.clock.nowMs();
    // as live reports it: the modify asked for (the order pending), then done or refused
    const asked = { price: command.price, quantity: command.quantity };
    const rules = this.p.rules();
    const broker = rules === undefined ? null : rules(command);
    if (broker !== null) {
      this.p.events.modifyRequested(order, now, asked);
      this.p.events.modifyRejected(order, now, broker.code, broker.reason);
      return;
    }
    let price = command.price;
    if (price !== undefined) {
      const grid = checkLimitPrice(order.instrument, price);
      if (!grid.accepted) {
        this.p.events.modifyRequested(order, now, asked);
        this.p.events.modifyRejected(order, now, grid.code, grid.message);
        return;
      }
      if (grid.price !== null) price = grid.price;
    }
    const previous = order.brokerOrderId;
    const change = { price, quantity: command.quantity };
    this.p.events.modifyRequested(order, now, change);
    if (price !== undefined) order.price = price;
    // a KR modify's quantity replaces the unfilled rest (as the broker's new order does)
    if (command.quantity !== undefined) order.quantity = order.filledQuantity.plus(command.quantity);
    order.brokerOrderId = this.p.events.nextBrokerId();
    this.p.ledger.reserve(order.clientOrderId, order);
    this.p.events.modified(order, now, previous, change);
  }

  /** A cancel of a working order: it ends cancelled, or the cancel is refused. */
  cancel(command: CancelOrder): void {
    const order = this.workingOrRejected(command, 'OrderCancelRejected');
    if (order === undefined) return;
    const now = this.p.clock.nowMs();
    // judged on the order as it stands (the rules read the run's book, which the events move)
    const rules = this.p.rules();
    const broker = rules === undefined ? null : rules(command);
    // as live reports it: the cancel asked for (the order pending), then done or refused
    this.p.events.cancelRequested(order, now);
    if (broker !== null) {
      this.p.events.cancelRejected(order, now, broker.code, broker.reason);
      return;
    }
    this.p.closeCanceled(order);
    this.p.events.canceled(order, now, 'user');
  }

  /** The working order a modify or cancel addresses, or undefined after emitting its rejection. */
  private workingOrRejected(
    command: ModifyOrder | CancelOrder,
    type: 'OrderModifyRejected' | 'OrderCancelRejected',
  ): SimulatedOrder | undefined {
    const order = this.p.orders.get(command.clientOrderId);
    if (order !== undefined && isWorking(order)) return order;
    const known = order ?? this.p.orders.endedRecently(command.clientOrderId);
    this.p.events.notWorking(command, type, known?.state, this.p.clock.nowMs());
    return undefined;
  }
}

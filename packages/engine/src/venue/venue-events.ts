/**
 * What the simulated venue says: its event stream, its broker order ids and event ids (the
 * deterministic `<prefix>-<n>` and `<prefix>-e<n>`), and one method per event it emits, each
 * building the event as live reports it and handing it to the subscribers synchronously.
 *
 * @module
 */
import type { BrokerOrderId, Decimal, Fill, OrderEvent, OrderIntent, OrderState } from '@hoga/core';
import type { Observable } from 'rxjs';
import type { CancelOrder, ModifyOrder } from '../commands/order-commands.js';
import { EventHub } from './event-hub.js';
import { ofStrategy, type SimulatedOrder } from './simulated-order.js';

/**
 * The broker's code for a modify or cancel of an order that ended so (its 409s): an expired DAY
 * order is canceled at the broker.
 */
const NOT_WORKING_CODES: Partial<Record<OrderState, string>> = {
  FILLED: 'already-filled',
  CANCELED: 'already-canceled',
  EXPIRED: 'already-canceled',
  REJECTED: 'already-rejected',
};

/**
 * The code of a modify or cancel refused because the order ended: the broker's for the state it
 * ended in (`already-filled`, `already-canceled` for a cancelled or expired order,
 * `already-rejected`), or `order-closed` for one the broker never had (DENIED). The venue and the
 * runtime answer with it alike, so a strategy checks one code per state whoever refused.
 */
export function closedOrderCode(state: OrderState): string {
  return NOT_WORKING_CODES[state] ?? 'order-closed';
}

/**
 * The refusal of a modify or cancel of an order the venue does not work: the broker's code for
 * what became of it (`state`; undefined when the venue does not know the order: `order-not-found`)
 * and a reason naming the order and its state.
 */
export function notWorkingRefusal(
  clientOrderId: string,
  state: OrderState | undefined,
): { readonly code: string; readonly reason: string } {
  return state === undefined
    ? { code: 'order-not-found', reason: `order ${clientOrderId} is not working` }
    : { code: closedOrderCode(state), reason: `order ${clientOrderId} is not working: it is ${state}` };
}

/** A modify's new price and quantity, each when it changes. */
export interface Amendment {
  readonly price: Decimal | undefined;
  readonly quantity: Decimal | undefined;
}

/** The simulated venue's events and ids. */
export class VenueEvents {
  private readonly hub = new EventHub<OrderEvent>();
  private sequence = 0;
  private eventSequence = 0;

  /** Every order event, synchronously as it happens. */
  readonly events$: Observable<OrderEvent> = this.hub.events$;

  /** @param prefix - of broker order ids and event ids */
  constructor(private readonly prefix: string) {}

  /** The next broker order id. */
  nextBrokerId(): BrokerOrderId {
    this.sequence++;
    return `${this.prefix}-${this.sequence}` as BrokerOrderId;
  }

  /** The order was taken in (`OrderSubmitted`, with its intent). */
  submitted(order: SimulatedOrder, intent: OrderIntent, now: number): void {
    this.hub.emit(
      ofStrategy(
        {
          type: 'OrderSubmitted',
          eventId: this.nextEventId(),
          clientOrderId: order.clientOrderId,
          tsEvent: now,
          tsInit: now,
          intent,
        },
        order,
      ),
    );
  }

  /** The order works (`OrderAccepted`, under its broker order id). */
  accepted(order: SimulatedOrder, now: number): void {
    this.hub.emit(
      ofStrategy(
        {
          type: 'OrderAccepted',
          eventId: this.nextEventId(),
          clientOrderId: order.clientOrderId,
          tsEvent: now,
          tsInit: now,
          brokerOrderId: order.brokerOrderId,
        },
        order,
      ),
    );
  }

  /** The order was refused (`OrderRejected`: off the price grid, or beyond the buying power). */
  rejected(order: SimulatedOrder, now: number, code: string, reason: string): void {
    this.hub.emit({ type: 'OrderRejected', ...this.base(order, now), code, reason });
  }

  /**
   * A DAY order outlived its session (`OrderExpired`), stamped `tsEvent` (default now): also an
   * order of an earlier run the venue never worked (only its id and strategy are read).
   */
  expired(order: Pick<SimulatedOrder, 'clientOrderId' | 'strategyId'>, now: number, tsEvent = now): void {
    this.hub.emit({ type: 'OrderExpired', ...this.base(order, now, tsEvent) });
  }

  /** The order ended canceled (`OrderCanceled`): by the user, at the close, or for want of cash. */
  canceled(order: SimulatedOrder, now: number, reason: string, tsEvent = now): void {
    this.hub.emit({
      type: 'OrderCanceled',
      ...this.base(order, now, tsEvent),
      brokerOrderId: order.brokerOrderId,
      reason,
    });
  }

  /** A cancel was asked for, the order still pending (`OrderCancelRequested`), as live reports it. */
  cancelRequested(order: SimulatedOrder, now: number): void {
    this.hub.emit({
      type: 'OrderCancelRequested',
      ...this.base(order, now),
      brokerOrderId: order.brokerOrderId,
    });
  }

  /** A modify was asked for, the order still pending (`OrderModifyRequested`), as live reports it. */
  modifyRequested(order: SimulatedOrder, now: number, change: Amendment): void {
    this.hub.emit({
      type: 'OrderModifyRequested',
      ...this.base(order, now),
      brokerOrderId: order.brokerOrderId,
      ...(change.price === undefined ? {} : { price: change.price }),
      ...(change.quantity === undefined ? {} : { quantity: change.quantity }),
    });
  }

  /**
   * The modify is done (`OrderModified`): the order works under its new broker order id, with the
   * new price and, when the quantity changed, its new whole quantity.
   */
  modified(order: SimulatedOrder, now: number, previous: BrokerOrderId, change: Amendment): void {
    this.hub.emit({
      type: 'OrderModified',
      ...this.base(order, now),
      brokerOrderId: order.brokerOrderId,
      previousBrokerOrderId: previous,
      ...(change.price === undefined ? {} : { price: change.price }),
      ...(change.quantity === undefined || order.quantity === null ? {} : { quantity: order.quantity }),
    });
  }

  /**
   * A modify of a working order refused (`OrderModifyRejected`: its price off the grid, or the
   * broker's rules the venue judges by), after its `OrderModifyRequested`.
   */
  modifyRejected(order: SimulatedOrder, now: number, code: string, reason: string): void {
    this.hub.emit({ type: 'OrderModifyRejected', ...this.base(order, now), code, reason, sent: true });
  }

  /** A cancel of a working order refused by the broker's rules the venue judges by (`OrderCancelRejected`). */
  cancelRejected(order: SimulatedOrder, now: number, code: string, reason: string): void {
    this.hub.emit({ type: 'OrderCancelRejected', ...this.base(order, now), code, reason, sent: true });
  }

  /**
   * A modify or cancel of an order the venue does not work, with the broker's code for what became
   * of it (`state`, undefined when the venue does not know the order: `order-not-found`). Before,
   * every known order was `already-filled`, a rejected, canceled or expired one too.
   */
  notWorking(
    command: ModifyOrder | CancelOrder,
    type: 'OrderModifyRejected' | 'OrderCancelRejected',
    state: OrderState | undefined,
    now: number,
  ): void {
    this.hub.emit({
      type,
      eventId: this.nextEventId(),
      clientOrderId: command.clientOrderId,
      strategyId: command.strategyId,
      tsEvent: now,
      tsInit: now,
      ...notWorkingRefusal(command.clientOrderId, state),
      sent: true,
    });
  }

  /** A slice of the order filled (`OrderFilled` when it completed the order, else `OrderPartiallyFilled`). */
  filled(order: SimulatedOrder, fill: Fill, done: boolean, now: number): void {
    this.hub.emit(
      ofStrategy(
        {
          type: done ? 'OrderFilled' : 'OrderPartiallyFilled',
          eventId: this.nextEventId(),
          clientOrderId: order.clientOrderId,
          tsEvent: fill.tsEvent,
          tsInit: now,
          fill,
        },
        order,
      ),
    );
  }

  /** Completes the stream. */
  complete(): void {
    this.hub.complete();
  }

  private base(order: Pick<SimulatedOrder, 'clientOrderId' | 'strategyId'>, now: number, tsEvent = now) {
    return {
      eventId: this.nextEventId(),
      clientOrderId: order.clientOrderId,
      ...(order.strategyId === undefined ? {} : { strategyId: order.strategyId }),
      tsEvent,
      tsInit: now,
    };
  }

  private nextEventId(): string {
    this.eventSequence++;
    return `${this.prefix}-e${this.eventSequence}`;
  }
}

/**
 * Which polled books paper may match an order against: only those whose poll was asked at or
 * after the order was placed or last modified (the engine's clock, the one the order's times are
 * on): the broker made them after the order, so they show the market the order meets. A poll asked
 * before the order and answered after it (a slow network, a broker under load) shows the market as
 * it was before the order, and the order would fill at prices the market no longer offered
 * (before, a market buy placed at 23:40:00 filled at the ask of 23:30:00). Such a book is skipped
 * for that order; the next poll's book fills it. Not the book's own `timestamp`: the broker's clock,
 * which may run behind this machine's, and maybe the time of the book's last change (the spec does
 * not say), which a quiet stock's book keeps for long.
 *
 * @module
 */
import type { OrderBook } from '@hoga/broker-model';
import type { OrderEvent } from '@hoga/core';

/** A polled book and when its poll was asked (engine clock, epoch ms): the broker made it later. */
export interface PaperBook extends OrderBook {
  readonly askedAtMs: number;
}

const ENDED = new Set<OrderEvent['type']>(['OrderFilled', 'OrderCanceled', 'OrderExpired', 'OrderRejected']);

/** When each working order was placed or last modified (engine clock), from the venue's events. */
export class OrderChangeTimes {
  private readonly at = new Map<string, number>();

  /** Follows one venue event. */
  onEvent(event: OrderEvent): void {
    const id = event.clientOrderId as string;
    if (event.type === 'OrderSubmitted' || event.type === 'OrderModified') this.at.set(id, event.tsEvent);
    else if (ENDED.has(event.type)) this.at.delete(id);
  }

  /**
   * Whether `book` was made before `order` was placed (`acceptedAt`) or last modified: it says
   * nothing of the market the order meets, and is not matched against it.
   */
  older(order: { readonly clientOrderId: string; readonly acceptedAt: number }, book: PaperBook): boolean {
    const changed = this.at.get(order.clientOrderId) ?? order.acceptedAt;
    return book.askedAtMs < Math.max(changed, order.acceptedAt);
  }
}

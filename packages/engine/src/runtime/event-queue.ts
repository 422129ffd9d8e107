/**
 * Order events waiting to be routed (the runtime queues what a venue reports while a hook runs and
 * routes it after), routed in the order they came, events queued during routing included.
 *
 * @module
 */
import type { OrderEvent } from '@hoga/core';

/** A FIFO of order events whose array keeps its capacity from one drain to the next. */
export class EventQueue {
  /**
   * `events[head..tail)` wait; a routed slot is cleared so that the event is not kept (emptying
   * the array by its length would drop its store, made again at the next event).
   */
  private readonly events: (OrderEvent | undefined)[] = [];
  private head = 0;
  private tail = 0;
  private draining = false;

  /** Adds an event. */
  push(event: OrderEvent): void {
    this.events[this.tail++] = event;
  }

  /**
   * Hands every waiting event to `route`, in order, unless a drain is already under way (the
   * events it queues are routed by that drain).
   */
  drain(route: (event: OrderEvent) => void): void {
    if (this.head >= this.tail || this.draining) return;
    this.draining = true;
    try {
      while (this.head < this.tail) {
        const at = this.head++;
        const event = this.events[at] as OrderEvent;
        this.events[at] = undefined;
        route(event);
      }
      this.head = 0;
      this.tail = 0;
    } finally {
      this.draining = false;
    }
  }
}

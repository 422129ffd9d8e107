/**
 * Where order commands go after the risk gate: the broker through the order manager (live), or
 * the broker model's simulated venue (paper on live books, backtests on bars).
 *
 * @module
 */
import type { OrderEvent } from '@hoga/core';
import type { Observable } from 'rxjs';
import type { OrderCommand } from '../commands/order-commands.js';

/** Injection token of {@link ExecutionVenue}. */
export const ExecutionVenue = Symbol.for('hoga.engine.ExecutionVenue');

/** An execution venue: takes commands, reports what happened as order events (fills included). */
export interface ExecutionVenue {
  /**
   * Hands a command to the venue. Resolves once the venue has taken it (persisted and, live, sent
   * or queued); its outcome arrives on {@link ExecutionVenue.events$}. Never rejects for a business
   * refusal: that is an `OrderRejected` (or, for a command the venue cannot send, an `OrderDenied`).
   */
  execute(command: OrderCommand): Promise<void>;
  /**
   * Takes a command at once, for a venue whose work is synchronous (the simulated venue): the same
   * as {@link ExecutionVenue.execute}, without its promise; throws what `execute` would reject with.
   */
  executeNow?(command: OrderCommand): void;
  /** Every order event of this venue's orders, in the order they happened. */
  readonly events$: Observable<OrderEvent>;
  /** Stops polling and timers; pending work is flushed to the store. */
  dispose(): Promise<void>;
}

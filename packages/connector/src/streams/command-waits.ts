/**
 * Reports that wait for the order commands of this client in flight when they were first seen:
 * the broker may show what a create, modify or cancel did before its answer arrives, and only the
 * answer says which order it made. A wait ends once every such command has ended, or after
 * `holdMs` (scheduler time), so a command that never answers cannot hold a report longer.
 *
 * @module
 */

interface Wait<T> {
  /** Sequence numbers of the commands in flight when the order was first seen. */
  readonly waitFor: ReadonlySet<number>;
  /** Scheduler time after which it waits no more. */
  readonly until: number;
  /** What was given when it was first seen. */
  readonly first: T;
}

/** The waits of orders, by order id (see the module description). */
export class CommandWaits<T> {
  private readonly waits = new Map<string, Wait<T>>();

  /** @param holdMs - the longest wait */
  constructor(private readonly holdMs: number) {}

  /** How many orders wait. */
  get size(): number {
    return this.waits.size;
  }

  /** Ids of the orders that wait. */
  ids(): string[] {
    return [...this.waits.keys()];
  }

  /** Ends the wait of an order (its command answered). */
  delete(orderId: string): void {
    this.waits.delete(orderId);
  }

  /**
   * Keeps an order waiting without a command (it is decided again at its next check).
   *
   * @param orderId - the order
   * @param first - what was given when it was first seen
   * @returns true (held)
   */
  keep(orderId: string, first: T): true {
    this.waits.set(orderId, { waitFor: new Set(), until: Number.NEGATIVE_INFINITY, first });
    return true;
  }

  /**
   * Starts (first sight) or goes on with the wait of an order: `held` while a command in flight
   * when it was first seen still is and `holdMs` has not passed; once not held it is forgotten.
   *
   * @param orderId - the order
   * @param inFlight - sequence numbers of the commands in flight now
   * @param nowMs - scheduler time
   * @param first - kept from the first sight, given back in `first`
   */
  check(orderId: string, inFlight: readonly number[], nowMs: number, first: T): { held: boolean; first: T } {
    const wait = this.waits.get(orderId) ?? { waitFor: new Set(inFlight), until: nowMs + this.holdMs, first };
    if (nowMs < wait.until && inFlight.some((seq) => wait.waitFor.has(seq))) {
      this.waits.set(orderId, wait);
      return { held: true, first: wait.first };
    }
    this.waits.delete(orderId);
    return { held: false, first: wait.first };
  }
}

/**
 * The last few thousand of something (the orders that ended), kept in a fixed array: the strategy
 * host, the simulated venue and the risk book each remember recently closed orders this way, so
 * that a long run's tables do not grow with every order it ever saw.
 *
 * @module
 */

/** The last `capacity` items added, oldest overwritten first. */
export class RecentRing<T> {
  private readonly slots: (T | undefined)[];
  /** The slot of the next item (holding the oldest once the ring is full). */
  private next = 0;

  /** @param capacity - items kept (at least 1) */
  constructor(readonly capacity: number) {
    this.slots = new Array<T | undefined>(Math.max(1, capacity)).fill(undefined);
  }

  /** Adds an item; answers the one it displaced (the oldest, once the ring is full). */
  add(item: T): T | undefined {
    const slot = this.next;
    const oldest = this.slots[slot];
    this.slots[slot] = item;
    this.next = slot + 1 === this.slots.length ? 0 : slot + 1;
    return oldest;
  }

  /** The newest item `match` accepts, searched newest first; undefined when none does. */
  findNewest(match: (item: T) => boolean): T | undefined {
    const slots = this.slots;
    const size = slots.length;
    for (let k = 1; k <= size; k++) {
      const item = slots[(this.next - k + size) % size];
      if (item === undefined) return undefined;
      if (match(item)) return item;
    }
    return undefined;
  }
}

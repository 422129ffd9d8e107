/**
 * Which of two readings of a last price is the newer (`broker-market-view.ts`): a price never steps
 * back to one read earlier.
 *
 * @module
 */
import type { Decimal } from '@hoga/core';

/** A last price, stamped when its read was asked, with the broker's own time of it when known. */
export interface StampedPrice {
  readonly value: Decimal;
  /** When its read was asked (engine clock), ms. */
  readonly atMs: number;
  readonly brokerMs: number | undefined;
}

/**
 * Whether `next` is at least as new as `known`: by the broker's price timestamps when both have one
 * and they differ, else by when each read was asked (a slow answer to an earlier read is older).
 */
export function notOlder(next: StampedPrice, known: StampedPrice | undefined): boolean {
  if (known === undefined) return true;
  if (next.brokerMs !== undefined && known.brokerMs !== undefined && next.brokerMs !== known.brokerMs)
    return next.brokerMs > known.brokerMs;
  return next.atMs >= known.atMs;
}

/**
 * The brokerage's counts of orders created, modified and cancelled (refusals and replays
 * excluded), kept in the state file so a restarted simulator goes on counting.
 *
 * @module
 */
import type { BrokerageCounters } from './state-file.js';

/** Counts what the brokerage did; see the module description. */
export class OrderCounters {
  private created: number;
  private modified: number;
  private canceled: number;
  private readonly perClientOrderId: Record<string, number>;

  /** @param from - counts restored from the state file (default: all zero) */
  constructor(from?: BrokerageCounters) {
    this.created = from?.ordersCreated ?? 0;
    this.modified = from?.ordersModified ?? 0;
    this.canceled = from?.ordersCanceled ?? 0;
    this.perClientOrderId = { ...from?.ordersPerClientOrderId };
  }

  /**
   * An order was created (not a replay).
   *
   * @param clientOrderId - the id it was created with, or null
   */
  orderCreated(clientOrderId: string | null): void {
    this.created += 1;
    if (clientOrderId !== null)
      this.perClientOrderId[clientOrderId] = (this.perClientOrderId[clientOrderId] ?? 0) + 1;
  }

  /** A modify replaced an open order. */
  orderModified(): void {
    this.modified += 1;
  }

  /** A cancel closed an open order. */
  orderCanceled(): void {
    this.canceled += 1;
  }

  /** A copy of the counts. */
  snapshot(): BrokerageCounters {
    return {
      ordersCreated: this.created,
      ordersModified: this.modified,
      ordersCanceled: this.canceled,
      ordersPerClientOrderId: { ...this.perClientOrderId },
    };
  }
}

/**
 * The closing auction of paper's US limit orders at the close (`CLS`), as the broker trades them:
 * not against the book (the paper fill model leaves them alone during the session), but at the
 * regular close, at the day's closing price (its daily candle's close, read from the broker once
 * the close has passed) when that satisfies the limit, the rest canceled. Kept apart from
 * {@link PaperAccount}, which calls it from its timer tick and tells it of each accepted order.
 *
 * @module
 */
import { type OrderBook, usRegularSessionAt } from '@hoga/broker-model';
import type { BrokerClient } from '@hoga/connector';
import {
  type Clock,
  type Decimal,
  isTerminalOrderState,
  KST_ZONE,
  NEW_YORK_ZONE,
  TimeInForce,
} from '@hoga/core';
import { DateTime } from 'luxon';
import type { SimulatedVenue } from '../venue/simulated-venue.js';

/** How long after a failed or premature read of a closing price the next one is tried, ms (engine time). */
const CLOSE_RETRY_MS = 5_000;

/** What the closing auction needs of the paper account. */
export interface CloseAuctionParts {
  /** The paper account's simulated venue. */
  readonly sim: SimulatedVenue<OrderBook>;
  readonly client: Pick<BrokerClient, 'getCandles'>;
  readonly clock: Clock;
  /** Whether the paper store refuses writes (the auction waits meanwhile). */
  readonly refusing: () => boolean;
  readonly onError?: ((error: unknown, where: string) => void) | undefined;
}

/** See the module documentation. */
export class PaperCloseAuction {
  /** Working CLS orders: their regular close, and when their closing price is read next (epoch ms). */
  private readonly atClose = new Map<string, { close: number; nextTry: number }>();

  constructor(private readonly parts: CloseAuctionParts) {}

  /** Notes an accepted CLS order with the close it trades at (none outside a regular session). */
  noteAccepted(clientOrderId: string): void {
    const order = this.parts.sim.order(clientOrderId);
    if (order === undefined || order.timeInForce !== TimeInForce.CLS) return;
    const regular = usRegularSessionAt(order.acceptedAt);
    if (regular !== null) this.atClose.set(clientOrderId, { close: regular.end, nextTry: 0 });
  }

  /**
   * The closing auctions due: each working CLS order whose regular close has passed is filled at the
   * day's closing price or canceled (see {@link SimulatedVenue.closeAuction}). The price is the daily
   * candle's close of the order's trading day, read from the broker; until the broker has that
   * day's candle (or when the read fails) it is tried again a few seconds later. Call it often (the
   * run's timer tick): it does nothing while no CLS order waits.
   */
  run(): void {
    const { sim, clock, onError } = this.parts;
    // the auction waits while the store refuses writes (its price is the day's close all the same)
    if (this.atClose.size === 0 || this.parts.refusing()) return;
    const now = clock.nowMs();
    for (const [id, due] of this.atClose) {
      if (now < due.close || now < due.nextTry) continue;
      const order = sim.order(id);
      if (order === undefined || isTerminalOrderState(order.state)) {
        this.atClose.delete(id);
        continue;
      }
      due.nextTry = Number.POSITIVE_INFINITY; // one read at a time
      this.closingPrice(order.symbol, due.close).then(
        (price) => {
          if (price === null) {
            due.nextTry = clock.nowMs() + CLOSE_RETRY_MS;
            return;
          }
          this.atClose.delete(id);
          sim.closeAuction(id, price, due.close);
        },
        (error: unknown) => {
          due.nextTry = clock.nowMs() + CLOSE_RETRY_MS;
          onError?.(error, 'paper-close-auction');
        },
      );
    }
  }

  /** The closing price of `symbol` on the trading day closing at `close`, or null while the broker has none. */
  private async closingPrice(symbol: string, close: number): Promise<Decimal | null> {
    // the newest few: the day's candle is the newest until the next day's appears
    const page = await this.parts.client.getCandles(symbol, { interval: '1d', count: 5 });
    // a US daily candle is stamped at the KST midnight of its New York date
    const day = DateTime.fromMillis(close, { zone: NEW_YORK_ZONE }).toISODate();
    const candle = page.candles.find((c) => c.timestamp.setZone(KST_ZONE).toISODate() === day);
    return candle === undefined ? null : candle.closePrice;
  }
}

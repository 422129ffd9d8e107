/**
 * The order books a paper run polls: those of the symbols with working orders only, each from its
 * first working order to its last (any symbol, in the universe or not), each book matched against
 * the working orders of its symbol on the paper venue. Polling every symbol's book all run long
 * shared the market-data budget among all of them: with 200 symbols a book came every few real
 * minutes, and market orders waited that long for a fill.
 *
 * @module
 */
import type { BrokerStreams } from '@hoga/connector';
import type { Subscription } from 'rxjs';
import type { SimulatedVenue } from '../venue/simulated-venue.js';
import type { PaperBook } from './paper-book-age.js';
import { paperSession } from './paper-orders.js';
import type { LiveRunOptions } from './run-live.js';

/** See the module documentation. */
export class PaperBookPolls {
  private readonly books = new Map<string, Subscription>();
  /** The run's market-data streams, once they exist (orders restored before then wait for them). */
  private streams: BrokerStreams | null = null;

  /**
   * @param venue - the paper venue: its working orders, and where each book goes
   * @param onBook - told each book before the venue gets it (`LiveRunOptions.onBook`)
   */
  constructor(
    private readonly venue: SimulatedVenue<PaperBook>,
    private readonly onBook?: LiveRunOptions['onBook'],
  ) {}

  /** Starts polling the books of the symbols with working orders, from the run's streams. */
  attach(streams: BrokerStreams): void {
    this.streams = streams;
    this.watch();
  }

  /** Stops polling books. */
  detach(): void {
    for (const sub of this.books.values()) sub.unsubscribe();
    this.books.clear();
    this.streams = null;
  }

  /** Polls the books of the symbols with working orders now, and only those (after each event). */
  watch(): void {
    const streams = this.streams;
    if (streams === null) return;
    const venue = this.venue;
    for (const [symbol, sub] of this.books) {
      if (venue.hasWorking(symbol)) continue;
      sub.unsubscribe();
      this.books.delete(symbol);
    }
    for (const symbol of venue.workingSymbols()) {
      if (this.books.has(symbol)) continue;
      this.books.set(
        symbol,
        streams.orderbook$(symbol).subscribe((book) => {
          if (!venue.hasWorking(symbol)) return;
          // matched against the orders placed before its poll was asked (paper-book-age.ts), in
          // the session of the broker's time of the book, not of when its answer came
          const view: PaperBook = { asks: book.asks, bids: book.bids, askedAtMs: book.askedAtMs };
          this.onBook?.(symbol, view);
          venue.onMarket(symbol, view, paperSession(symbol, book.timestamp.toMillis()));
        }),
      );
    }
  }
}

/**
 * The book fill model with a memory of what it filled: the one matcher of the simulator and of
 * paper trading.
 *
 * @module
 */
import type { BookFillLimits, BookFillSlice, OrderBook } from './book-fill-model.js';
import { BookFillModel } from './book-fill-model.js';
import { BookLiquidity, type BookLiquiditySnapshot } from './book-liquidity.js';
import type { FillableOrder, FillModel } from './fill-model.js';

/**
 * Matches orders against order books as {@link BookFillModel} does, but each book's liquidity only
 * once: what a fill took from a level (or from the cross pool of resting limits) is gone for every
 * later match on the same symbol and side until the book shows that level with another volume (see
 * {@link BookLiquidity}). So two orders matched against one book share its levels, and an order
 * matched again on the same book (the simulator's matching runs within one simulated second, paper's
 * polls of a book that has not changed) finds only what is left. One instance per venue (the
 * simulator's matching engine, a paper account).
 *
 * @example
 * ```ts
 * const matcher = new BookMatcher();
 * matcher.match(order, book, now); // takes up to the 3 shares at 100
 * matcher.match(other, book, now); // the same book: nothing left at 100
 * ```
 */
export class BookMatcher implements FillModel<OrderBook> {
  private readonly model = new BookFillModel();
  private readonly liquidity = new BookLiquidity();

  /**
   * @param order - the working order (its fills so far in `filledQuantity` / `filledAmount`)
   * @param book - the symbol's book as it was read (not net of anything)
   * @param nowMs - the time stamped on the slices
   * @param limits - cash and shares caps (the cross pool is the matcher's own)
   * @returns the slices in execution order (possibly none), which the caller must book: they are
   *   taken from the book
   */
  match(
    order: FillableOrder,
    book: OrderBook,
    nowMs: number,
    limits: Omit<BookFillLimits, 'crossVolume'> = {},
  ): BookFillSlice[] {
    const net = this.liquidity.net(order.symbol, order.side, book);
    const slices = this.model.match(order, net.book, nowMs, { ...limits, crossVolume: net.crossVolume });
    this.liquidity.take(order.symbol, order.side, slices);
    return slices;
  }

  /** What the matches took, as plain JSON ({@link BookLiquidity.snapshot}). */
  snapshot(): BookLiquiditySnapshot {
    return this.liquidity.snapshot();
  }

  /** Takes back what {@link BookMatcher.snapshot} kept, before any match (paper, at its start). */
  restore(snapshot: unknown): void {
    this.liquidity.restore(snapshot);
  }
}

/**
 * What fills took from the books: the liquidity a book showed is there once, however many orders
 * and however many looks at the same book want it.
 *
 * @module
 */
import { Decimal, type OrderSide } from '@hoga/core';
import type { BookFillSlice, BookLevel, OrderBook } from './book-fill-model.js';

const ZERO = new Decimal(0);

/** What the book showed at one price (or as the cross pool) and what fills took of it since. */
interface Taken {
  readonly shown: Decimal;
  taken: Decimal;
}

/** The takings from one side of one symbol's book (the side the orders of one side trade against). */
interface SideTaken {
  levels: Map<string, Taken>;
  cross: Taken | null;
}

/** A book net of earlier takes: the levels an order may take from, and the cross pool left. */
export interface NetBook {
  readonly book: OrderBook;
  readonly crossVolume: Decimal;
}

/**
 * The liquidity the fills took, per symbol, side and price (NautilusTrader's
 * `liquidity_consumption`): a level's volume taken stays taken while the book shows that level with
 * the same volume; once it shows another volume there (a new book: the simulator draws its volumes
 * anew every simulated second, a real book moves with the market), or leaves the price out, the
 * level counts as new and whole again. The cross pool of resting limits (the best opposite level's
 * volume) is kept the same way, apart from the levels.
 */
export class BookLiquidity {
  private readonly sides = new Map<string, SideTaken>();

  /**
   * The book as an order of `side` on `symbol` finds it: the opposite side's levels, each net of
   * what earlier fills took from it, and what is left of the cross pool. The other side is left
   * out (an order never trades against it).
   */
  net(symbol: string, side: OrderSide, book: OrderBook): NetBook {
    const state = this.sideOf(symbol, side);
    const levels = side === 'BUY' ? book.asks : book.bids;
    if (!sameLevels(state.levels, levels)) {
      const fresh = new Map<string, Taken>();
      for (const level of levels) {
        const key = level.price.toFixed();
        const seen = state.levels.get(key);
        fresh.set(key, seen?.shown.eq(level.volume) ? seen : { shown: level.volume, taken: ZERO });
      }
      state.levels = fresh;
    }
    const best = levels[0]?.volume ?? ZERO;
    if (state.cross === null || !state.cross.shown.eq(best)) state.cross = { shown: best, taken: ZERO };
    const net: BookLevel[] = levels.map((level) => {
      const taken = state.levels.get(level.price.toFixed())?.taken ?? ZERO;
      return taken.isZero() ? level : { price: level.price, volume: level.volume.minus(taken) };
    });
    return {
      book: {
        asks: side === 'BUY' ? net : [],
        bids: side === 'SELL' ? net : [],
        lastPrice: book.lastPrice ?? null,
      },
      crossVolume: state.cross.shown.minus(state.cross.taken),
    };
  }

  /** Records the slices an order of `side` on `symbol` took from the book last {@link net}ted. */
  take(symbol: string, side: OrderSide, slices: readonly BookFillSlice[]): void {
    if (slices.length === 0) return;
    const state = this.sideOf(symbol, side);
    for (const slice of slices) {
      const taken = slice.source === 'cross' ? state.cross : state.levels.get(slice.price.toFixed());
      if (taken) taken.taken = taken.taken.plus(slice.quantity);
    }
  }

  private sideOf(symbol: string, side: OrderSide): SideTaken {
    const key = `${symbol}|${side}`;
    let state = this.sides.get(key);
    if (state === undefined) {
      state = { levels: new Map(), cross: null };
      this.sides.set(key, state);
    }
    return state;
  }
}

/** Whether `levels` are the prices and volumes `taken` was recorded against (nothing new). */
function sameLevels(taken: ReadonlyMap<string, Taken>, levels: readonly BookLevel[]): boolean {
  if (taken.size !== levels.length) return false;
  for (const level of levels) {
    if (!taken.get(level.price.toFixed())?.shown.eq(level.volume)) return false;
  }
  return true;
}

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

/** One side's taken liquidity as {@link BookLiquidity.snapshot} keeps it: `[price, shown, taken]` levels, the cross pool's `[shown, taken]`. */
interface SideSnapshot {
  readonly levels: [price: string, shown: string, taken: string][];
  readonly cross: [shown: string, taken: string] | null;
}

/** {@link BookLiquidity.snapshot}: by `symbol|side`. */
export type BookLiquiditySnapshot = Readonly<Record<string, SideSnapshot>>;

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

  /**
   * What was taken, as plain JSON (decimal strings): the levels and cross pools something was taken
   * from, by `symbol|side`. A venue that outlives its process (paper) keeps it with its orders, so
   * that a book it polls again after a restart is not taken twice.
   */
  snapshot(): BookLiquiditySnapshot {
    const out: Record<string, SideSnapshot> = {};
    for (const [key, state] of this.sides) {
      const levels: [string, string, string][] = [];
      for (const [price, t] of state.levels)
        if (!t.taken.isZero()) levels.push([price, t.shown.toFixed(), t.taken.toFixed()]);
      const cross = state.cross === null || state.cross.taken.isZero() ? null : state.cross;
      if (levels.length === 0 && cross === null) continue;
      out[key] = { levels, cross: cross === null ? null : [cross.shown.toFixed(), cross.taken.toFixed()] };
    }
    return out;
  }

  /**
   * Takes back what {@link BookLiquidity.snapshot} kept (before any match); a value that is not one
   * is ignored (nothing taken).
   */
  restore(snapshot: unknown): void {
    if (typeof snapshot !== 'object' || snapshot === null) return;
    for (const [key, raw] of Object.entries(snapshot as Record<string, SideSnapshot>)) {
      if (!Array.isArray(raw?.levels)) continue;
      const levels = new Map<string, Taken>();
      for (const [price, shown, taken] of raw.levels)
        levels.set(price, { shown: new Decimal(shown), taken: new Decimal(taken) });
      const cross = Array.isArray(raw.cross)
        ? { shown: new Decimal(raw.cross[0]), taken: new Decimal(raw.cross[1]) }
        : null;
      this.sides.set(key, { levels, cross });
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

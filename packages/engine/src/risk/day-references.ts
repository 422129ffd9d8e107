/**
 * What today's PnL is counted from. A position carried into a trading day counts what it made since
 * the day began, not since it was bought: per symbol the book keeps a reference price of the day
 * (the last price known before the day began: seen, or read from the minute candles when a run
 * starts by `prior-closes.ts`; else the day's first price), and per holding the quantity and average price it held when the day began.
 *
 * Today's PnL of a holding is then its realised PnL today plus
 * `(last × held − cost) − (reference × day-start quantity − day-start cost)`: with the cost each
 * holding keeps (see `bookOnHolding`), realised plus unrealised PnL is the position's whole PnL,
 * exactly, and the second term is that whole PnL as it stood when the day began.
 *
 * @module
 */
import { Decimal, type Fill } from '@hoga/core';
import { bookOnHolding, costOf, type Holding } from './risk-book-records.js';

const ZERO = new Decimal(0);

/** A symbol's reference price and the trading day it is the reference of. */
interface SymbolReference {
  dayStartMs: number;
  price: Decimal;
}

/** The reference prices of the symbols a book has a price of (or a fill of, when it sees prices). */
export class DayReferences {
  private readonly refs = new Map<string, SymbolReference>();

  /** @param last - the book's last prices (read, never written here) */
  constructor(private readonly last: ReadonlyMap<string, Decimal>) {}

  /** Symbols with a reference. */
  get size(): number {
    return this.refs.size;
  }

  /** The symbols with a reference. */
  symbols(): IterableIterator<string> {
    return this.refs.keys();
  }

  /**
   * Called before a price of `symbol` of the trading day starting at `dayStartMs` replaces its last
   * one. On a new trading day the last price (the one before the day began) becomes the day's
   * reference; a first price is its own.
   */
  beforePrice(symbol: string, price: Decimal, dayStartMs: number): void {
    this.note(symbol, this.last.get(symbol) ?? price, dayStartMs);
  }

  /** A fill's price: the reference of its day for a symbol the book has no price of. */
  noteFill(symbol: string, price: Decimal, dayStartMs: number): void {
    if (!this.last.has(symbol)) this.note(symbol, price, dayStartMs);
  }

  /** Makes `price` the symbol's reference when it has none, or only one of an earlier day. */
  private note(symbol: string, price: Decimal, dayStartMs: number): void {
    const ref = this.refs.get(symbol);
    if (ref === undefined) this.refs.set(symbol, { dayStartMs, price });
    else if (dayStartMs > ref.dayStartMs) {
      ref.price = price;
      ref.dayStartMs = dayStartMs;
    }
  }

  /**
   * The reference price of `symbol` on the trading day starting at `dayStartMs`; undefined for a
   * day before the one the book last knew (a question about the past has no reference).
   */
  reference(symbol: string, dayStartMs: number): Decimal | undefined {
    const ref = this.refs.get(symbol);
    if (ref === undefined) return undefined;
    if (ref.dayStartMs === dayStartMs) return ref.price;
    if (dayStartMs < ref.dayStartMs) return undefined;
    // the first question of a day with no price yet: the last price known is the day's reference
    ref.price = this.last.get(symbol) ?? ref.price;
    ref.dayStartMs = dayStartMs;
    return ref.price;
  }
}

/**
 * Moves a holding's day-start record to the trading day starting at `dayStartMs` when that day is
 * later (the holding as it stands is what the day began with: call it before booking the day's
 * first fill).
 */
export function rollDayStart(h: Holding, dayStartMs: number): void {
  if (dayStartMs > h.dayStartMs || Number.isNaN(h.dayStartMs)) {
    h.dayStartMs = dayStartMs;
    h.dayQuantity = h.quantity;
    h.dayAveragePrice = h.averagePrice;
    h.dayCost = costOf(h);
  }
}

/**
 * Books a fill of an earlier trading day than the holding's day-start record (a fill stamped before
 * the day began, heard after) on that record too: the day began with it.
 */
export function bookOnDayStart(h: Holding, fill: Fill): void {
  const start: Holding = {
    quantity: h.dayQuantity,
    averagePrice: h.dayAveragePrice,
    quantityInt: Number.NaN,
    averagePriceInt: Number.NaN,
    costInt: Number.NaN,
    cost: h.dayCost,
    currency: h.currency,
    dayStartMs: h.dayStartMs,
    dayQuantity: ZERO,
    dayAveragePrice: ZERO,
    dayCost: ZERO,
  };
  bookOnHolding(start, fill);
  h.dayQuantity = start.quantity;
  h.dayAveragePrice = start.averagePrice;
  h.dayCost = costOf(start);
}

/**
 * A holding's unrealised PnL today in its currency: `mark × held − cost` (what its shares are worth
 * less what they cost), less the same at the day's reference for what it held when the day began (a holding with no fill yet that day records
 * what it began the day with here). Null when it holds nothing and began the day with nothing. For
 * a day before the holding's record (a question about the past), the unrealised PnL against the
 * average price.
 *
 * @param mark - the last price (else the day's reference)
 * @param reference - the day's reference price, when known
 */
export function unrealisedToday(
  h: Holding,
  mark: Decimal,
  reference: Decimal | undefined,
  dayStartMs: number,
): Decimal | null {
  rollDayStart(h, dayStartMs);
  const carried = reference !== undefined && h.dayStartMs === dayStartMs && !h.dayQuantity.isZero();
  if (h.quantity.isZero() && !carried) return null;
  const now = h.quantity.isZero() ? ZERO : mark.times(h.quantity).minus(costOf(h));
  return carried ? now.minus(reference.times(h.dayQuantity).minus(h.dayCost)) : now;
}

/**
 * When a polled price or order book says nothing new: the connector's streams emit every poll's
 * answer (the broker has no push), so an unchanged price is read again and again; a strategy's
 * `onPrice` and `onOrderbook` get an observation once, not once per poll. Two items are the same
 * observation when everything they carry but `tsInit` (when the engine made the object) is equal.
 *
 * @module
 */
import type { BookLevel, OrderbookSnapshot, PriceTick } from '../strategy/market-events.js';

/**
 * True when `b` is the observation `a` already was: same symbol, time at the broker and price.
 *
 * @param a - the tick delivered last
 * @param b - the tick just polled
 */
export function sameTick(a: PriceTick, b: PriceTick): boolean {
  return a.symbol === b.symbol && a.tsEvent === b.tsEvent && a.price.eq(b.price);
}

/**
 * True when `b` is the snapshot `a` already was: same symbol, time at the broker and levels (price
 * and quantity, in order) on both sides.
 *
 * @param a - the book delivered last
 * @param b - the book just polled
 */
export function sameBook(a: OrderbookSnapshot, b: OrderbookSnapshot): boolean {
  return (
    a.symbol === b.symbol &&
    a.tsEvent === b.tsEvent &&
    sameLevels(a.bids, b.bids) &&
    sameLevels(a.asks, b.asks)
  );
}

function sameLevels(a: readonly BookLevel[], b: readonly BookLevel[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as BookLevel;
    const y = b[i] as BookLevel;
    if (!x.price.eq(y.price) || !x.quantity.eq(y.quantity)) return false;
  }
  return true;
}

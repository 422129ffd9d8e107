import { type Decimal, KST_ZONE, type Market, type SessionName } from '@hoga/core';
import { DateTime } from 'luxon';
import type { BookSnapshot, MarketModel } from '../market/market-model.js';

/**
 * One look at the market at one instant, shared by every order matched at
 * that instant: sessions, books and last prices are asked once per country or
 * symbol, and the volume taken from each book level is tracked, so that two
 * orders never take the same shares.
 */
export class MarketLook {
  /** The instant, in KST. */
  readonly at: DateTime;
  private readonly sessions = new Map<Market, SessionName | null>();
  private readonly books = new Map<string, BookSnapshot>();
  private readonly lasts = new Map<string, Decimal>();
  private readonly taken = new Map<string, Decimal>();

  constructor(
    private readonly market: MarketModel,
    /** The instant as epoch ms. */
    readonly atMs: number,
  ) {
    this.at = DateTime.fromMillis(atMs, { zone: KST_ZONE });
  }

  /** The order session of a country at this instant. */
  session(country: Market): SessionName | null {
    if (!this.sessions.has(country)) this.sessions.set(country, this.market.orderSession(country, this.at));
    return this.sessions.get(country) ?? null;
  }

  /** The book of a symbol at this instant. */
  book(symbol: string): BookSnapshot {
    let book = this.books.get(symbol);
    if (book === undefined) {
      book = this.market.book(symbol, this.at);
      this.books.set(symbol, book);
    }
    return book;
  }

  /** The last price of a symbol at this instant. */
  last(symbol: string): Decimal {
    let last = this.lasts.get(symbol);
    if (last === undefined) {
      last = this.market.lastPrice(symbol, this.at);
      this.lasts.set(symbol, last);
    }
    return last;
  }

  /** What is left of `volume` under `key` (a book level) after earlier takes at this instant. */
  left(key: string, volume: Decimal): Decimal {
    const taken = this.taken.get(key);
    return taken === undefined ? volume : volume.minus(taken);
  }

  /** Records a take of `quantity` under `key`. */
  take(key: string, quantity: Decimal): void {
    const taken = this.taken.get(key);
    this.taken.set(key, taken === undefined ? quantity : taken.plus(quantity));
  }
}

import { type Decimal, KST_ZONE, type Market, type SessionName } from '@hoga/core';
import { DateTime } from 'luxon';
import type { BookSnapshot, MarketModel } from '../market/market-model.js';

/**
 * One look at the market at one instant, shared by every order matched at
 * that instant: sessions, books and last prices are asked once per country or
 * symbol. (What fills took from the books is the matching engine's
 * `BookMatcher`'s to remember, across looks.)
 */
export class MarketLook {
  /** The instant, in KST. */
  readonly at: DateTime;
  private readonly sessions = new Map<Market, SessionName | null>();
  private readonly books = new Map<string, BookSnapshot>();
  private readonly lasts = new Map<string, Decimal>();

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
}

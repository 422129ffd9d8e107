/**
 * What a strategy receives besides bars: price ticks, order books and trades, as the engine hands
 * them over (mapped from the connector's streams in paper and live; absent in bar backtests).
 * Prices and sizes are `Decimal`: these arrive one at a time and may become orders.
 *
 * @module
 */
import type { Decimal } from '@hoga/core';

/**
 * The latest price of a symbol, handed to `onPrice` once: a poll that finds the same price at the
 * same `tsEvent` again makes no new tick.
 */
export interface PriceTick {
  readonly type: 'PriceUpdated';
  readonly symbol: string;
  readonly price: Decimal;
  /** When the price was observed at the broker, epoch ms. */
  readonly tsEvent: number;
  /**
   * When the engine created this object, epoch ms, on the engine clock: it may precede `tsEvent`
   * by as much as the engine's and the broker's clocks differ.
   */
  readonly tsInit: number;
}

/** One price level of a book. */
export interface BookLevel {
  readonly price: Decimal;
  readonly quantity: Decimal;
}

/**
 * An order book snapshot (best levels first); one equal to the last handed over (its time and every
 * level) is not handed over again.
 */
export interface OrderbookSnapshot {
  readonly type: 'OrderbookUpdated';
  readonly symbol: string;
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
  readonly tsEvent: number;
  readonly tsInit: number;
}

/**
 * One trade printed on the market after the subscription (the trades the broker listed before its
 * first poll are not handed over), each once, oldest first.
 */
export interface MarketTrade {
  readonly type: 'TradePrinted';
  readonly symbol: string;
  readonly price: Decimal;
  readonly quantity: Decimal;
  readonly tsEvent: number;
  readonly tsInit: number;
}

/** A timer a strategy set has fired. */
export interface TimerFired {
  readonly type: 'TimerFired';
  /** The name given to `ctx.setTimer`. */
  readonly name: string;
  /**
   * When it was due, epoch ms: a backtest's clock reads this when the hook runs; paper's and live's
   * read the time it fired, at or a little after (their timers are checked every 100 ms, real time).
   */
  readonly tsEvent: number;
  readonly tsInit: number;
}

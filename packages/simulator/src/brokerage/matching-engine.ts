import {
  BookMatcher,
  type FillableOrder,
  fillableQuantity,
  isFillComplete,
  isMarketable,
  settlementDate,
  tradeCharges,
} from '@hoga/broker-model';
import { BrokerOrderStatus, type Decimal, type KnownBrokerOrderStatus, KST_ZONE } from '@hoga/core';
import { DateTime } from 'luxon';
import type { MarketModel, SimInstrument } from '../market/market-model.js';
import type { Ledger } from './ledger.js';
import { MarketLook } from './market-look.js';
import type { SimOrder } from './order-types.js';

/** Matching looks at the market at least this often (simulated ms) between two `advance` calls. */
export const MATCH_STEP_MS = 5_000;
/** At most this many looks per `advance` call: longer gaps are sampled more coarsely. */
export const MAX_STEPS_PER_ADVANCE = 240;

/** Whether the order takes part in matching (a pending modify or cancel freezes it). */
function isWorking(order: SimOrder): boolean {
  return order.status === BrokerOrderStatus.PENDING || order.status === BrokerOrderStatus.PARTIAL_FILLED;
}

function isAmountOrder(order: SimOrder): boolean {
  return order.orderAmount !== null;
}

/** The order as the fill model sees it (an amount order's `quantity` is its filled quantity here). */
function fillable(order: SimOrder): FillableOrder {
  return {
    symbol: order.symbol,
    currency: order.currency,
    side: order.side,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    price: order.price,
    quantity: isAmountOrder(order) ? null : order.quantity,
    orderAmount: order.orderAmount,
    filledQuantity: order.filledQuantity,
    filledAmount: order.filledAmount,
    acceptedAt: order.orderedAtMs,
  };
}

/**
 * The matching engine: market orders and marketable limits walk the book
 * (oldest order first, at most each level's visible volume per book: what a
 * fill took from a level stays taken, for every order and every later step,
 * until the book shows that level with another volume, in practice the next
 * simulated second), resting limits the book does not reach fill at their
 * price when the last price crosses them (at most the best opposite level's
 * volume per book), CLS limits fill at the close, DAY orders still open at
 * the end of their trading day are cancelled.
 */
export class MatchingEngine {
  /** The one book matcher (paper trading runs its own on polled books), with what it took from each book. */
  private readonly books = new BookMatcher();

  constructor(
    private readonly market: MarketModel,
    private readonly ledgerOf: (accountSeq: number) => Ledger,
  ) {}

  /** Runs the given orders through every step after `fromMs` up to and including `toMs`. */
  advance(orders: readonly SimOrder[], fromMs: number, toMs: number): void {
    if (toMs <= fromMs || orders.length === 0) return;
    const span = toMs - fromMs;
    const steps = Math.min(MAX_STEPS_PER_ADVANCE, Math.ceil(span / MATCH_STEP_MS));
    for (let i = 1; i <= steps; i += 1) {
      const at = i === steps ? toMs : fromMs + Math.round((span * i) / steps);
      this.step(orders, at);
    }
  }

  /** One look at the market at `atMs` for every working order, oldest first. */
  step(orders: readonly SimOrder[], atMs: number): void {
    let look: MarketLook | undefined;
    for (const order of orders) {
      if (!isWorking(order) || atMs <= order.orderedAtMs) continue;
      if (order.timeInForce === 'CLS') {
        if (atMs >= order.expiresAtMs) this.closeAuction(order);
        continue;
      }
      if (atMs >= order.expiresAtMs) {
        this.close(order, BrokerOrderStatus.CANCELED, order.expiresAtMs);
        continue;
      }
      look ??= new MarketLook(this.market, atMs);
      this.match(order, look);
    }
  }

  /** Tries to fill one order against one look at the market (also used right after creation). */
  match(order: SimOrder, look: MarketLook): void {
    const instrument = this.market.instrument(order.symbol);
    if (!instrument || instrument.suspended || !isWorking(order) || order.timeInForce === 'CLS') return;
    const session = look.session(order.country);
    if (session === null) return;
    if (session !== 'regularMarket' && (order.orderType === 'MARKET' || !tradesOutsideRegular(instrument)))
      return;
    const book = look.book(order.symbol);
    let lastPrice: Decimal | null = null;
    if (order.price !== null) {
      // a limit neither the book nor the last price reaches has nothing to match
      const best = (order.side === 'BUY' ? book.asks : book.bids)[0];
      lastPrice = look.last(order.symbol);
      const reached = best !== undefined && isMarketable(order.side, order.price, best.price);
      if (!reached && !isMarketable(order.side, order.price, lastPrice)) return;
    }
    const ledger = this.ledgerOf(order.accountSeq);
    const slices = this.books.match(
      fillable(order),
      { asks: book.asks, bids: book.bids, lastPrice },
      look.atMs,
      {
        cash: ledger.cash(order.currency),
        shares: ledger.quantity(order.symbol),
      },
    );
    for (const slice of slices) this.fill(order, instrument, slice.quantity, slice.price, slice.time);
  }

  /** Closes an order (cancel, expiry, replace), keeping what it filled. */
  close(order: SimOrder, status: KnownBrokerOrderStatus, atMs: number): void {
    order.status = status;
    if (status === BrokerOrderStatus.CANCELED) order.canceledAtMs = atMs;
    if (order.filledQuantity.gt(0) && order.filledAtMs !== null) {
      order.settlementDate = settlementDate(order.country, order.filledAtMs);
    }
  }

  private closeAuction(order: SimOrder): void {
    const instrument = this.market.instrument(order.symbol);
    // the closing auction's price: the trade at the close itself (the day's official close, the
    // daily candle's close), not the last continuous trade before it
    const closeAt = DateTime.fromMillis(order.expiresAtMs, { zone: KST_ZONE });
    const closePrice = this.market.lastPrice(order.symbol, closeAt);
    const limit = order.price ?? closePrice;
    const crosses = order.side === 'BUY' ? closePrice.lte(limit) : closePrice.gte(limit);
    if (instrument && crosses) {
      const ledger = this.ledgerOf(order.accountSeq);
      const quantity = fillableQuantity(fillable(order), closePrice, order.quantity, {
        filledQuantity: order.filledQuantity,
        filledAmount: order.filledAmount,
        cash: ledger.cash(order.currency),
        shares: ledger.quantity(order.symbol),
      });
      if (quantity.gt(0)) this.fill(order, instrument, quantity, closePrice, order.expiresAtMs);
    }
    if (isWorking(order)) this.close(order, BrokerOrderStatus.CANCELED, order.expiresAtMs);
  }

  private fill(
    order: SimOrder,
    instrument: SimInstrument,
    quantity: Decimal,
    price: Decimal,
    atMs: number,
  ): void {
    const { amount, commission, tax } = tradeCharges({
      market: order.country,
      currency: order.currency,
      securityType: instrument.securityType,
      side: order.side,
      quantity,
      price,
    });
    this.ledgerOf(order.accountSeq).apply({
      symbol: order.symbol,
      currency: order.currency,
      side: order.side,
      quantity,
      amount,
      commission,
      tax,
    });
    order.filledQuantity = order.filledQuantity.plus(quantity);
    order.filledAmount = order.filledAmount.plus(amount);
    order.commission = order.commission.plus(commission);
    order.tax = order.tax.plus(tax);
    order.filledAtMs = atMs;
    if (isAmountOrder(order)) order.quantity = order.filledQuantity;
    const complete = isFillComplete(order, order.filledQuantity, order.filledAmount, price);
    if (complete) this.close(order, BrokerOrderStatus.FILLED, atMs);
    else order.status = BrokerOrderStatus.PARTIAL_FILLED;
  }
}

/** KR stocks not on the alternative exchange trade in the regular session only. */
function tradesOutsideRegular(instrument: SimInstrument): boolean {
  return instrument.country === 'US' || instrument.nxtSupported;
}

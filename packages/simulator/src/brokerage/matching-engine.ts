import { BrokerOrderStatus, Decimal, type KnownBrokerOrderStatus, KST_ZONE } from '@hoga/core';
import { DateTime } from 'luxon';
import type { BookLevel, MarketModel, SimInstrument } from '../market/market-model.js';
import { COMMISSION_RATES, commissionFor, roundCash, sellTaxFor } from './fees.js';
import type { Ledger } from './ledger.js';
import { MarketLook } from './market-look.js';
import type { SimOrder } from './order-types.js';
import { settlementDate } from './settlement.js';

/** Matching looks at the market at least this often (simulated ms) between two `advance` calls. */
export const MATCH_STEP_MS = 5_000;
/** At most this many looks per `advance` call: longer gaps are sampled more coarsely. */
export const MAX_STEPS_PER_ADVANCE = 240;
/** Smallest fractional share the broker trades. */
const SHARE_UNIT = new Decimal('0.000001');

/** Whether the order takes part in matching (a pending modify or cancel freezes it). */
function isWorking(order: SimOrder): boolean {
  return order.status === BrokerOrderStatus.PENDING || order.status === BrokerOrderStatus.PARTIAL_FILLED;
}

function isAmountOrder(order: SimOrder): boolean {
  return order.orderAmount !== null;
}

/**
 * The matching engine: market orders and marketable limits walk the book
 * (price-time, at most each level's visible volume per step), resting limits
 * fill at their price when the last price crosses them (at most the best
 * opposite level's volume per step), CLS limits fill at the close, DAY orders
 * still open at the end of their trading day are cancelled.
 */
export class MatchingEngine {
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
    if (session !== 'REGULAR' && (order.orderType === 'MARKET' || !tradesOutsideRegular(instrument))) return;
    const book = look.book(order.symbol);
    const levels = order.side === 'BUY' ? book.asks : book.bids;
    let filled = false;
    for (const level of levels) {
      if (!isWorking(order)) break;
      if (order.price !== null && !isMarketable(order, order.price, level)) break;
      const key = `${order.symbol}|${order.side}|${level.price.toFixed()}`;
      const quantity = this.fillable(order, level.price, look.left(key, level.volume));
      if (quantity.lte(0)) continue;
      look.take(key, quantity);
      this.fill(order, instrument, quantity, level.price, look.atMs);
      filled = true;
    }
    if (filled || order.price === null || !isWorking(order)) return;
    const last = look.last(order.symbol);
    const crossed = order.side === 'BUY' ? last.lte(order.price) : last.gte(order.price);
    if (!crossed) return;
    const key = `${order.symbol}|${order.side}|cross`;
    const quantity = this.fillable(order, order.price, look.left(key, levels[0]?.volume ?? new Decimal(0)));
    if (quantity.lte(0)) return;
    look.take(key, quantity);
    this.fill(order, instrument, quantity, order.price, look.atMs);
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
    const closeAt = DateTime.fromMillis(order.expiresAtMs - 1, { zone: KST_ZONE });
    const closePrice = this.market.lastPrice(order.symbol, closeAt);
    const limit = order.price ?? closePrice;
    const crosses = order.side === 'BUY' ? closePrice.lte(limit) : closePrice.gte(limit);
    if (instrument && crosses) {
      const quantity = this.fillable(order, closePrice, order.quantity);
      if (quantity.gt(0)) this.fill(order, instrument, quantity, closePrice, order.expiresAtMs);
    }
    if (isWorking(order)) this.close(order, BrokerOrderStatus.CANCELED, order.expiresAtMs);
  }

  /** How much of the order can fill at `price` given `available` volume, cash and holdings. */
  private fillable(order: SimOrder, price: Decimal, available: Decimal): Decimal {
    if (available.lte(0)) return new Decimal(0);
    const fractional = isAmountOrder(order) || !order.quantity.isInteger();
    const unit = (d: Decimal) =>
      fractional ? d.toDecimalPlaces(6, Decimal.ROUND_DOWN) : d.toDecimalPlaces(0, Decimal.ROUND_DOWN);
    let quantity = isAmountOrder(order)
      ? unit(order.orderAmount!.minus(order.filledAmount).dividedBy(price))
      : order.quantity.minus(order.filledQuantity);
    quantity = Decimal.min(quantity, unit(available));
    const ledger = this.ledgerOf(order.accountSeq);
    if (order.side === 'SELL') return Decimal.min(quantity, ledger.quantity(order.symbol));
    const perShare = price.times(COMMISSION_RATES[order.country].plus(1));
    const affordable = unit(ledger.cash(order.currency).dividedBy(perShare));
    return Decimal.max(0, Decimal.min(quantity, affordable));
  }

  private fill(
    order: SimOrder,
    instrument: SimInstrument,
    quantity: Decimal,
    price: Decimal,
    atMs: number,
  ): void {
    const amount = roundCash(order.currency, quantity.times(price));
    const commission = commissionFor(order.country, amount);
    const tax =
      order.side === 'SELL' ? sellTaxFor(order.country, instrument.securityType, amount) : new Decimal(0);
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
    const complete = isAmountOrder(order)
      ? order.orderAmount!.minus(order.filledAmount).lt(price.times(SHARE_UNIT))
      : order.filledQuantity.gte(order.quantity);
    if (complete) this.close(order, BrokerOrderStatus.FILLED, atMs);
    else order.status = BrokerOrderStatus.PARTIAL_FILLED;
  }
}

/** Whether a limit order at `limit` trades against an opposite book level. */
function isMarketable(order: SimOrder, limit: Decimal, level: BookLevel): boolean {
  return order.side === 'BUY' ? level.price.lte(limit) : level.price.gte(limit);
}

/** KR stocks not on the alternative exchange trade in the regular session only. */
function tradesOutsideRegular(instrument: SimInstrument): boolean {
  return instrument.country === 'US' || instrument.nxtSupported;
}

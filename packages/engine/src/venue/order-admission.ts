/**
 * How the simulated venue takes an order in: the intent built into the order it works (the venue's
 * own instrument, the price its cash is reserved at, its time in force and trading day), and the
 * broker's buying-power check that admits or refuses it. Kept apart from `SimulatedVenue`,
 * which owns an order's life once taken in (working, matching, filling, ending): this runs once per
 * order on arrival and never per market view, and it holds the options that only shape how an
 * order is built.
 *
 * @module
 */
import { type Ledger, reservedCash } from '@hoga/broker-model';
import {
  Decimal,
  decimalOfNumber,
  type Instrument,
  type OrderIntent,
  OrderSide,
  OrderType,
  TimeInForce,
} from '@hoga/core';
import type { DayOrderEnds } from './day-order-end.js';
import type { SimulatedOrder } from './simulated-order.js';
import type { VenueEvents } from './venue-events.js';

const ZERO = new Decimal(0);

/** The options of a simulated venue that shape the orders it builds (part of `SimulatedVenueOptions`). */
export interface OrderBuildOptions {
  /** The last known price of a symbol (market buys reserve cash at it), or undefined. */
  readonly lastPrice: (symbol: string) => number | undefined;
  /**
   * The venue's own instrument of a symbol (its real security type: ETF/ETN ticks and taxes), or
   * undefined to keep the intent's; default: the intent's.
   */
  readonly instrument?: ((symbol: string) => Instrument | undefined) | undefined;
  /**
   * Which trading day a DAY order belongs to: the one it was accepted in (`acceptance`: paper,
   * whose orders are placed in real time), or the one of the first market view it meets
   * (`first-view`, the default: a backtest's order placed at a bar's close, the day's last one
   * included, trades from the next bar on).
   */
  readonly dayOf?: 'acceptance' | 'first-view';
}

/**
 * The order the venue works for `intent`, submitted (not taken in yet) under the next broker id of
 * `events`: an amount order is a DAY order with no limit; cash is reserved at the limit, else at
 * the symbol's last price (0 when none is known); its trading day's end is known now under
 * `dayOf: 'acceptance'`, else once it meets its first market view (+∞ until then).
 *
 * @param intent - what the strategy asked for
 * @param now - when the venue took it (its acceptance time)
 * @param options - the venue's instrument and price sources, and which day a DAY order belongs to
 * @param events - the venue's events (their broker id sequence); a restored order's kept id
 * @param dayEnds - the venue's DAY order ends
 */
export function buildOrder(
  intent: OrderIntent,
  now: number,
  options: OrderBuildOptions,
  events: Pick<VenueEvents, 'nextBrokerId'>,
  dayEnds: DayOrderEnds,
): SimulatedOrder {
  const instrument = options.instrument?.(intent.instrument.symbol) ?? intent.instrument;
  const isAmount = intent.sizing === 'AMOUNT';
  const limit = intent.sizing === 'QUANTITY' && intent.orderType === OrderType.LIMIT ? intent.price : null;
  const last = options.lastPrice(instrument.symbol);
  const reservePrice = limit ?? (last === undefined ? ZERO : decimalOfNumber(last));
  const timeInForce = intent.sizing === 'AMOUNT' ? TimeInForce.DAY : intent.timeInForce;
  return {
    clientOrderId: intent.clientOrderId,
    brokerOrderId: events.nextBrokerId(),
    strategyId: intent.strategyId,
    instrument,
    symbol: instrument.symbol,
    currency: instrument.currency,
    side: intent.side,
    orderType: intent.orderType,
    timeInForce,
    price: limit,
    quantity: isAmount ? null : intent.quantity,
    orderAmount: isAmount ? intent.amount : null,
    filledQuantity: ZERO,
    filledAmount: ZERO,
    acceptedAt: now,
    reservePrice,
    state: 'SUBMITTED',
    sessionKey: undefined,
    dayEnd:
      options.dayOf === 'acceptance'
        ? dayEnds.of(instrument.symbol, timeInForce, now)
        : Number.POSITIVE_INFINITY,
    fills: 0,
  };
}

/**
 * Null when the account on `ledger` can take the order, else why not (the broker's buying-power
 * check): a sell wants that many sellable shares, a buy the cash it reserves.
 */
export function admissionRefusal(order: SimulatedOrder, ledger: Ledger): string | null {
  if (order.side === OrderSide.SELL) {
    const sellable = ledger.sellableQuantity(order.symbol);
    const wanted = order.quantity ?? ZERO;
    return wanted.gt(sellable) ? `only ${sellable.toFixed()} ${order.symbol} can be sold` : null;
  }
  const needed = reservedCash(order);
  if (ledger.affords(order.currency, needed)) return null;
  const power = ledger.buyingPower(order.currency);
  return `buying power ${power.toFixed()} ${order.currency} is below the ${needed.toFixed()} ${order.currency} this order needs`;
}

/**
 * An account's books: cash per currency, holdings with their average purchase price, and what open
 * orders hold back; moved by fills, commissions and tax with the broker's arithmetic, so its
 * figures reconcile with the broker's holdings and buying-power reports.
 *
 * @module
 */
import { type Currency, Decimal, isCurrency, type OrderSide } from '@hoga/core';
import { averagePurchasePrice } from '../economics/average-price.js';
import { floorCash, roundCash } from '../economics/cash.js';
import { type ReservingOrder, reservedCash, reservedShares } from '../economics/reservations.js';
import { LedgerError, LedgerErrorCode } from './ledger-error.js';

/** One position: quantity and average purchase price (commission excluded). */
export interface Holding {
  readonly quantity: Decimal;
  readonly averagePrice: Decimal;
}

/** A fill as the ledger books it, with its traded amount already computed. */
export interface LedgerEntry {
  readonly symbol: string;
  readonly currency: Currency;
  readonly side: OrderSide;
  readonly quantity: Decimal;
  /** Traded amount, already rounded to the currency (see `tradeCharges`). */
  readonly amount: Decimal;
  readonly commission: Decimal;
  readonly tax: Decimal;
}

/** A fill at a price: the ledger computes the traded amount (quantity × price, rounded to the currency). */
export interface LedgerFill {
  readonly symbol: string;
  readonly currency: Currency;
  readonly side: OrderSide;
  readonly quantity: Decimal;
  readonly price: Decimal;
  readonly commission: Decimal;
  /** Transaction tax; 0 when omitted. */
  readonly tax?: Decimal;
}

/** What one open order holds back, as {@link Ledger.reserve} recorded it. */
export interface Reservation {
  readonly symbol: string;
  readonly currency: Currency;
  /** Cash held back (buys), rounded up to the currency. */
  readonly cash: Decimal;
  /** Shares held back (sells). */
  readonly shares: Decimal;
}

/** A plain, JSON-ready copy of a ledger's cash and holdings (decimals as strings). */
export interface LedgerSnapshot {
  readonly cash: Record<string, string>;
  readonly holdings: Record<string, { quantity: string; averagePrice: string }>;
}

const ZERO = new Decimal(0);

/**
 * Cash per currency and holdings per symbol of one account, plus the reservations of its open
 * orders. Cash moves on each fill (no separate settlement); no currency exchange ever happens.
 * Holdings are replaced, never mutated: a {@link Holding} read earlier stays as it was.
 *
 * @example
 * ```ts
 * const ledger = new Ledger({ KRW: new Decimal(1_000_000) });
 * ledger.applyFill({ symbol: '005930', currency: 'KRW', side: 'BUY', quantity: new Decimal(10),
 *   price: new Decimal(70000), commission: new Decimal(105) });
 * ledger.cash('KRW'); // 299895
 * ledger.holding('005930'); // { quantity: 10, averagePrice: 70000 }
 * ```
 */
export class Ledger {
  private readonly cashByCurrency = new Map<Currency, Decimal>();
  private readonly positions = new Map<string, Holding>();
  private readonly reservations = new Map<string, Reservation>();
  /** Σ of the reservations' cash per currency, kept as they change (exact: Decimal sums). */
  private readonly reservedCashTotals = new Map<Currency, Decimal>();
  /** Σ of the reservations' shares per symbol, kept as they change. */
  private readonly reservedShareTotals = new Map<string, Decimal>();

  /**
   * @param cash - starting cash per currency (missing currencies hold 0)
   * @param holdings - starting holdings by symbol
   */
  constructor(
    cash: Readonly<Partial<Record<Currency, Decimal>>> = {},
    holdings: ReadonlyMap<string, Holding> = new Map(),
  ) {
    for (const [currency, amount] of Object.entries(cash) as [Currency, Decimal][]) {
      this.cashByCurrency.set(currency, amount);
    }
    for (const [symbol, holding] of holdings) {
      this.positions.set(symbol, { quantity: holding.quantity, averagePrice: holding.averagePrice });
    }
  }

  /** Cash held in a currency (0 when none). */
  cash(currency: Currency): Decimal {
    return this.cashByCurrency.get(currency) ?? ZERO;
  }

  /** The holding of a symbol, or undefined when none. */
  holding(symbol: string): Holding | undefined {
    return this.positions.get(symbol);
  }

  /** Quantity held of a symbol (0 when none). */
  quantity(symbol: string): Decimal {
    return this.positions.get(symbol)?.quantity ?? ZERO;
  }

  /** All holdings, in the order they were first bought (or given). */
  holdings(): ReadonlyMap<string, Holding> {
    return this.positions;
  }

  /** Adds (or, negative, withdraws) cash, e.g. a deposit or a dividend; rounded to the currency. */
  adjustCash(currency: Currency, delta: Decimal): void {
    this.cashByCurrency.set(currency, roundCash(currency, this.cash(currency).plus(delta)));
  }

  /**
   * Books a fill at a price: the traded amount is quantity × price rounded half up to the currency,
   * then booked as {@link Ledger.apply} does.
   *
   * @returns the entry booked (with its amount)
   */
  applyFill(fill: LedgerFill): LedgerEntry {
    const entry: LedgerEntry = {
      symbol: fill.symbol,
      currency: fill.currency,
      side: fill.side,
      quantity: fill.quantity,
      amount: roundCash(fill.currency, fill.quantity.times(fill.price)),
      commission: fill.commission,
      tax: fill.tax ?? ZERO,
    };
    this.apply(entry);
    return entry;
  }

  /**
   * Books a fill whose amount is known: a buy pays amount + commission (+ tax) and moves the average
   * purchase price; a sell receives amount − commission − tax and keeps the average price, and
   * removes the holding when it reaches 0. Cash is rounded to the currency after each booking.
   *
   * @throws {@link LedgerError} `ledger-oversold` when a sell exceeds the holding (nothing is booked)
   */
  apply(entry: LedgerEntry): void {
    const cash = this.cash(entry.currency);
    const position = this.positions.get(entry.symbol);
    if (entry.side === 'BUY') {
      this.cashByCurrency.set(
        entry.currency,
        roundCash(entry.currency, cash.minus(entry.amount).minus(entry.commission).minus(entry.tax)),
      );
      const held = position?.quantity ?? ZERO;
      this.positions.set(entry.symbol, {
        quantity: held.plus(entry.quantity),
        averagePrice: averagePurchasePrice(
          held,
          position?.averagePrice ?? ZERO,
          entry.quantity,
          entry.amount,
        ),
      });
      return;
    }
    const left = (position?.quantity ?? ZERO).minus(entry.quantity);
    if (position === undefined || left.isNegative()) {
      throw new LedgerError(
        LedgerErrorCode.OVERSOLD,
        `Ledger: sell of ${entry.quantity.toFixed()} ${entry.symbol} exceeds the holding of ${(position?.quantity ?? ZERO).toFixed()}`,
        { details: { symbol: entry.symbol } },
      );
    }
    this.cashByCurrency.set(
      entry.currency,
      roundCash(entry.currency, cash.plus(entry.amount).minus(entry.commission).minus(entry.tax)),
    );
    if (left.isZero()) this.positions.delete(entry.symbol);
    else this.positions.set(entry.symbol, { quantity: left, averagePrice: position.averagePrice });
  }

  /**
   * Records (or updates, after a fill or a modify) what an open order holds back, computed as the
   * broker does (`reservedCash` / `reservedShares`). Call again after each fill; {@link Ledger.release}
   * when the order closes.
   *
   * @param orderId - any id unique among the account's open orders
   */
  reserve(orderId: string, order: ReservingOrder): Reservation {
    const reservation: Reservation = {
      symbol: order.symbol,
      currency: order.currency,
      cash: reservedCash(order),
      shares: reservedShares(order),
    };
    this.release(orderId);
    this.reservations.set(orderId, reservation);
    this.count(reservation, 1);
    return reservation;
  }

  /** Drops what an order held back (it closed); no-op when nothing was reserved under `orderId`. */
  release(orderId: string): void {
    const reservation = this.reservations.get(orderId);
    if (reservation === undefined) return;
    this.reservations.delete(orderId);
    this.count(reservation, -1);
  }

  /** Adds a reservation to (1) or takes it from (−1) the running totals; a total back at 0 is dropped. */
  private count(r: Reservation, sign: 1 | -1): void {
    if (!r.cash.isZero()) {
      const total = this.reservedCashTotals.get(r.currency);
      const next =
        total === undefined ? r.cash.times(sign) : sign === 1 ? total.plus(r.cash) : total.minus(r.cash);
      if (next.isZero()) this.reservedCashTotals.delete(r.currency);
      else this.reservedCashTotals.set(r.currency, next);
    }
    if (!r.shares.isZero()) {
      const total = this.reservedShareTotals.get(r.symbol);
      const next =
        total === undefined
          ? r.shares.times(sign)
          : sign === 1
            ? total.plus(r.shares)
            : total.minus(r.shares);
      if (next.isZero()) this.reservedShareTotals.delete(r.symbol);
      else this.reservedShareTotals.set(r.symbol, next);
    }
  }

  /** The reservation recorded under `orderId`, if any. */
  reservation(orderId: string): Reservation | undefined {
    return this.reservations.get(orderId);
  }

  /** Cash the open orders hold back in a currency. */
  reservedCash(currency: Currency): Decimal {
    return this.reservedCashTotals.get(currency) ?? ZERO;
  }

  /** Shares of a symbol the open orders hold back. */
  reservedShares(symbol: string): Decimal {
    return this.reservedShareTotals.get(symbol) ?? ZERO;
  }

  /** Cash buying power: cash minus reservations, never below 0, rounded down to the currency. */
  buyingPower(currency: Currency): Decimal {
    const cash = this.cash(currency);
    const reserved = this.reservedCashTotals.get(currency);
    const free = reserved === undefined ? cash : cash.minus(reserved);
    return free.isNegative() ? ZERO : floorCash(currency, free);
  }

  /** Sellable quantity: the holding minus the shares reserved by open sells, never below 0. */
  sellableQuantity(symbol: string): Decimal {
    const held = this.quantity(symbol);
    const reserved = this.reservedShareTotals.get(symbol);
    if (reserved === undefined) return held;
    const free = held.minus(reserved);
    return free.isNegative() ? ZERO : free;
  }

  /** A plain copy of the cash and holdings (reservations belong to the open orders, not the books). */
  snapshot(): LedgerSnapshot {
    const cash: Record<string, string> = {};
    for (const [currency, amount] of this.cashByCurrency) cash[currency] = amount.toFixed();
    const holdings: Record<string, { quantity: string; averagePrice: string }> = {};
    for (const [symbol, h] of this.positions) {
      holdings[symbol] = { quantity: h.quantity.toFixed(), averagePrice: h.averagePrice.toFixed() };
    }
    return { cash, holdings };
  }

  /** Rebuilds a ledger from a {@link LedgerSnapshot} (without reservations). */
  static fromSnapshot(snapshot: LedgerSnapshot): Ledger {
    const cash: Partial<Record<Currency, Decimal>> = {};
    for (const [currency, amount] of Object.entries(snapshot.cash)) {
      if (!isCurrency(currency)) {
        throw new LedgerError(LedgerErrorCode.UNKNOWN_CURRENCY, `Ledger: unknown cash currency ${currency}`);
      }
      cash[currency] = new Decimal(amount);
    }
    const holdings = new Map<string, Holding>();
    for (const [symbol, h] of Object.entries(snapshot.holdings)) {
      holdings.set(symbol, { quantity: new Decimal(h.quantity), averagePrice: new Decimal(h.averagePrice) });
    }
    return new Ledger(cash, holdings);
  }
}

/**
 * An account's books: cash per currency, holdings with their average purchase price, and what open
 * orders hold back; moved by fills, commissions and tax with the broker's arithmetic, so its
 * figures reconcile with the broker's holdings and buying-power reports.
 *
 * @module
 */
import { type Currency, Decimal, exactIntOf, isCurrency, type OrderSide } from '@hoga/core';
import { averagePurchasePrice } from '../economics/average-price.js';
import { floorCash, roundCash } from '../economics/cash.js';
import { type ReservingOrder, reservedCash, reservedShares } from '../economics/reservations.js';
import { LedgerError, LedgerErrorCode } from './ledger-error.js';
import { addTo, approxOf, decOf, type Figure, setDec, setInt } from './ledger-figure.js';

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

/** A reservation with its figures as safe integers (NaN: not one). */
interface HeldReservation extends Reservation {
  readonly cashInt: number;
  readonly sharesInt: number;
}

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
  private readonly cashByCurrency = new Map<Currency, Figure>();
  private readonly positions = new Map<string, Holding>();
  private readonly reservations = new Map<string, HeldReservation>();
  /** Σ of the reservations' cash per currency, kept as they change (exact: integer or Decimal sums). */
  private readonly reservedCashTotals = new Map<Currency, Figure>();
  /** Σ of the reservations' shares per symbol, kept as they change. */
  private readonly reservedShareTotals = new Map<string, Figure>();

  /**
   * @param cash - starting cash per currency (missing currencies hold 0)
   * @param holdings - starting holdings by symbol
   */
  constructor(
    cash: Readonly<Partial<Record<Currency, Decimal>>> = {},
    holdings: ReadonlyMap<string, Holding> = new Map(),
  ) {
    for (const [currency, amount] of Object.entries(cash) as [Currency, Decimal][]) {
      this.cashByCurrency.set(currency, { int: exactIntOf(amount), dec: amount });
    }
    for (const [symbol, holding] of holdings) {
      this.positions.set(symbol, { quantity: holding.quantity, averagePrice: holding.averagePrice });
    }
  }

  /** Cash held in a currency (0 when none). */
  cash(currency: Currency): Decimal {
    const cash = this.cashByCurrency.get(currency);
    return cash === undefined ? ZERO : decOf(cash);
  }

  /** The cash figure of a currency (made, at 0, when first moved). */
  private cashFigure(currency: Currency): Figure {
    let cash = this.cashByCurrency.get(currency);
    if (cash === undefined) {
      cash = { int: 0, dec: ZERO };
      this.cashByCurrency.set(currency, cash);
    }
    return cash;
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
    setDec(this.cashFigure(currency), roundCash(currency, this.cash(currency).plus(delta)));
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
    if (this.applyInt(entry)) return;
    const cashFigure = this.cashFigure(entry.currency);
    const cash = decOf(cashFigure);
    const position = this.positions.get(entry.symbol);
    if (entry.side === 'BUY') {
      setDec(
        cashFigure,
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
    if (position === undefined || left.isNegative()) throw oversold(entry, position);
    setDec(
      cashFigure,
      roundCash(entry.currency, cash.plus(entry.amount).minus(entry.commission).minus(entry.tax)),
    );
    if (left.isZero()) this.positions.delete(entry.symbol);
    else this.positions.set(entry.symbol, { quantity: left, averagePrice: position.averagePrice });
  }

  /**
   * {@link Ledger.apply} in numbers when the cash, the entry's figures and the holding are safe
   * integers and every result is one (an integer cash needs no rounding; an average that divides
   * exactly needs none either); false, with nothing booked, otherwise.
   */
  private applyInt(entry: LedgerEntry): boolean {
    const cashFigure = this.cashByCurrency.get(entry.currency);
    const cash = cashFigure === undefined ? 0 : cashFigure.int;
    const quantity = exactIntOf(entry.quantity);
    const amount = exactIntOf(entry.amount);
    const charges = exactIntOf(entry.commission) + exactIntOf(entry.tax);
    if (!(quantity > 0) || Number.isNaN(amount) || Number.isNaN(cash)) return false;
    const position = this.positions.get(entry.symbol);
    const held = position === undefined ? 0 : exactIntOf(position.quantity);
    if (entry.side === 'BUY') {
      const nextCash = cash - amount - charges;
      const total = held + quantity;
      // (held × average + amount) / total: the held cost is 0 when flat
      const cost = position === undefined ? amount : held * exactIntOf(position.averagePrice) + amount;
      if (!Number.isSafeInteger(nextCash) || !Number.isSafeInteger(total) || !Number.isSafeInteger(cost))
        return false;
      if (cost % total !== 0) return false;
      this.setCashInt(entry.currency, cashFigure, nextCash);
      this.positions.set(entry.symbol, {
        quantity: position === undefined ? entry.quantity : new Decimal(total),
        averagePrice: new Decimal(cost / total),
      });
      return true;
    }
    const left = held - quantity;
    const nextCash = cash + amount - charges;
    if (position === undefined || !Number.isSafeInteger(left) || left < 0 || !Number.isSafeInteger(nextCash))
      return false;
    this.setCashInt(entry.currency, cashFigure, nextCash);
    if (left === 0) this.positions.delete(entry.symbol);
    else
      this.positions.set(entry.symbol, { quantity: new Decimal(left), averagePrice: position.averagePrice });
    return true;
  }

  private setCashInt(currency: Currency, figure: Figure | undefined, value: number): void {
    if (figure === undefined) this.cashByCurrency.set(currency, { int: value, dec: null });
    else setInt(figure, value);
  }

  /**
   * Records (or updates, after a fill or a modify) what an open order holds back, computed as the
   * broker does (`reservedCash` / `reservedShares`). Call again after each fill; {@link Ledger.release}
   * when the order closes.
   *
   * @param orderId - any id unique among the account's open orders
   */
  reserve(orderId: string, order: ReservingOrder): Reservation {
    const cash = reservedCash(order);
    const shares = reservedShares(order);
    const reservation: HeldReservation = {
      symbol: order.symbol,
      currency: order.currency,
      cash,
      shares,
      cashInt: exactIntOf(cash),
      sharesInt: exactIntOf(shares),
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
  private count(r: HeldReservation, sign: 1 | -1): void {
    if (!r.cash.isZero()) addTo(this.reservedCashTotals, r.currency, r.cash, r.cashInt, sign);
    if (!r.shares.isZero()) addTo(this.reservedShareTotals, r.symbol, r.shares, r.sharesInt, sign);
  }

  /** The reservation recorded under `orderId`, if any. */
  reservation(orderId: string): Reservation | undefined {
    return this.reservations.get(orderId);
  }

  /** Cash the open orders hold back in a currency. */
  reservedCash(currency: Currency): Decimal {
    const total = this.reservedCashTotals.get(currency);
    return total === undefined ? ZERO : decOf(total);
  }

  /** Shares of a symbol the open orders hold back. */
  reservedShares(symbol: string): Decimal {
    const total = this.reservedShareTotals.get(symbol);
    return total === undefined ? ZERO : decOf(total);
  }

  /** Cash buying power: cash minus reservations, never below 0, rounded down to the currency. */
  buyingPower(currency: Currency): Decimal {
    const cash = this.cash(currency);
    const reserved = this.reservedCashTotals.get(currency);
    const free = reserved === undefined ? cash : cash.minus(decOf(reserved));
    return free.isNegative() ? ZERO : floorCash(currency, free);
  }

  /**
   * The buying power in `currency` (cash minus reservations) as a double, not rounded and not
   * exact: for a quick check that an amount is clearly inside it, with a margin (`affords` is the
   * exact answer).
   */
  approxBuyingPower(currency: Currency): number {
    return approxOf(this.cashByCurrency.get(currency)) - approxOf(this.reservedCashTotals.get(currency));
  }

  /**
   * Whether the buying power in `currency` covers `amount` (`amount ≤ buyingPower(currency)`),
   * answered in numbers when the cash, the reservations and the amount are safe integers.
   *
   * @param amount - a Decimal, or a safe integer
   */
  affords(currency: Currency, amount: Decimal | number): boolean {
    const cash = this.cashByCurrency.get(currency);
    const reserved = this.reservedCashTotals.get(currency);
    const free = (cash === undefined ? 0 : cash.int) - (reserved === undefined ? 0 : reserved.int);
    const wanted = typeof amount === 'number' ? amount : exactIntOf(amount);
    // an integer free amount needs no rounding down; NaN (a figure not an integer) fails the test
    if (Number.isSafeInteger(free) && Number.isSafeInteger(wanted)) return wanted <= Math.max(free, 0);
    const decimal = typeof amount === 'number' ? new Decimal(amount) : amount;
    return !decimal.gt(this.buyingPower(currency));
  }

  /**
   * {@link sellableQuantity} as a safe integer, NaN when it is not one (a fractional holding or
   * reservation): an exact check in numbers for whole-share orders.
   */
  sellableInt(symbol: string): number {
    const held = this.positions.get(symbol);
    const reserved = this.reservedShareTotals.get(symbol);
    const free =
      (held === undefined ? 0 : exactIntOf(held.quantity)) - (reserved === undefined ? 0 : reserved.int);
    return Number.isNaN(free) ? free : Math.max(free, 0);
  }

  /** Sellable quantity: the holding minus the shares reserved by open sells, never below 0. */
  sellableQuantity(symbol: string): Decimal {
    const held = this.quantity(symbol);
    const reserved = this.reservedShareTotals.get(symbol);
    if (reserved === undefined) return held;
    const free = held.minus(decOf(reserved));
    return free.isNegative() ? ZERO : free;
  }

  /** A plain copy of the cash and holdings (reservations belong to the open orders, not the books). */
  snapshot(): LedgerSnapshot {
    const cash: Record<string, string> = {};
    for (const [currency, amount] of this.cashByCurrency) cash[currency] = decOf(amount).toFixed();
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

function oversold(entry: LedgerEntry, position: Holding | undefined): LedgerError {
  return new LedgerError(
    LedgerErrorCode.OVERSOLD,
    `Ledger: sell of ${entry.quantity.toFixed()} ${entry.symbol} exceeds the holding of ${(position?.quantity ?? ZERO).toFixed()}`,
    { details: { symbol: entry.symbol } },
  );
}

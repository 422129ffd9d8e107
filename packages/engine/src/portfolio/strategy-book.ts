/**
 * One strategy's books: its positions from its own fills, its cash per currency, realized PnL,
 * commissions and taxes. Arithmetic is the broker's (`@hoga/broker-model`): traded amounts rounded
 * to the currency, average purchase prices rounded as the broker rounds holdings. Each position also
 * keeps what its shares cost, unrounded, so that the realized and unrealized PnL add up to what the
 * cash and the positions' value moved by.
 *
 * Every figure is kept as a number while it is a safe integer (KRW amounts and whole-share
 * quantities always are, in any realistic account): a fill of such figures is booked with number
 * arithmetic, exact below 2^53, and the Decimal of a figure is made only when it is read. A figure
 * that stops being a safe integer (a USD cent, a fractional share, an average with decimals) goes
 * on as a Decimal, as before.
 *
 * @module
 */
import { AVERAGE_PURCHASE_PRICE_PLACES, averagePurchasePrice, roundCash } from '@hoga/broker-model';
import { type Currency, Decimal, decimalOfNumber, exactIntOf, type Fill } from '@hoga/core';
import { addExact, mulExact, subExact } from '../risk/exact-int.js';
import type { PositionView } from '../strategy/strategy-context.js';
import type { MarkBook } from './mark-book.js';

const ZERO = new Decimal(0);

/**
 * A figure held as a safe integer (`int`, its Decimal made when first read) or, when it is not
 * one, as a Decimal (`int` NaN).
 */
interface Figure {
  int: number;
  dec: Decimal | null;
}

function decOf(f: Figure): Decimal {
  if (f.dec === null) f.dec = decimalOfNumber(f.int);
  return f.dec;
}

function setInt(f: Figure, int: number): void {
  f.int = int;
  f.dec = null;
}

function setDec(f: Figure, value: Decimal): void {
  f.int = exactIntOf(value);
  f.dec = value;
}

/** Mutable position inside a {@link StrategyBook}. */
interface PositionState {
  readonly symbol: string;
  readonly currency: Currency;
  readonly quantity: Figure;
  readonly averagePrice: Figure;
  /**
   * What the shares held cost: the buys' amounts less what the sells released (each partial sell
   * its quantity at the average price, the sell that closes the rest), so that the realized PnL of
   * a position bought and sold off is what its cash moved by, however the average was rounded.
   */
  readonly cost: Figure;
  readonly realizedPnl: Figure;
  /** Quantity as a number, for valuation on the hot path. */
  quantityNumber: number;
  /** The symbol's slot in the mark book the book is valued with (-1: not looked up yet). */
  markSlot: number;
}

/** Figures of one currency. */
interface CurrencyState {
  readonly cash: Figure;
  readonly realized: Figure;
  readonly commissions: Figure;
  readonly taxes: Figure;
  /** What the account's shares a `fromAccount` sell took past the position brought in (their amount). */
  readonly brought: Figure;
}

/** Totals of one currency. */
export interface CurrencyTotals {
  readonly cash: Decimal;
  readonly realizedPnl: Decimal;
  readonly commissions: Decimal;
  readonly taxes: Decimal;
}

/** The books of one strategy. */
export class StrategyBook {
  private readonly positionsBySymbol = new Map<string, PositionState>();
  private readonly currencies = new Map<Currency, CurrencyState>();
  /** The positions in the order first booked (the map's order), walked on every valuation. */
  private readonly positionList: PositionState[] = [];
  /** The mark book the positions' `markSlot`s belong to. */
  private slotsOf: MarkBook | undefined;
  /** Cash as numbers (KRW, USD), for valuation on the hot path. */
  cashKrw = 0;
  cashUsd = 0;
  /**
   * What the account's shares sold by this strategy's `fromAccount` sells brought in (KRW, USD, as
   * numbers): cash of the strategy, but the account's before the run, not a gain of it.
   */
  broughtKrw = 0;
  broughtUsd = 0;

  /** @param startingCash - the strategy's allocation per currency */
  constructor(startingCash: Readonly<Partial<Record<Currency, Decimal>>>) {
    for (const [currency, amount] of Object.entries(startingCash) as [Currency, Decimal][]) {
      setDec(this.currency(currency).cash, amount);
    }
    this.cashKrw = this.cash('KRW').toNumber();
    this.cashUsd = this.cash('USD').toNumber();
  }

  /** Books one of the strategy's fills. */
  apply(fill: Fill, currency: Currency): void {
    const totals = this.currency(currency);
    let position = this.positionsBySymbol.get(fill.symbol);
    if (fill.side === 'BUY' && position === undefined) {
      position = {
        symbol: fill.symbol,
        currency,
        quantity: { int: 0, dec: ZERO },
        averagePrice: { int: 0, dec: ZERO },
        cost: { int: 0, dec: ZERO },
        realizedPnl: { int: 0, dec: ZERO },
        quantityNumber: 0,
        markSlot: -1,
      };
      this.positionsBySymbol.set(fill.symbol, position);
      this.positionList.push(position);
    }
    if (!this.applyExact(fill, totals, position)) this.applyDecimal(fill, currency, totals, position);
    if (position !== undefined) {
      const q = position.quantity;
      position.quantityNumber = Number.isNaN(q.int) ? decOf(q).toNumber() : q.int;
    }
    const cash = totals.cash;
    const cashNumber = Number.isNaN(cash.int) ? decOf(cash).toNumber() : cash.int;
    if (currency === 'KRW') this.cashKrw = cashNumber;
    else this.cashUsd = cashNumber;
  }

  /**
   * Books a fill in numbers when every figure it touches is a safe integer and stays one; false
   * (nothing booked) otherwise. The figures are those {@link StrategyBook.applyDecimal} computes:
   * an integer amount needs no cash rounding, and a flat position's average of an integer amount is
   * the fill price.
   */
  private applyExact(fill: Fill, totals: CurrencyState, position: PositionState | undefined): boolean {
    const quantity = exactIntOf(fill.quantity);
    const price = exactIntOf(fill.price);
    const commission = exactIntOf(fill.commission.amount);
    const tax = fill.tax === undefined ? 0 : exactIntOf(fill.tax.amount);
    const amount = mulExact(quantity, price);
    const charges = addExact(commission, tax);
    if (Number.isNaN(amount) || Number.isNaN(charges) || quantity === 0) return false;
    const commissions = addExact(totals.commissions.int, commission);
    const taxes = addExact(totals.taxes.int, tax);
    if (Number.isNaN(commissions) || Number.isNaN(taxes)) return false;
    if (fill.side === 'BUY') {
      const p = position as PositionState;
      const cash = subExact(subExact(totals.cash.int, amount), charges);
      const held = p.quantity.int;
      const bought = addExact(held, quantity);
      const cost = held === 0 ? amount : addExact(p.cost.int, amount);
      if (Number.isNaN(cash) || Number.isNaN(bought) || Number.isNaN(cost)) return false;
      let average = price;
      if (held !== 0) {
        // (held × average + amount) / (held + bought), exact when it divides
        const heldCost = addExact(mulExact(held, p.averagePrice.int), amount);
        if (Number.isNaN(heldCost) || heldCost % bought !== 0) return false;
        average = heldCost / bought;
      }
      setInt(totals.cash, cash);
      setInt(p.quantity, bought);
      setInt(p.cost, cost);
      if (average !== p.averagePrice.int) setInt(p.averagePrice, average);
    } else {
      const cash = subExact(addExact(totals.cash.int, amount), charges);
      if (Number.isNaN(cash)) return false;
      // a sell of the account's shares alone (`fromAccount`, nothing held): the general path books it
      if (position === undefined) return false;
      const left = subExact(position.quantity.int, quantity);
      // the sell that closes releases the rest of the cost, a partial one its quantity at the average
      const released = left === 0 ? position.cost.int : mulExact(position.averagePrice.int, quantity);
      const gain = subExact(amount, released);
      const pnl = addExact(position.realizedPnl.int, gain);
      const realized = addExact(totals.realized.int, gain);
      const cost = subExact(position.cost.int, released);
      // a sell past the position (of the account's shares too): the general path books it
      if (
        Number.isNaN(pnl) ||
        Number.isNaN(realized) ||
        Number.isNaN(cost) ||
        Number.isNaN(left) ||
        left < 0
      ) {
        return false;
      }
      setInt(position.realizedPnl, pnl);
      setInt(totals.realized, realized);
      setInt(position.quantity, left);
      setInt(position.cost, cost);
      setInt(totals.cash, cash);
    }
    setInt(totals.commissions, commissions);
    if (tax !== 0) setInt(totals.taxes, taxes);
    return true;
  }

  /** Books a fill in Decimals (the general path). */
  private applyDecimal(
    fill: Fill,
    currency: Currency,
    totals: CurrencyState,
    position: PositionState | undefined,
  ): void {
    const product = fill.quantity.times(fill.price);
    const amount = roundCash(currency, product);
    const commission = fill.commission.amount;
    const tax = fill.tax?.amount ?? ZERO;
    const cash = decOf(totals.cash);
    if (fill.side === 'BUY') {
      const p = position as PositionState;
      setDec(totals.cash, roundCash(currency, cash.minus(amount).minus(commission).minus(tax)));
      const held = decOf(p.quantity);
      setDec(
        p.averagePrice,
        held.isZero() && exactAverage(fill, product, amount)
          ? fill.price
          : averagePurchasePrice(held, decOf(p.averagePrice), fill.quantity, amount),
      );
      setDec(p.quantity, held.plus(fill.quantity));
      setDec(p.cost, held.isZero() ? amount : decOf(p.cost).plus(amount));
    } else {
      setDec(totals.cash, roundCash(currency, cash.plus(amount).minus(commission).minus(tax)));
      if (position === undefined) this.bring(currency, totals, amount);
      else {
        // a sell that took the account's shares too (`fromAccount`) sold only the position of its own:
        // its gain is on those, and the position ends flat, never short
        const held = decOf(position.quantity);
        const own = fill.quantity.gt(held) ? Decimal.max(ZERO, held) : fill.quantity;
        const proceeds = own === fill.quantity ? amount : roundCash(currency, own.times(fill.price));
        // the sell that closes releases the rest of the cost, a partial one its quantity at the average
        const cost = decOf(position.cost);
        const released = own.eq(held) ? cost : decOf(position.averagePrice).times(own);
        const gain = proceeds.minus(released);
        setDec(position.realizedPnl, decOf(position.realizedPnl).plus(gain));
        setDec(totals.realized, decOf(totals.realized).plus(gain));
        setDec(position.quantity, held.minus(own));
        setDec(position.cost, cost.minus(released));
        if (own !== fill.quantity) this.bring(currency, totals, amount.minus(proceeds));
      }
    }
    setDec(totals.commissions, decOf(totals.commissions).plus(commission));
    if (!tax.isZero()) setDec(totals.taxes, decOf(totals.taxes).plus(tax));
  }

  /** Books what the account's shares a sell took past the position brought in. */
  private bring(currency: Currency, totals: CurrencyState, amount: Decimal): void {
    setDec(totals.brought, decOf(totals.brought).plus(amount));
    const n = decOf(totals.brought).toNumber();
    if (currency === 'KRW') this.broughtKrw = n;
    else this.broughtUsd = n;
  }

  /**
   * What the account's shares this strategy sold (`fromAccount`, past its position) brought in, in
   * a currency: part of its cash, the account's before the run.
   */
  brought(currency: Currency): Decimal {
    const totals = this.currencies.get(currency);
    return totals === undefined ? ZERO : decOf(totals.brought);
  }

  /** Cash in a currency. */
  cash(currency: Currency): Decimal {
    const totals = this.currencies.get(currency);
    return totals === undefined ? ZERO : decOf(totals.cash);
  }

  /** The open position of `symbol`, or undefined when flat. */
  position(symbol: string): PositionView | undefined {
    const p = this.positionsBySymbol.get(symbol);
    return p === undefined || isFlat(p) ? undefined : view(p);
  }

  /** Every open position. */
  positions(): PositionView[] {
    const out: PositionView[] = [];
    for (const p of this.positionsBySymbol.values()) if (!isFlat(p)) out.push(view(p));
    return out;
  }

  /** Totals of a currency: cash, realized PnL (before charges), commissions and taxes. */
  totals(currency: Currency): CurrencyTotals {
    const totals = this.currencies.get(currency);
    if (totals === undefined) return { cash: ZERO, realizedPnl: ZERO, commissions: ZERO, taxes: ZERO };
    return {
      cash: decOf(totals.cash),
      realizedPnl: decOf(totals.realized),
      commissions: decOf(totals.commissions),
      taxes: decOf(totals.taxes),
    };
  }

  /**
   * Unrealized PnL of a currency at the given marks: Σ quantity × mark − what the shares held cost
   * (quantity × average price, less the average's rounding), so that realized + unrealized −
   * charges is what the equity moved by.
   *
   * @param mark - last price of a symbol (undefined: the position counts zero)
   */
  unrealizedPnl(currency: Currency, mark: (symbol: string) => number | undefined): Decimal {
    let sum = ZERO;
    for (const p of this.positionsBySymbol.values()) {
      if (p.currency !== currency || isFlat(p)) continue;
      const m = mark(p.symbol);
      if (m !== undefined) {
        sum = sum.plus(new Decimal(m).times(decOf(p.quantity)).minus(decOf(p.cost)));
      }
    }
    return sum;
  }

  /**
   * Total value in KRW as a number: cash plus positions at their marks, USD through `usdKrw`.
   *
   * @param mark - last price of a symbol (undefined: valued at its average price)
   */
  equityKrw(mark: (symbol: string) => number | undefined, usdKrw: number): number {
    let krw = this.cashKrw;
    let usd = this.cashUsd;
    for (const p of this.positionsBySymbol.values()) {
      if (p.quantityNumber === 0) continue;
      const value = p.quantityNumber * (mark(p.symbol) ?? averageNumber(p));
      if (p.currency === 'KRW') krw += value;
      else usd += value;
    }
    return krw + usd * usdKrw;
  }

  /**
   * {@link StrategyBook.equityKrw} at the last prices of a mark book, read from its slots (each
   * position's slot looked up once), in the same order and with the same sums.
   */
  equityKrwAt(marks: MarkBook, usdKrw: number): number {
    if (this.slotsOf !== marks) {
      for (const p of this.positionList) p.markSlot = -1;
      this.slotsOf = marks;
    }
    let krw = this.cashKrw;
    let usd = this.cashUsd;
    const list = this.positionList;
    for (let i = 0; i < list.length; i++) {
      const p = list[i] as PositionState;
      if (p.quantityNumber === 0) continue;
      if (p.markSlot < 0) p.markSlot = marks.slot(p.symbol);
      // read after the slot: a new slot can grow the array
      const m = marks.values[p.markSlot] as number;
      const value = p.quantityNumber * (Number.isNaN(m) ? averageNumber(p) : m);
      if (p.currency === 'KRW') krw += value;
      else usd += value;
    }
    return krw + usd * usdKrw;
  }

  private currency(currency: Currency): CurrencyState {
    let totals = this.currencies.get(currency);
    if (totals === undefined) {
      totals = {
        cash: { int: 0, dec: ZERO },
        realized: { int: 0, dec: ZERO },
        commissions: { int: 0, dec: ZERO },
        taxes: { int: 0, dec: ZERO },
        brought: { int: 0, dec: ZERO },
      };
      this.currencies.set(currency, totals);
    }
    return totals;
  }
}

function isFlat(p: PositionState): boolean {
  return p.quantity.int === 0 || (Number.isNaN(p.quantity.int) && decOf(p.quantity).isZero());
}

function averageNumber(p: PositionState): number {
  return Number.isNaN(p.averagePrice.int) ? decOf(p.averagePrice).toNumber() : p.averagePrice.int;
}

function view(p: PositionState): PositionView {
  return {
    symbol: p.symbol,
    currency: p.currency,
    quantity: decOf(p.quantity),
    averagePrice: decOf(p.averagePrice),
    realizedPnl: decOf(p.realizedPnl),
  };
}

/**
 * Whether a buy into a flat position averages at exactly its fill price: `amount / quantity`
 * rounded to the average's places is the price itself when the amount is the exact product
 * (no cash rounding, no digit lost to the precision) and the price has no more places than the
 * average keeps. Spares the division on the common path.
 */
function exactAverage(fill: Fill, product: Decimal, amount: Decimal): boolean {
  return (
    !fill.quantity.isZero() &&
    fill.price.decimalPlaces() <= AVERAGE_PURCHASE_PRICE_PLACES &&
    fill.quantity.sd() + fill.price.sd() <= Decimal.precision &&
    amount.eq(product)
  );
}

/**
 * One strategy's books: its positions from its own fills, its cash per currency, realized PnL,
 * commissions and taxes. Arithmetic is the broker's (`@hoga/broker-model`): traded amounts rounded
 * to the currency, average purchase prices rounded as the broker rounds holdings.
 *
 * @module
 */
import { AVERAGE_PURCHASE_PRICE_PLACES, averagePurchasePrice, roundCash } from '@hoga/broker-model';
import { type Currency, Decimal, type Fill } from '@hoga/core';
import type { PositionView } from '../strategy/strategy-context.js';

const ZERO = new Decimal(0);

/** Mutable position inside a {@link StrategyBook}. */
interface PositionState {
  readonly symbol: string;
  readonly currency: Currency;
  quantity: Decimal;
  averagePrice: Decimal;
  realizedPnl: Decimal;
  /** Quantity as a number, for valuation on the hot path. */
  quantityNumber: number;
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
  private readonly cashByCurrency = new Map<Currency, Decimal>();
  private readonly realized = new Map<Currency, Decimal>();
  private readonly commissionTotals = new Map<Currency, Decimal>();
  private readonly taxTotals = new Map<Currency, Decimal>();
  /** Cash as numbers (KRW, USD), for valuation on the hot path. */
  cashKrw = 0;
  cashUsd = 0;

  /** @param startingCash - the strategy's allocation per currency */
  constructor(startingCash: Readonly<Partial<Record<Currency, Decimal>>>) {
    for (const [currency, amount] of Object.entries(startingCash) as [Currency, Decimal][]) {
      this.cashByCurrency.set(currency, amount);
    }
    this.syncCash();
  }

  /** Books one of the strategy's fills. */
  apply(fill: Fill, currency: Currency): void {
    const product = fill.quantity.times(fill.price);
    const amount = roundCash(currency, product);
    const commission = fill.commission.amount;
    const tax = fill.tax?.amount ?? ZERO;
    const cash = this.cash(currency);
    let position = this.positionsBySymbol.get(fill.symbol);
    if (fill.side === 'BUY') {
      this.cashByCurrency.set(currency, roundCash(currency, cash.minus(amount).minus(commission).minus(tax)));
      if (position === undefined) {
        position = {
          symbol: fill.symbol,
          currency,
          quantity: ZERO,
          averagePrice: ZERO,
          realizedPnl: ZERO,
          quantityNumber: 0,
        };
        this.positionsBySymbol.set(fill.symbol, position);
      }
      position.averagePrice =
        position.quantity.isZero() && exactAverage(fill, product, amount)
          ? fill.price
          : averagePurchasePrice(position.quantity, position.averagePrice, fill.quantity, amount);
      position.quantity = position.quantity.plus(fill.quantity);
    } else {
      this.cashByCurrency.set(currency, roundCash(currency, cash.plus(amount).minus(commission).minus(tax)));
      if (position !== undefined) {
        const gain = amount.minus(position.averagePrice.times(fill.quantity));
        position.realizedPnl = position.realizedPnl.plus(gain);
        this.realized.set(currency, (this.realized.get(currency) ?? ZERO).plus(gain));
        position.quantity = position.quantity.minus(fill.quantity);
      }
    }
    if (position !== undefined) position.quantityNumber = position.quantity.toNumber();
    this.commissionTotals.set(currency, (this.commissionTotals.get(currency) ?? ZERO).plus(commission));
    if (!tax.isZero()) this.taxTotals.set(currency, (this.taxTotals.get(currency) ?? ZERO).plus(tax));
    if (currency === 'KRW') this.cashKrw = this.cash('KRW').toNumber();
    else this.cashUsd = this.cash('USD').toNumber();
  }

  /** Cash in a currency. */
  cash(currency: Currency): Decimal {
    return this.cashByCurrency.get(currency) ?? ZERO;
  }

  /** The open position of `symbol`, or undefined when flat. */
  position(symbol: string): PositionView | undefined {
    const p = this.positionsBySymbol.get(symbol);
    return p === undefined || p.quantity.isZero() ? undefined : view(p);
  }

  /** Every open position. */
  positions(): PositionView[] {
    const out: PositionView[] = [];
    for (const p of this.positionsBySymbol.values()) if (!p.quantity.isZero()) out.push(view(p));
    return out;
  }

  /** Totals of a currency: cash, realized PnL (before charges), commissions and taxes. */
  totals(currency: Currency): CurrencyTotals {
    return {
      cash: this.cash(currency),
      realizedPnl: this.realized.get(currency) ?? ZERO,
      commissions: this.commissionTotals.get(currency) ?? ZERO,
      taxes: this.taxTotals.get(currency) ?? ZERO,
    };
  }

  /**
   * Unrealized PnL of a currency at the given marks: Σ quantity × (mark − average price).
   *
   * @param mark - last price of a symbol (undefined: valued at its average price)
   */
  unrealizedPnl(currency: Currency, mark: (symbol: string) => number | undefined): Decimal {
    let sum = ZERO;
    for (const p of this.positionsBySymbol.values()) {
      if (p.currency !== currency || p.quantity.isZero()) continue;
      const m = mark(p.symbol);
      if (m !== undefined) sum = sum.plus(new Decimal(m).minus(p.averagePrice).times(p.quantity));
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
      const value = p.quantityNumber * (mark(p.symbol) ?? p.averagePrice.toNumber());
      if (p.currency === 'KRW') krw += value;
      else usd += value;
    }
    return krw + usd * usdKrw;
  }

  private syncCash(): void {
    this.cashKrw = this.cash('KRW').toNumber();
    this.cashUsd = this.cash('USD').toNumber();
  }
}

function view(p: PositionState): PositionView {
  return {
    symbol: p.symbol,
    currency: p.currency,
    quantity: p.quantity,
    averagePrice: p.averagePrice,
    realizedPnl: p.realizedPnl,
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

import { type Currency, Decimal } from '@hoga/core';
import { roundCash } from './fees.js';

/** One position of an account: quantity and average purchase price (commission excluded). */
export interface Holding {
  quantity: Decimal;
  averagePrice: Decimal;
}

/** A fill as the ledger books it. */
export interface LedgerFill {
  readonly symbol: string;
  readonly currency: Currency;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: Decimal;
  /** Traded amount, already rounded to the currency. */
  readonly amount: Decimal;
  readonly commission: Decimal;
  readonly tax: Decimal;
}

/**
 * Cash per currency and holdings per symbol of one account. Cash moves on each
 * fill (no separate settlement); no automatic currency exchange ever happens.
 */
export class Ledger {
  private readonly cashByCurrency = new Map<Currency, Decimal>();
  private readonly positions = new Map<string, Holding>();

  constructor(cash: Readonly<Record<Currency, Decimal>>, holdings: ReadonlyMap<string, Holding> = new Map()) {
    for (const [currency, amount] of Object.entries(cash) as [Currency, Decimal][]) {
      this.cashByCurrency.set(currency, amount);
    }
    for (const [symbol, holding] of holdings) {
      this.positions.set(symbol, { quantity: holding.quantity, averagePrice: holding.averagePrice });
    }
  }

  /** Cash held in a currency. */
  cash(currency: Currency): Decimal {
    return this.cashByCurrency.get(currency) ?? new Decimal(0);
  }

  /** The holding of a symbol, or undefined when none. */
  holding(symbol: string): Holding | undefined {
    return this.positions.get(symbol);
  }

  /** Quantity held of a symbol (0 when none). */
  quantity(symbol: string): Decimal {
    return this.positions.get(symbol)?.quantity ?? new Decimal(0);
  }

  /** All holdings, in insertion order. */
  holdings(): ReadonlyMap<string, Readonly<Holding>> {
    return this.positions;
  }

  /**
   * Books a fill: a buy pays amount + commission and raises the average price;
   * a sell receives amount − commission − tax and keeps the average price.
   */
  apply(fill: LedgerFill): void {
    const cash = this.cash(fill.currency);
    const position = this.positions.get(fill.symbol);
    if (fill.side === 'BUY') {
      this.cashByCurrency.set(
        fill.currency,
        roundCash(fill.currency, cash.minus(fill.amount).minus(fill.commission)),
      );
      const held = position?.quantity ?? new Decimal(0);
      const cost = position ? position.averagePrice.times(held) : new Decimal(0);
      const quantity = held.plus(fill.quantity);
      this.positions.set(fill.symbol, {
        quantity,
        averagePrice: cost.plus(fill.amount).dividedBy(quantity).toDecimalPlaces(4, Decimal.ROUND_HALF_UP),
      });
      return;
    }
    this.cashByCurrency.set(
      fill.currency,
      roundCash(fill.currency, cash.plus(fill.amount).minus(fill.commission).minus(fill.tax)),
    );
    if (!position) throw new Error(`Ledger: sell of ${fill.symbol} without a holding`);
    const quantity = position.quantity.minus(fill.quantity);
    if (quantity.isNegative()) throw new Error(`Ledger: sell of ${fill.symbol} beyond the holding`);
    if (quantity.isZero()) this.positions.delete(fill.symbol);
    else position.quantity = quantity;
  }

  /** Plain snapshot for the state file. */
  snapshot(): {
    cash: Record<string, string>;
    holdings: Record<string, { quantity: string; averagePrice: string }>;
  } {
    const cash: Record<string, string> = {};
    for (const [currency, amount] of this.cashByCurrency) cash[currency] = amount.toFixed();
    const holdings: Record<string, { quantity: string; averagePrice: string }> = {};
    for (const [symbol, h] of this.positions) {
      holdings[symbol] = { quantity: h.quantity.toFixed(), averagePrice: h.averagePrice.toFixed() };
    }
    return { cash, holdings };
  }
}

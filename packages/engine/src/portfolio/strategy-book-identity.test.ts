/**
 * The books over long random sequences of fills (KRW and USD, whole and fractional quantities,
 * partial sells, closes and re-opens), against a plain-Decimal reference of the same rules: the
 * number path and the Decimal path book the same figures, and realized + unrealized − commissions −
 * taxes is always what the cash and the positions' value moved by. Before, the average's rounding
 * (4 places) stayed in the realized and unrealized PnL, and the identity missed by it.
 */
import { averagePurchasePrice, roundCash } from '@hoga/broker-model';
import { type BrokerOrderId, type ClientOrderId, type Currency, Decimal, type Fill, Money } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { StrategyBook } from './strategy-book.js';

const START: Record<Currency, Decimal> = { KRW: new Decimal(100_000_000), USD: new Decimal(100_000) };
const currencyOf = (symbol: string): Currency => (symbol.startsWith('U') ? 'USD' : 'KRW');
const mark = (symbol: string): number => (symbol.startsWith('U') ? 55.5 : 4321);

interface RefPosition {
  quantity: Decimal;
  average: Decimal;
  cost: Decimal;
}

/** The rules in plain Decimals: amounts to the currency, the broker's average, cost released. */
class Reference {
  readonly cash = new Map<Currency, Decimal>(Object.entries(START) as [Currency, Decimal][]);
  readonly positions = new Map<string, RefPosition>();
  readonly realized = new Map<Currency, Decimal>();

  apply(f: Fill, c: Currency): void {
    const amount = roundCash(c, f.quantity.times(f.price));
    const charges = f.commission.amount.plus(f.tax?.amount ?? 0);
    const cash = this.cash.get(c) as Decimal;
    const p = this.positions.get(f.symbol) ?? {
      quantity: new Decimal(0),
      average: new Decimal(0),
      cost: new Decimal(0),
    };
    this.positions.set(f.symbol, p);
    if (f.side === 'BUY') {
      this.cash.set(c, cash.minus(amount).minus(charges));
      p.average = averagePurchasePrice(p.quantity, p.average, f.quantity, amount);
      p.quantity = p.quantity.plus(f.quantity);
      p.cost = p.cost.plus(amount);
      return;
    }
    this.cash.set(c, cash.plus(amount).minus(charges));
    const released = f.quantity.eq(p.quantity) ? p.cost : p.average.times(f.quantity);
    this.realized.set(c, (this.realized.get(c) ?? new Decimal(0)).plus(amount.minus(released)));
    p.cost = p.cost.minus(released);
    p.quantity = p.quantity.minus(f.quantity);
  }
}

let seed = 12345;
function random(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

function fill(
  side: 'BUY' | 'SELL',
  symbol: string,
  quantity: Decimal,
  price: Decimal,
  commission: Decimal,
  tax: Decimal,
): Fill {
  const c = currencyOf(symbol);
  return {
    fillId: 'f',
    clientOrderId: 'c' as ClientOrderId,
    brokerOrderId: 'b' as BrokerOrderId,
    symbol,
    side,
    quantity,
    price,
    commission: Money.of(commission, c),
    tax: Money.of(tax, c),
    cumulativeQuantity: quantity,
    tsEvent: 0,
  };
}

/** A random fill: a buy, or a sell of all, of part (whole or, in USD, fractional) of the holding. */
function randomFill(ref: Reference): Fill {
  const usd = random() < 0.4;
  const symbol = (usd ? 'U' : 'K') + Math.floor(random() * 2);
  const held = ref.positions.get(symbol)?.quantity ?? new Decimal(0);
  const price = usd
    ? new Decimal((10 + random() * 200).toFixed(random() < 0.5 ? 2 : 4))
    : new Decimal(1000 + Math.floor(random() * 100) * 100);
  const commission = usd ? new Decimal(random().toFixed(2)) : new Decimal(Math.floor(random() * 200));
  if (held.isZero() || random() < 0.55) {
    const quantity =
      usd && random() < 0.3
        ? new Decimal((0.000001 + random() * 10).toFixed(6))
        : new Decimal(1 + Math.floor(random() * 20));
    return fill('BUY', symbol, quantity, price, commission, new Decimal(0));
  }
  const part =
    usd && random() < 0.3
      ? held.times(random()).toDecimalPlaces(6, Decimal.ROUND_DOWN)
      : held.times(random()).floor();
  const quantity = random() < 0.3 || part.isZero() ? held : part;
  const tax = usd ? new Decimal(0) : new Decimal(Math.floor(random() * 500));
  return fill('SELL', symbol, quantity, price, commission, tax);
}

describe('StrategyBook over random fills', () => {
  it('books what the Decimal reference books, and realized + unrealized − charges is what the equity moved by', () => {
    for (let run = 0; run < 200; run++) {
      const book = new StrategyBook(START);
      const ref = new Reference();
      for (let step = 0; step < 30; step++) {
        const f = randomFill(ref);
        const c = currencyOf(f.symbol);
        book.apply(f, c);
        ref.apply(f, c);
        const at = `run ${run} step ${step}`;
        for (const [symbol, p] of ref.positions) {
          const view = book.position(symbol);
          expect(view?.quantity.toFixed() ?? '0', `${at} ${symbol} quantity`).toBe(p.quantity.toFixed());
          if (view !== undefined)
            expect(view.averagePrice.toFixed(), `${at} ${symbol} average`).toBe(p.average.toFixed());
        }
        for (const currency of ['KRW', 'USD'] as const) {
          const totals = book.totals(currency);
          expect(totals.cash.toFixed(), `${at} ${currency} cash`).toBe(ref.cash.get(currency)?.toFixed());
          expect(totals.realizedPnl.toFixed(), `${at} ${currency} realized`).toBe(
            (ref.realized.get(currency) ?? new Decimal(0)).toFixed(),
          );
          let value = new Decimal(0);
          for (const [symbol, p] of ref.positions) {
            if (currencyOf(symbol) === currency)
              value = value.plus(new Decimal(mark(symbol)).times(p.quantity));
          }
          const pnl = totals.realizedPnl
            .plus(book.unrealizedPnl(currency, mark))
            .minus(totals.commissions)
            .minus(totals.taxes);
          expect(pnl.toFixed(), `${at} ${currency} identity`).toBe(
            totals.cash.minus(START[currency]).plus(value).toFixed(),
          );
        }
      }
    }
  });
});

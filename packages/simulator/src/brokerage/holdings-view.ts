import { reportRate, valueHolding } from '@hoga/broker-model';
import { type Currency, Decimal } from '@hoga/core';
import type { DateTime } from 'luxon';
import type { MarketModel } from '../market/market-model.js';
import { invalidRequest } from './brokerage-errors.js';
import type { Ledger } from './ledger.js';

const SYMBOL_TEXT = /^[A-Za-z0-9.-]+$/;
const ZERO = new Decimal(0);

/** Per-currency sums: `krw` always, `usd` null when no USD item contributes. */
interface CurrencySums {
  krw: Decimal;
  usd: Decimal | null;
}

function sums(): CurrencySums {
  return { krw: ZERO, usd: null };
}

function add(target: CurrencySums, currency: Currency, amount: Decimal): void {
  if (currency === 'KRW') target.krw = target.krw.plus(amount);
  else target.usd = (target.usd ?? ZERO).plus(amount);
}

function wire(s: CurrencySums): { krw: string; usd: string | null } {
  return { krw: s.krw.toFixed(), usd: s.usd === null ? null : s.usd.toFixed() };
}

function inKrw(s: CurrencySums, usdKrw: Decimal): Decimal {
  return s.krw.plus((s.usd ?? ZERO).times(usdKrw));
}

function rate(numerator: Decimal, denominator: Decimal): string {
  return reportRate(numerator, denominator).toFixed();
}

/**
 * Payload of `GET /api/v1/holdings` (optional `symbol` filter; the summary is
 * recomputed over the filtered items). Items are valued at the market's last
 * price; `cost` is the commission and tax a sale now would pay; the summary
 * rates are computed on a KRW-converted basis at the display exchange rate.
 */
export function holdingsPayload(
  market: MarketModel,
  ledger: Ledger,
  query: URLSearchParams,
  now: DateTime,
): unknown {
  const requested = query.get('symbol');
  const symbol = requested === null ? null : (market.instrument(requested)?.symbol ?? requested);
  if (requested !== null && !SYMBOL_TEXT.test(requested)) {
    throw invalidRequest('symbol', 'symbol may hold only letters, digits, "." and "-"', {
      pattern: SYMBOL_TEXT.source,
    });
  }
  const purchase = sums();
  const value = sums();
  const valueAfterCost = sums();
  const profit = sums();
  const profitAfterCost = sums();
  const daily = sums();
  const previousValue = sums();
  const items: unknown[] = [];
  for (const [held, holding] of ledger.holdings()) {
    if (symbol !== null && held !== symbol) continue;
    const instrument = market.instrument(held);
    if (!instrument) continue;
    const { currency, country } = instrument;
    const lastPrice = market.lastPrice(held, now);
    const v = valueHolding({
      market: country,
      currency,
      securityType: instrument.securityType,
      quantity: holding.quantity,
      averagePrice: holding.averagePrice,
      lastPrice,
      referencePrice: market.referencePrice(held, now),
    });
    const { purchaseAmount, amount, commission, tax, amountAfterCost, previousAmount: previous } = v;
    const dailyAmount = v.dailyProfit;
    add(purchase, currency, purchaseAmount);
    add(value, currency, amount);
    add(valueAfterCost, currency, amountAfterCost);
    add(profit, currency, v.profit);
    add(profitAfterCost, currency, v.profitAfterCost);
    add(daily, currency, dailyAmount);
    add(previousValue, currency, previous);
    items.push({
      symbol: held,
      name: instrument.name,
      marketCountry: country,
      currency,
      quantity: holding.quantity.toFixed(),
      lastPrice: lastPrice.toFixed(),
      averagePurchasePrice: holding.averagePrice.toFixed(),
      marketValue: {
        purchaseAmount: purchaseAmount.toFixed(),
        amount: amount.toFixed(),
        amountAfterCost: amountAfterCost.toFixed(),
      },
      profitLoss: {
        amount: v.profit.toFixed(),
        amountAfterCost: v.profitAfterCost.toFixed(),
        rate: rate(v.profit, purchaseAmount),
        rateAfterCost: rate(v.profitAfterCost, purchaseAmount),
      },
      dailyProfitLoss: { amount: dailyAmount.toFixed(), rate: rate(dailyAmount, previous) },
      cost: { commission: commission.toFixed(), tax: tax === null ? null : tax.toFixed() },
    });
  }
  const usdKrw = market.usdKrw(now);
  return {
    totalPurchaseAmount: wire(purchase),
    marketValue: { amount: wire(value), amountAfterCost: wire(valueAfterCost) },
    profitLoss: {
      amount: wire(profit),
      amountAfterCost: wire(profitAfterCost),
      rate: rate(inKrw(profit, usdKrw), inKrw(purchase, usdKrw)),
      rateAfterCost: rate(inKrw(profitAfterCost, usdKrw), inKrw(purchase, usdKrw)),
    },
    dailyProfitLoss: {
      amount: wire(daily),
      rate: rate(inKrw(daily, usdKrw), inKrw(previousValue, usdKrw)),
    },
    items,
  };
}

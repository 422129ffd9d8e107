/**
 * The risk book's daily PnL keeps what each holding's shares cost: a partial sell realises its
 * amount less its quantity at the average price, the sell that closes the position its amount less
 * the rest of the cost, and the unrealised PnL is the holding's value less its cost. Before, every
 * sell realised (price − average) × quantity with the average a 40-digit quotient, so its rounding
 * stayed in the daily PnL the loss limit reads: 100 at 10,001 and 200 at 10,002 sold at 10,000
 * realised −500.000…001 won (and the day's sum left the integer path for good).
 */
import { averagePurchasePrice, roundCash } from '@hoga/broker-model';
import {
  type Currency,
  clientOrderId,
  createOrderIntent,
  Decimal,
  type Fill,
  instrumentOf,
  Money,
  type OrderSide,
  strategyId,
} from '@hoga/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StrategyBook } from '../portfolio/strategy-book.js';
import { RiskBook } from './risk-book.js';
import { T0 } from './risk-fixture.test-helper.js';

const DAY_MS = 86_400_000;
let seq = 0;

/** A filled order of `strategy` booked through the book's order events, as the engine sends them. */
function fill(
  book: RiskBook,
  side: OrderSide,
  symbol: string,
  quantity: string,
  price: string,
  charges: { commission?: string; tax?: string; strategy?: string; atMs?: number } = {},
): Fill {
  seq += 1;
  const id = clientOrderId(`c${seq}`);
  const sid = strategyId(charges.strategy ?? 's1');
  const atMs = charges.atMs ?? T0;
  const instrument = instrumentOf(symbol);
  const common = { clientOrderId: id, strategyId: sid, instrument, side };
  // a fraction of a share: a US amount buy, or a market sell
  const whole = new Decimal(quantity).isInteger();
  const intent = createOrderIntent(
    whole
      ? {
          ...common,
          sizing: 'QUANTITY',
          orderType: 'LIMIT',
          quantity: new Decimal(quantity),
          price: new Decimal(price),
        }
      : side === 'BUY'
        ? {
            ...common,
            sizing: 'AMOUNT',
            orderType: 'MARKET',
            amount: new Decimal(quantity).times(price).toDecimalPlaces(2, Decimal.ROUND_UP),
          }
        : { ...common, sizing: 'QUANTITY', orderType: 'MARKET', quantity: new Decimal(quantity) },
  );
  const base = { clientOrderId: id, strategyId: sid, tsEvent: atMs, tsInit: atMs };
  book.onEvent({ type: 'OrderSubmitted', eventId: `s-${id}`, ...base, intent });
  const f: Fill = {
    fillId: `f-${id}`,
    clientOrderId: id,
    brokerOrderId: 'x' as Fill['brokerOrderId'],
    symbol,
    side,
    quantity: new Decimal(quantity),
    price: new Decimal(price),
    commission: Money.of(new Decimal(charges.commission ?? '0'), instrument.currency),
    ...(charges.tax === undefined ? {} : { tax: Money.of(new Decimal(charges.tax), instrument.currency) }),
    cumulativeQuantity: new Decimal(quantity),
    tsEvent: atMs,
  };
  book.onEvent({ type: 'OrderFilled', eventId: `f-${id}`, ...base, fill: f });
  return f;
}

describe('RiskBook daily PnL at cost', () => {
  it('realises what a position bought and sold off moved (KR): −500 and −30 charges, on the integer path', () => {
    const book = new RiskBook();
    fill(book, 'BUY', '005930', '100', '10001', { commission: '10' });
    fill(book, 'BUY', '005930', '200', '10002', { commission: '10' });
    fill(book, 'SELL', '005930', '300', '10000', { commission: '5', tax: '5' });
    expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe('-530');
    expect(book.dailyPnlKrwInt('s1', T0)).toBe(-530);
    expect(book.positions('s1')).toEqual([]);
  });

  it('realises −5.00 USD for 100 AAPL at 10.01 and 200 at 10.02 sold at 10.00', () => {
    const book = new RiskBook(8, new Decimal(1400));
    fill(book, 'BUY', 'AAPL', '100', '10.01');
    fill(book, 'BUY', 'AAPL', '200', '10.02');
    fill(book, 'SELL', 'AAPL', '300', '10.00');
    expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe('-7000');
  });

  it('releases a partial sell at the average and the rest at the close: 10 + 5 at 70,000 and 71,000 sold at 72,000 and 69,000 realise 4,000', () => {
    const book = new RiskBook();
    fill(book, 'BUY', '005930', '10', '70000');
    fill(book, 'BUY', '005930', '5', '71000');
    fill(book, 'SELL', '005930', '8', '72000');
    // 8 × (72,000 − 70,333.3333, the broker's average): a fraction while the position is open
    expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe('13333.3336');
    fill(book, 'SELL', '005930', '7', '69000');
    expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe('4000');
  });

  it('values an open position at what it cost: 300 AAPL bought for 3,005.00, worth 3,006.00, is 1.00 up', () => {
    const book = new RiskBook(8, new Decimal(1));
    fill(book, 'BUY', 'AAPL', '100', '10.01');
    fill(book, 'BUY', 'AAPL', '200', '10.02');
    book.notePrice('AAPL', new Decimal('10.02'), T0);
    expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe('1');
  });

  it('counts a carried position from the day’s reference exactly: bought at 10,000 and 10,001, sold at 10,002 the next day from a reference of 10,001', () => {
    const book = new RiskBook();
    fill(book, 'BUY', '005930', '1', '10000');
    fill(book, 'BUY', '005930', '2', '10001');
    book.notePrice('005930', new Decimal(10001), T0);
    book.notePrice('005930', new Decimal(10001), T0 + DAY_MS);
    fill(book, 'SELL', '005930', '3', '10002', { atMs: T0 + DAY_MS });
    expect(book.dailyPnlKrw('s1', T0 + DAY_MS).toFixed()).toBe('3');
  });

  it('a sell of more than the holding realises on the holding only and leaves it flat at no cost', () => {
    const book = new RiskBook();
    fill(book, 'BUY', '005930', '1', '10000');
    fill(book, 'BUY', '005930', '2', '10001');
    fill(book, 'SELL', '005930', '5', '10000');
    expect(book.dailyPnlKrwInt('s1', T0)).toBe(-2);
    fill(book, 'BUY', '005930', '1', '9000');
    fill(book, 'SELL', '005930', '1', '9500');
    expect(book.dailyPnlKrwInt('s1', T0)).toBe(498);
  });
});

/** One step of the random comparison: a buy, or a sell of part or all of what is held. */
interface Step {
  readonly usd: boolean;
  readonly buy: boolean;
  /** KRW: whole shares; USD: millionths of a share (fractional sells and buys). */
  readonly units: number;
  /** KRW: won; USD: ten-thousandths of a dollar. */
  readonly price: number;
  /** Share of the holding sold, in thousandths (≥ 1000: all of it). */
  readonly part: number;
  readonly commission: number;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  usd: fc.boolean(),
  buy: fc.boolean(),
  units: fc.integer({ min: 1, max: 30_000_000 }),
  price: fc.integer({ min: 1_000, max: 2_000_000 }),
  part: fc.integer({ min: 1, max: 1_300 }),
  commission: fc.integer({ min: 0, max: 999 }),
});

/** A holding in plain Decimals: the broker's average, and the cost kept. */
interface RefHolding {
  quantity: Decimal;
  average: Decimal;
  cost: Decimal;
}

const SYMBOLS = { KRW: '005930', USD: 'AAPL' } as const;

describe('RiskBook daily PnL over random fills', () => {
  it('is what a plain-Decimal reference and the portfolio’s books realise, and with prices the day’s cash flows plus the positions’ value', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { maxLength: 30 }),
        fc.integer({ min: 1_000, max: 2_000 }),
        fc.integer({ min: 1_000, max: 2_000_000 }),
        (steps, rate, mark) => {
          const book = new RiskBook(8, new Decimal(rate));
          const zero = new Decimal(0);
          const portfolio = new StrategyBook({ KRW: zero, USD: zero });
          const held = {
            KRW: { quantity: zero, average: zero, cost: zero },
            USD: { quantity: zero, average: zero, cost: zero },
          };
          // realised PnL per currency (native, net of charges), summed fill by fill as the book sums it
          const realised = { KRW: zero, USD: zero };
          let flows = zero;
          for (const step of steps) {
            const c = step.usd ? 'USD' : 'KRW';
            const h: RefHolding = held[c];
            const price = step.usd ? new Decimal(step.price).dividedBy(10_000) : new Decimal(step.price);
            const commission = step.usd
              ? new Decimal(step.commission).dividedBy(100)
              : new Decimal(step.commission);
            const krw = (x: Decimal) => (step.usd ? x.times(rate) : x);
            const options = { commission: commission.toFixed() };
            let f: Fill;
            if (step.buy || h.quantity.isZero()) {
              const quantity = step.usd
                ? new Decimal(step.units).dividedBy(1_000_000)
                : new Decimal((step.units % 50) + 1);
              f = fill(book, 'BUY', SYMBOLS[c], quantity.toFixed(), price.toFixed(), options);
              const amount = roundCash(c, price.times(quantity));
              h.average = averagePurchasePrice(h.quantity, h.average, quantity, amount);
              h.cost = h.quantity.isZero() ? amount : h.cost.plus(amount);
              h.quantity = h.quantity.plus(quantity);
              realised[c] = realised[c].plus(commission.negated());
              flows = flows.minus(krw(amount.plus(commission)));
            } else {
              const part = h.quantity.times(step.part).dividedBy(1_000);
              const sized = step.usd ? part.toDecimalPlaces(6, Decimal.ROUND_DOWN) : part.floor();
              const all = step.part >= 1_000 || sized.isZero() || sized.gte(h.quantity);
              const quantity = all ? h.quantity : sized;
              f = fill(book, 'SELL', SYMBOLS[c], quantity.toFixed(), price.toFixed(), options);
              const amount = roundCash(c, price.times(quantity));
              const released = all ? h.cost : h.average.times(quantity);
              realised[c] = realised[c].plus(amount.minus(released).minus(commission));
              h.cost = all ? zero : h.cost.minus(released);
              h.quantity = all ? zero : h.quantity.minus(quantity);
              flows = flows.plus(krw(amount.minus(commission)));
            }
            portfolio.apply(f, c);
            const expected = realised.KRW.plus(realised.USD.times(rate));
            expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe(expected.toFixed());
            const int = book.dailyPnlKrwInt('s1', T0);
            if (!Number.isNaN(int)) expect(String(int)).toBe(expected.toFixed());
            // the portfolio's books: realized less commissions and taxes
            const net = (x: Currency) => {
              const t = portfolio.totals(x);
              return t.realizedPnl.minus(t.commissions).minus(t.taxes);
            };
            expect(net('KRW').plus(net('USD').times(rate)).toFixed()).toBe(expected.toFixed());
          }
          // marked: realised + unrealised is what the day paid and received plus what is held
          const usdMark = new Decimal(mark).dividedBy(10_000);
          book.notePrice(SYMBOLS.KRW, new Decimal(mark), T0);
          book.notePrice(SYMBOLS.USD, usdMark, T0);
          const value = held.KRW.quantity.times(mark).plus(held.USD.quantity.times(usdMark).times(rate));
          expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe(flows.plus(value).toFixed());
          // and once every position is sold off at its mark, the same
          for (const c of ['KRW', 'USD'] as const) {
            const h = held[c];
            if (h.quantity.isZero()) continue;
            const price = c === 'USD' ? usdMark : new Decimal(mark);
            fill(book, 'SELL', SYMBOLS[c], h.quantity.toFixed(), price.toFixed());
            flows = flows.plus(roundCash(c, price.times(h.quantity)).times(c === 'USD' ? rate : 1));
          }
          expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe(flows.toFixed());
        },
      ),
      { numRuns: 300 },
    );
  });
});

/**
 * The risk book's PnL of a day against a computation that knows nothing of average prices: what
 * the day's trading paid and received, plus what the position is worth at the last price, less
 * what it was worth at the day's reference when the day began (cash flows and marks only). With
 * average cost the two agree for any sequence of buys, sells, prices and days.
 */
import {
  clientOrderId,
  createOrderIntent,
  Decimal,
  type Fill,
  instrumentOf,
  Money,
  strategyId,
} from '@hoga/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RiskBook } from './risk-book.js';
import { T0 } from './risk-fixture.test-helper.js';

const DAY_MS = 86_400_000;
const SYMBOL = '005930';

/** One step: a price, a buy or a sell (of at most what is held), possibly on a later day. */
type Step =
  | { readonly kind: 'price'; readonly price: number; readonly nextDay: boolean }
  | {
      readonly kind: 'buy' | 'sell';
      readonly quantity: number;
      readonly price: number;
      readonly commission: number;
    };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('price' as const),
    price: fc.integer({ min: 500, max: 1_500 }).map((p) => p * 100),
    nextDay: fc.boolean(),
  }),
  fc.record({
    kind: fc.constantFrom('buy' as const, 'sell' as const),
    quantity: fc.integer({ min: 1, max: 30 }),
    price: fc.integer({ min: 500, max: 1_500 }).map((p) => p * 100),
    commission: fc.integer({ min: 0, max: 500 }),
  }),
);

let seq = 0;

/** Books a complete fill of a new order at `atMs`. */
function fill(
  book: RiskBook,
  side: 'BUY' | 'SELL',
  quantity: number,
  price: number,
  commission: number,
  atMs: number,
) {
  seq += 1;
  const id = clientOrderId(`p${seq}`);
  const sid = strategyId('s1');
  const instrument = instrumentOf(SYMBOL);
  const intent = createOrderIntent({
    clientOrderId: id,
    strategyId: sid,
    instrument,
    side,
    sizing: 'QUANTITY',
    orderType: 'LIMIT',
    quantity: new Decimal(quantity),
    price: new Decimal(price),
  });
  const base = { clientOrderId: id, strategyId: sid, tsEvent: atMs, tsInit: atMs };
  book.onEvent({ type: 'OrderSubmitted', eventId: `s-${id}`, ...base, intent });
  const f: Fill = {
    fillId: `f-${id}`,
    clientOrderId: id,
    brokerOrderId: 'x' as Fill['brokerOrderId'],
    symbol: SYMBOL,
    side,
    quantity: new Decimal(quantity),
    price: new Decimal(price),
    commission: Money.of(new Decimal(commission), 'KRW'),
    cumulativeQuantity: new Decimal(quantity),
    tsEvent: atMs,
  };
  book.onEvent({ type: 'OrderFilled', eventId: `f-${id}`, ...base, fill: f });
}

describe('RiskBook daily PnL', () => {
  it('equals the day’s cash flows plus the position at the last price, less the position at the day’s reference', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 500, max: 1_000 }).map((p) => p * 100),
        fc.array(stepArb, { maxLength: 40 }),
        (first, steps) => {
          const book = new RiskBook();
          let now = T0;
          let held = 0;
          let last = first;
          book.notePrice(SYMBOL, new Decimal(last), now);
          // the independent books: today's cash flows, and the position and reference at the day's start
          let flows = 0;
          let startHeld = 0;
          let reference = last;
          for (const step of steps) {
            if (step.kind === 'price') {
              if (step.nextDay) {
                now += DAY_MS;
                // the last price before the day began is the new day's reference
                reference = last;
                startHeld = held;
                flows = 0;
              }
              last = step.price;
              book.notePrice(SYMBOL, new Decimal(last), now);
            } else {
              const quantity = step.kind === 'sell' ? Math.min(step.quantity, held) : step.quantity;
              if (quantity === 0) continue;
              fill(book, step.kind === 'buy' ? 'BUY' : 'SELL', quantity, step.price, step.commission, now);
              held += step.kind === 'buy' ? quantity : -quantity;
              flows += (step.kind === 'buy' ? -1 : 1) * quantity * step.price - step.commission;
            }
            const expected = flows + held * last - startHeld * reference;
            // the average price is a Decimal quotient: equal to its rounding, far under a won
            const got = book.dailyPnlKrw('s1', now);
            expect(got.minus(expected).abs().lt('1e-12')).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

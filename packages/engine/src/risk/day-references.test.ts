/**
 * The risk book's PnL of a day against a computation that knows nothing of average prices: what
 * the day's trading paid and received, plus what the position is worth at the last price, less
 * what it was worth at the day's reference when the day began (cash flows and marks only). With
 * average cost the two agree exactly for any sequence of buys, sells, prices and days; so does a backtest's
 * book, its positions valued at its bars' closes through {@link BarDayPnl}, whose running sums'
 * bound stays under it and within a won of it.
 */
import { Decimal } from '@hoga/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarkBook } from '../portfolio/mark-book.js';
import { BarDayPnl } from './bar-day-pnl.js';
import { RiskBook } from './risk-book.js';
import { bookFill as fill, T0 } from './risk-fixture.test-helper.js';

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

/**
 * Replays `steps` from a first price on a book: each price through `price` (a later day's after the
 * day moved on), each buy or sell (of at most what is held) as a fill, and after each step hands
 * `check` today's PnL from cash flows and marks alone: what the day's trading paid and received,
 * plus the position at the last price, less the position when the day began at its reference.
 */
function replay(
  book: RiskBook,
  first: number,
  steps: readonly Step[],
  price: (price: number, atMs: number) => void,
  check: (expected: number, atMs: number) => void,
): void {
  let now = T0;
  let held = 0;
  let last = first;
  price(last, now);
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
      price(last, now);
    } else {
      const quantity = step.kind === 'sell' ? Math.min(step.quantity, held) : step.quantity;
      if (quantity === 0) continue;
      fill(book, step.kind === 'buy' ? 'BUY' : 'SELL', quantity, step.price, step.commission, now);
      held += step.kind === 'buy' ? quantity : -quantity;
      flows += (step.kind === 'buy' ? -1 : 1) * quantity * step.price - step.commission;
    }
    check(flows + held * last - startHeld * reference, now);
  }
}

describe('RiskBook daily PnL', () => {
  it('equals the day’s cash flows plus the position at the last price, less the position at the day’s reference', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 500, max: 1_000 }).map((p) => p * 100),
        fc.array(stepArb, { maxLength: 40 }),
        (first, steps) => {
          const book = new RiskBook();
          replay(
            book,
            first,
            steps,
            (price, atMs) => book.notePrice(SYMBOL, new Decimal(price), atMs),
            (expected, atMs) => {
              // exactly: each holding keeps what its shares cost (before, off by the average's rounding)
              expect(book.dailyPnlKrw('s1', atMs).toFixed()).toBe(String(expected));
            },
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a backtest’s daily PnL at its bars’ closes', () => {
  it('equals the day’s cash flows plus the position at the last close, less the position at the last close before the day; the bound is under it, within a won', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 500, max: 1_000 }).map((p) => p * 100),
        fc.array(stepArb, { maxLength: 40 }),
        (first, steps) => {
          const closes = new MarkBook();
          const pnl = new BarDayPnl(closes);
          const book = new RiskBook();
          book.followBarCloses(pnl);
          const slot = closes.slot(SYMBOL);
          replay(
            book,
            first,
            steps,
            // a bar of the symbol, as the bar loop hands it over
            (close, atMs) => {
              pnl.time(atMs);
              pnl.moved(slot, close);
              closes.values[slot] = close;
            },
            (expected, atMs) => {
              expect(book.dailyPnlKrw('s1', atMs).toFixed()).toBe(String(expected));
              for (const scope of ['s1', null]) {
                const floor = book.dailyPnlKrwFloor(scope, atMs);
                expect(floor).toBeLessThanOrEqual(expected);
                expect(expected - floor).toBeLessThan(1);
              }
            },
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('has no bound for a day before its sums’ (the Decimal answer decides)', () => {
    const closes = new MarkBook();
    const pnl = new BarDayPnl(closes);
    const book = new RiskBook();
    book.followBarCloses(pnl);
    pnl.time(T0 + DAY_MS);
    expect(book.dailyPnlKrwFloor('s1', T0 + DAY_MS)).toBe(0);
    expect(book.dailyPnlKrwFloor('s1', T0)).toBeNaN();
    expect(book.dailyPnlKrwInt('s1', T0)).toBeNaN();
  });
});

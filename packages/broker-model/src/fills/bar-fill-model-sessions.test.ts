/**
 * The bar fill model and the sessions: a market order trades in its market's regular session only,
 * as the broker (and the simulator) match it: a market order still working at the close (a minute
 * run whose bars had no volume) fills on the bar holding the closing auction, and never on a bar of
 * the after-market or the pre-market; it waits for the next regular session's bars. Before, it
 * filled on the first bar with volume, an after-market one at 20:00 KST included (found by the
 * generated backtests, `engine/src/backtest/backtest-generated.test.ts`). Limit orders keep
 * trading in the extended sessions; daily bars are the regular session's.
 */
import { describe, it } from 'vitest';
import { BarFillModel } from './bar-fill-model.js';
import { expectRowFills, type FillRow, kr, kst, limit, market, us } from './bar-fill-model.test-helper.js';

/** 15:25 KST: in the closing single-price auction (the regular session). */
const AT_1525 = kst('2026-11-23T15:25:00');
/** 15:55 New York: in the regular session. */
const US_1555 = Date.parse('2026-11-23T15:55:00-05:00');
/** An AAPL minute bar stamped at `iso`: open 190, volume 10,000. */
const usBar = (iso: string) => us(iso, 190, 190.5, 189.5, 190.2, 10_000);

const rows: FillRow[] = [
  {
    name: 'KR: the 15:31 bar holds the closing auction: a market buy working fills at its open',
    order: market('BUY', '10', { acceptedAt: AT_1525 }),
    bar: kr('15:31', 71500, 71500, 71500, 71500, 50_000),
    expected: ['10', '71500'],
  },
  {
    name: 'KR: a market buy still working fills nothing on an after-market bar (15:32)',
    order: market('BUY', '10', { acceptedAt: AT_1525 }),
    bar: kr('15:32', 71600, 71700, 71500, 71600, 5_000),
    expected: null,
  },
  {
    name: 'KR: nor on the after-market’s last bar (20:00)',
    order: market('SELL', '10', { acceptedAt: AT_1525 }),
    bar: kr('20:00', 71600, 71700, 71500, 71600, 5_000),
    expected: null,
  },
  {
    name: 'KR: nor on a pre-market bar (08:50); the 09:01 candle is the first it fills on',
    order: market('BUY', '10', { acceptedAt: kst('2026-11-23T08:40:00') }),
    bar: kr('08:50', 71600, 71700, 71500, 71600, 5_000),
    expected: null,
  },
  {
    name: 'KR: a limit buy working fills in the after-market as before',
    order: limit('BUY', '71600', '10', { acceptedAt: AT_1525 }),
    bar: kr('15:32', 71600, 71700, 71500, 71600, 5_000),
    expected: ['10', '71600'],
  },
  {
    name: 'US: the 16:01 bar holds the closing cross: a market buy working fills at its open',
    order: market('BUY', '3', { symbol: 'AAPL', acceptedAt: US_1555 }),
    bar: usBar('2026-11-23T16:01:00-05:00'),
    expected: ['3', '190'],
  },
  {
    name: 'US: a market sell still working fills nothing in the after-market (16:02)',
    order: market('SELL', '3', { symbol: 'AAPL', acceptedAt: US_1555 }),
    bar: usBar('2026-11-23T16:02:00-05:00'),
    expected: null,
  },
  {
    name: 'US: nor late in the after-market',
    order: market('SELL', '3', { symbol: 'AAPL', acceptedAt: US_1555 }),
    bar: usBar('2026-11-23T19:59:00-05:00'),
    expected: null,
  },
  {
    name: 'US: nor in the next pre-market (08:00 New York); the 09:31 bar fills it',
    order: market('BUY', '3', { symbol: 'AAPL', acceptedAt: US_1555 }),
    bar: usBar('2026-11-24T08:00:00-05:00'),
    expected: null,
  },
  {
    name: 'US: the 09:31 bar of the next day fills it at its open',
    order: market('BUY', '3', { symbol: 'AAPL', acceptedAt: US_1555 }),
    bar: usBar('2026-11-24T09:31:00-05:00'),
    expected: ['3', '190'],
  },
];

describe('BarFillModel and the sessions (market orders in the regular session only)', () => {
  const model = new BarFillModel({ volumeFraction: Number.POSITIVE_INFINITY });
  for (const row of rows) it(row.name, () => expectRowFills(row, model));
});

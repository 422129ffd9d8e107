/**
 * The bar fill model and the order's acceptance time: an order accepted at or before a bar's open
 * time is matched against the whole bar (open first, then its range); one accepted inside the bar's
 * period only against what a bar tells of the part after it, its close.
 */
import type { Bar } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { BarFillModel } from './bar-fill-model.js';
import {
  expectRowFills,
  type FillRow,
  kr,
  kst,
  limit,
  market,
  order,
  us,
} from './bar-fill-model.test-helper.js';

const uncapped = new BarFillModel({ volumeFraction: Number.POSITIVE_INFINITY });

/** The KR minute stamped 09:02 (09:01:00–09:01:59.999): open 72,100, low 71,900, high 72,400, close 72,300. */
const MINUTE = kr('09:02', 72100, 72400, 71900, 72300, 5000);
/** The KR minute's start, its open time. */
const MINUTE_START = kst('2026-11-23T09:01:00');
/** Inside the KR minute. */
const MID_MINUTE = kst('2026-11-23T09:01:30');

/** A daily bar of `symbol` for the trading date `date`, closing at `closeIso`. */
const daily = (
  symbol: string,
  date: string,
  closeIso: string,
  o: number,
  h: number,
  l: number,
  c: number,
): Bar => ({
  symbol,
  interval: '1d',
  ts: kst(`${date}T00:00:00`),
  closeTime: Date.parse(closeIso),
  open: o,
  high: h,
  low: l,
  close: c,
  volume: 10_000_000,
});
/** 005930's daily bar of 2026-11-23: open 70,500, close 70,000 at 15:30 KST. */
const KR_DAY = daily('005930', '2026-11-23', '2026-11-23T15:30:00+09:00', 70500, 71000, 69500, 70000);
/** AAPL's daily bar of 2026-11-23 (EST): open 190, close 192.5 at 16:00 New York. */
const US_DAY = daily('AAPL', '2026-11-23', '2026-11-23T16:00:00-05:00', 190, 193, 188, 192.5);
/** AAPL's daily bar of 2026-07-01 (EDT): open 181, close 183. */
const US_SUMMER_DAY = daily('AAPL', '2026-07-01', '2026-07-01T16:00:00-04:00', 181, 184, 180, 183);

const rows: FillRow[] = [
  // minute bars: the open time is the minute's start, a minute before the stamp
  {
    name: '1m: a market buy accepted at the minute’s start (the previous close) fills at the open',
    order: market('BUY', '10', { acceptedAt: MINUTE_START }),
    bar: MINUTE,
    expected: ['10', '72100'],
  },
  {
    name: '1m: a market buy accepted inside the minute fills at its close',
    order: market('BUY', '10', { acceptedAt: MID_MINUTE }),
    bar: MINUTE,
    expected: ['10', '72300'],
  },
  {
    name: '1m: a market sell accepted a millisecond after the minute’s start fills at its close',
    order: market('SELL', '10', { acceptedAt: MINUTE_START + 1 }),
    bar: MINUTE,
    expected: ['10', '72300'],
  },
  {
    name: '1m: a limit buy accepted inside the minute fills at the close when the close reaches the limit',
    order: limit('BUY', '72300', '10', { acceptedAt: MID_MINUTE }),
    bar: MINUTE,
    expected: ['10', '72300'],
  },
  {
    name: '1m: a limit buy above the close, accepted inside the minute, fills at the close (better than its limit)',
    order: limit('BUY', '72500', '10', { acceptedAt: MID_MINUTE }),
    bar: MINUTE,
    expected: ['10', '72300'],
  },
  {
    name: '1m: a limit buy the low reached but the close did not, accepted inside the minute, does not fill',
    order: limit('BUY', '72200', '10', { acceptedAt: MID_MINUTE }),
    bar: MINUTE,
    expected: null,
  },
  {
    name: '1m: a limit buy at 72,000 accepted at the minute’s start fills at its limit (the low reached it)',
    order: limit('BUY', '72000', '10', { acceptedAt: MINUTE_START }),
    bar: MINUTE,
    expected: ['10', '72000'],
  },
  {
    name: '1m: a limit sell the high reached but the close did not, accepted inside the minute, does not fill',
    order: limit('SELL', '72400', '10', { acceptedAt: MID_MINUTE }),
    bar: MINUTE,
    expected: null,
  },
  {
    name: '1m: a limit sell below the close, accepted inside the minute, fills at the close',
    order: limit('SELL', '72000', '10', { acceptedAt: MID_MINUTE }),
    bar: MINUTE,
    expected: ['10', '72300'],
  },
  {
    name: '1m: the volume cap applies to a fill at the close (10 % of 5,000)',
    order: market('BUY', '1000', { acceptedAt: MID_MINUTE }),
    bar: MINUTE,
    model: new BarFillModel(),
    expected: ['500', '72300'],
  },
  {
    name: '1m US: a market buy accepted at 10:00:20 New York fills at the close of the 10:01 bar',
    order: market('BUY', '5', { symbol: 'AAPL', acceptedAt: Date.parse('2026-11-23T10:00:20-05:00') }),
    bar: us('2026-11-23T10:01:00-05:00', 250, 251, 249, 250.5, 10_000),
    expected: ['5', '250.5'],
  },
  {
    name: '1m US: an amount buy accepted inside the minute buys at the close ($1,000 / 250.5, 6 places)',
    order: order({
      symbol: 'AAPL',
      side: 'BUY',
      type: 'MARKET',
      amount: '1000',
      acceptedAt: Date.parse('2026-11-23T10:00:20-05:00'),
    }),
    bar: us('2026-11-23T10:01:00-05:00', 250, 251, 249, 250.5, 10_000),
    expected: ['3.992015', '250.5'],
  },
  // daily bars: the open time is the regular open of the trading date
  {
    name: '1d KR: a market buy accepted at the previous close fills at the open',
    order: market('BUY', '1', { acceptedAt: kst('2026-11-20T15:30:00') }),
    bar: KR_DAY,
    expected: ['1', '70500'],
  },
  {
    name: '1d KR: a market buy accepted in the pre-market fills at the open',
    order: market('BUY', '1', { acceptedAt: kst('2026-11-23T08:45:00') }),
    bar: KR_DAY,
    expected: ['1', '70500'],
  },
  {
    name: '1d KR: a market buy accepted at 09:00 KST exactly fills at the open',
    order: market('BUY', '1', { acceptedAt: kst('2026-11-23T09:00:00') }),
    bar: KR_DAY,
    expected: ['1', '70500'],
  },
  {
    name: '1d KR: a market buy accepted a millisecond after 09:00 KST fills at the close',
    order: market('BUY', '1', { acceptedAt: kst('2026-11-23T09:00:00') + 1 }),
    bar: KR_DAY,
    expected: ['1', '70000'],
  },
  {
    name: '1d KR: a market buy accepted at 14:00 KST (a timer) fills at the close',
    order: market('BUY', '1', { acceptedAt: kst('2026-11-23T14:00:00') }),
    bar: KR_DAY,
    expected: ['1', '70000'],
  },
  {
    name: '1d KR: a limit buy at 69,800 accepted at 14:00 does not fill on a close of 70,000 (the low of 69,500 may be earlier)',
    order: limit('BUY', '69800', '1', { acceptedAt: kst('2026-11-23T14:00:00') }),
    bar: KR_DAY,
    expected: null,
  },
  {
    name: '1d KR: a limit buy at 70,200 accepted at 14:00 fills at the close of 70,000',
    order: limit('BUY', '70200', '1', { acceptedAt: kst('2026-11-23T14:00:00') }),
    bar: KR_DAY,
    expected: ['1', '70000'],
  },
  {
    name: '1d KR: a limit sell at 70,000 accepted at 14:00 fills at the close, touched exactly',
    order: limit('SELL', '70000', '1', { acceptedAt: kst('2026-11-23T14:00:00') }),
    bar: KR_DAY,
    expected: ['1', '70000'],
  },
  {
    name: '1d US: a market buy accepted in the pre-market (09:00 New York) fills at the open',
    order: market('BUY', '1', { symbol: 'AAPL', acceptedAt: Date.parse('2026-11-23T09:00:00-05:00') }),
    bar: US_DAY,
    expected: ['1', '190'],
  },
  {
    name: '1d US: a market buy accepted at 09:30 New York exactly fills at the open',
    order: market('BUY', '1', { symbol: 'AAPL', acceptedAt: Date.parse('2026-11-23T09:30:00-05:00') }),
    bar: US_DAY,
    expected: ['1', '190'],
  },
  {
    name: '1d US: a market buy accepted at 11:00 New York fills at the close',
    order: market('BUY', '1', { symbol: 'AAPL', acceptedAt: Date.parse('2026-11-23T11:00:00-05:00') }),
    bar: US_DAY,
    expected: ['1', '192.5'],
  },
  {
    name: '1d US summer time: a market sell accepted at 10:00 EDT (after the 09:30 EDT open) fills at the close',
    order: market('SELL', '1', { symbol: 'AAPL', acceptedAt: Date.parse('2026-07-01T10:00:00-04:00') }),
    bar: US_SUMMER_DAY,
    expected: ['1', '183'],
  },
  {
    name: '1d US summer time: a market sell accepted at 09:30 EDT fills at the open',
    order: market('SELL', '1', { symbol: 'AAPL', acceptedAt: Date.parse('2026-07-01T09:30:00-04:00') }),
    bar: US_SUMMER_DAY,
    expected: ['1', '181'],
  },
];

describe('BarFillModel and the order’s acceptance time', () => {
  it.each(rows)('$name', (row) => expectRowFills(row, uncapped));

  it('matches a limit order placed inside a bar against the whole of the next bar, open first', () => {
    const o = limit('BUY', '72200', '10', { acceptedAt: MID_MINUTE });
    expect(uncapped.match(o, MINUTE, MINUTE.closeTime)).toEqual([]);
    // the next minute opens below the limit (a gap down): the order, working since before it, gets the open
    const next = kr('09:03', 72100, 72300, 72000, 72200, 5000);
    const slices = uncapped.match(o, next, next.closeTime);
    expect(slices.map((s) => [s.quantity.toFixed(), s.price.toFixed(), s.time])).toEqual([
      ['10', '72100', next.closeTime],
    ]);
  });
});

/**
 * Deterministic synthetic bars for the engine benchmark: KR stocks on the 100-won tick band
 * (51,000–199,000 won), a random walk with slowly changing drift (trends of a few hours, so the SMA
 * crossover trades about as often as on real minute data rather than on every wiggle of white
 * noise), opens at the previous close ± a tick, highs and lows around them, volumes of 1,000–50,000
 * shares. Minute bars 09:01–15:30 KST on the weekdays of a year; daily bars on 20 years of weekdays.
 * The same seed gives the same bars to the last digit.
 */
import type { BarInterval } from '@hoga/core';
import type { BarColumns } from '@hoga/store';
import type { BarSeries } from '../src/market-data/bar-feed.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const KST_OFFSET_MS = 9 * 3_600_000;
const TICK = 100;
const LOW = 51_000;
const HIGH = 199_000;

/** xorshift32: a small, fast, seedable generator of floats in [0, 1). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4_294_967_296;
  };
}

/** KST midnights (epoch ms) of the weekdays from `from` (YYYY-MM-DD) on, `count` of them. */
export function weekdays(from: string, count: number): number[] {
  const days: number[] = [];
  let t = Date.parse(`${from}T00:00:00+09:00`);
  while (days.length < count) {
    const dow = new Date(t + KST_OFFSET_MS).getUTCDay();
    if (dow !== 0 && dow !== 6) days.push(t);
    t += DAY_MS;
  }
  return days;
}

/** The `i`-th benchmark symbol: a KR code (`100000`, `100001`, …). */
export function symbolOf(i: number): string {
  return String(100_000 + i);
}

function allocate(n: number, shareCloseTime: boolean): BarColumns {
  const ts = new Float64Array(n);
  return {
    ts,
    closeTime: shareCloseTime ? ts : new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
    length: n,
  };
}

/**
 * One symbol's bars.
 *
 * @param symbolIndex - seeds the walk
 * @param interval - `1m` (390 bars a day, 09:01–15:30) or `1d` (one a day, closing 15:30)
 * @param days - KST midnights of the trading days
 */
export function generateSeries(
  symbolIndex: number,
  interval: BarInterval,
  days: readonly number[],
): BarSeries {
  const perDay = interval === '1m' ? 390 : 1;
  const n = days.length * perDay;
  const cols = allocate(n, interval === '1m');
  const rand = rng(0x5eed + symbolIndex * 7919);
  let price = Math.round((LOW + rand() * (HIGH - LOW)) / TICK) * TICK;
  let drift = 0;
  const stepTicks = interval === '1m' ? 2 : 12;
  let i = 0;
  for (const day of days) {
    for (let k = 0; k < perDay; k++) {
      if (rand() < (interval === '1m' ? 1 / 120 : 1 / 15)) drift = (rand() * 2 - 1) * 0.6;
      const open = Math.min(
        HIGH,
        Math.max(LOW, price + (rand() < 0.5 ? -TICK : TICK) * (rand() < 0.3 ? 1 : 0)),
      );
      const move = Math.round((rand() * 2 - 1 + drift) * stepTicks) * TICK;
      const close = Math.min(HIGH, Math.max(LOW, open + move));
      const high = Math.max(open, close) + Math.floor(rand() * 3) * TICK;
      const low = Math.min(open, close) - Math.floor(rand() * 3) * TICK;
      const ts = interval === '1m' ? day + 9 * 3_600_000 + (k + 1) * MINUTE_MS : day;
      cols.ts[i] = ts;
      if (interval === '1d') cols.closeTime[i] = day + 15.5 * 3_600_000;
      cols.open[i] = open;
      cols.high[i] = Math.min(HIGH + 2 * TICK, high);
      cols.low[i] = Math.max(LOW - 2 * TICK, low);
      cols.close[i] = close;
      cols.volume[i] = 1_000 + Math.floor(rand() * 49_000);
      price = close;
      i++;
    }
  }
  return { symbol: symbolOf(symbolIndex), interval, columns: cols };
}

/** `symbols` series of one interval over the same days. */
export function generateUniverse(
  symbols: number,
  interval: BarInterval,
  days: readonly number[],
): BarSeries[] {
  return Array.from({ length: symbols }, (_, s) => generateSeries(s, interval, days));
}

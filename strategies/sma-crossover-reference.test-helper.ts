/**
 * An independent computation of the SMA crossover's trades, for tests: straight from the
 * definition (averages recomputed from the closes array at each bar), the bar fill model's rule
 * for market orders (the open of the next bar that traded at all, at that bar's close time: the
 * strategy places nothing while its order is open), and the broker's: on minute
 * bars a market order is taken in the regular session only (KR 09:00–15:30 KST, US 09:30–16:00
 * New York), so a cross at a bar closing outside it makes no trade.
 */
import { type Bar, barCloseTime, type Decimal, marketOfSymbol } from '@hoga/core';

/** A seeded random walk on the tick grid (`tick`), starting at `start`. */
export function walk(n: number, start: number, tick: number, seed: number): number[] {
  let x = seed;
  const out: number[] = [];
  let p = start;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    p = Math.max(tick * 10, p + Math.round(((x / 2147483648) * 2 - 1) * 8) * tick);
    out.push(Number(p.toFixed(2)));
  }
  return out;
}

/** An expected fill. */
export interface ExpectedTrade {
  readonly time: number;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: number;
  /** The next bar's open. */
  readonly price: number;
}

const NEW_YORK_TIME = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  hourCycle: 'h23',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Minutes after midnight of an instant: KST (UTC+9), or New York time. */
function minuteOfDay(ms: number, kr: boolean): number {
  if (kr) return (((ms / 60_000 + 9 * 60) % 1440) + 1440) % 1440;
  const [h, m, sec] = NEW_YORK_TIME.format(ms).split(':').map(Number) as [number, number, number];
  return h * 60 + m + sec / 60;
}

/** Whether a market order placed at `bar`'s close is taken: daily bars always (for the next open); minute bars in the regular session. */
export function marketOrderTaken(bar: Bar): boolean {
  if (bar.interval !== '1m') return true;
  const kr = /^\d/.test(bar.symbol);
  const minute = minuteOfDay(bar.closeTime, kr);
  return kr ? minute >= 9 * 60 && minute < 15 * 60 + 30 : minute >= 9 * 60 + 30 && minute < 16 * 60;
}

function mean(values: readonly number[], end: number, n: number): number {
  let sum = 0;
  for (let k = end - n + 1; k <= end; k++) sum += values[k] as number;
  return sum / n;
}

/**
 * The trades the SMA crossover makes on `bars` (any symbols; each symbol's bars in time order),
 * sorted by time then symbol.
 */
export function expectedSmaTrades(
  bars: readonly Bar[],
  config: { readonly fast: number; readonly slow: number; readonly quantity: number },
): ExpectedTrade[] {
  const bySymbol = new Map<string, Bar[]>();
  for (const b of bars) {
    const list = bySymbol.get(b.symbol) ?? [];
    list.push(b);
    bySymbol.set(b.symbol, list);
  }
  const trades: ExpectedTrade[] = [];
  for (const [symbol, list] of bySymbol) {
    const closes = list.map((b) => b.close);
    let held = 0;
    for (let i = config.slow; i < list.length; i++) {
      const f = mean(closes, i, config.fast);
      const s = mean(closes, i, config.slow);
      const pf = mean(closes, i - 1, config.fast);
      const ps = mean(closes, i - 1, config.slow);
      if (!marketOrderTaken(list[i] as Bar)) continue;
      const buy = held === 0 && pf <= ps && f > s;
      const sell = held > 0 && pf >= ps && f < s;
      if (!buy && !sell) continue;
      // the order fills on the next bar that traded; the strategy sees that bar with the fill
      let j = i + 1;
      while (j < list.length && (list[j] as Bar).volume === 0) j++;
      const next = list[j];
      if (next === undefined) break;
      const quantity = buy ? config.quantity : held;
      trades.push({ time: next.closeTime, symbol, side: buy ? 'BUY' : 'SELL', quantity, price: next.open });
      held = buy ? config.quantity : 0;
      i = j - 1;
    }
  }
  return trades.sort((a, b) => a.time - b.time || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

/** A run's trades as {@link ExpectedTrade}s (quantities and prices as numbers), to compare with {@link expectedSmaTrades}. */
export function asExpectedTrades(
  trades: readonly {
    readonly time: number;
    readonly symbol: string;
    readonly side: 'BUY' | 'SELL';
    readonly quantity: Decimal;
    readonly price: Decimal;
  }[],
): ExpectedTrade[] {
  return trades.map((t) => ({
    time: t.time,
    symbol: t.symbol,
    side: t.side,
    quantity: t.quantity.toNumber(),
    price: t.price.toNumber(),
  }));
}

/**
 * Daily bars of `symbol` from closes, one a weekday from `firstDate` (`YYYY-MM-DD`) but the dates in
 * `closed` (its exchange's holidays), each stamped KST midnight of its date and closing at its
 * market's regular close (core's `barCloseTime`: 15:30 KST, 16:00 New York).
 */
export function dailyBarsOf(
  symbol: string,
  closes: readonly number[],
  firstDate: string,
  closed: readonly string[] = [],
): Bar[] {
  const day = 86_400_000;
  const bars: Bar[] = [];
  for (let t = Date.parse(`${firstDate}T00:00:00+09:00`); bars.length < closes.length; t += day) {
    const kst = new Date(t + 9 * 3_600_000);
    const weekday = kst.getUTCDay();
    if (weekday === 0 || weekday === 6 || closed.includes(kst.toISOString().slice(0, 10))) continue;
    const close = closes[bars.length] as number;
    const open = bars.length === 0 ? close : (closes[bars.length - 1] as number);
    bars.push({
      symbol,
      interval: '1d',
      ts: t,
      closeTime: barCloseTime(marketOfSymbol(symbol), '1d', t),
      open,
      high: Math.max(open, close),
      low: Math.min(open, close),
      close,
      volume: 1_000_000,
    });
  }
  return bars;
}

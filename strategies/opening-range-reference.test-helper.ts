/**
 * An independent computation of the opening-range breakout's trades on one KR symbol's minute bars,
 * as the backtest's bar fill model and loop fill them: a market order placed at `t` (a bar's close,
 * or the flat timer's time) fills at the open of the first bar stamped after `t`; the flat timer of
 * a day fires before the first bar stamped at or after it. The strategy's timer of the last regular
 * minute (which cancels a buy still unfilled) is not modelled: in these walks nothing is held or
 * pending then. KST is UTC+9 all year. Test code only.
 */
import type { Bar } from '@hoga/core';
import type { ExpectedTrade } from './sma-crossover-reference.test-helper.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const KST = 9 * HOUR;

/** The rule's parameters. */
export interface OpeningRangeRule {
  readonly rangeMinutes: number;
  readonly quantity: number;
  readonly flatMinutes: number;
}

/** How the expected positions ended: below the range, by the flat timer, or on a bar after it. */
export interface OpeningRangeExits {
  readonly stop: number;
  readonly timer: number;
  readonly late: number;
}

/** The fills the rule makes on `bars` (one KR symbol, time order), and how its positions ended. */
export function expectedOpeningRangeTrades(
  bars: readonly Bar[],
  rule: OpeningRangeRule,
): { trades: ExpectedTrade[]; exits: OpeningRangeExits } {
  const trades: ExpectedTrade[] = [];
  const exits = { stop: 0, timer: 0, late: 0 };
  const entered = new Set<number>();
  const timers = new Map<number, number>();
  let day: number | null = null;
  let high = 0;
  let low = 0;
  let position = 0;
  let pending: { side: 'BUY' | 'SELL'; at: number } | null = null;
  for (const bar of bars) {
    const d = Math.floor((bar.ts - 1 + KST) / DAY);
    const open = d * DAY - KST + 9 * HOUR;
    const close = open + 6.5 * HOUR;
    const flatAt = close - rule.flatMinutes * MINUTE;
    // the day's timer, before the bar
    const due = timers.get(d);
    if (due !== undefined && bar.ts >= due) {
      timers.delete(d);
      if (position > 0 && pending === null) {
        pending = { side: 'SELL', at: due };
        exits.timer += 1;
      }
    }
    // the venue, before the strategy
    if (pending !== null && bar.ts > pending.at) {
      trades.push({
        time: bar.ts,
        symbol: bar.symbol,
        side: pending.side,
        quantity: rule.quantity,
        price: bar.open,
      });
      position = pending.side === 'BUY' ? rule.quantity : 0;
      pending = null;
    }
    if (!(bar.ts > open && bar.ts <= close)) continue;
    if (d !== day) {
      day = d;
      high = bar.high;
      low = bar.low;
      if (flatAt > bar.ts) timers.set(d, flatAt);
    }
    if (bar.ts <= open + rule.rangeMinutes * MINUTE) {
      high = Math.max(high, bar.high);
      low = Math.min(low, bar.low);
      continue;
    }
    if (pending !== null) continue;
    if (position === 0 && bar.close > high && bar.ts < flatAt && !entered.has(d)) {
      entered.add(d);
      pending = { side: 'BUY', at: bar.ts };
    } else if (position > 0 && (bar.close < low || bar.ts >= flatAt)) {
      pending = { side: 'SELL', at: bar.ts };
      if (bar.ts >= flatAt) exits.late += 1;
      else exits.stop += 1;
    }
  }
  return { trades, exits };
}

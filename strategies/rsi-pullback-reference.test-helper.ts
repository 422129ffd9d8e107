/**
 * An independent computation of the RSI pullback's trades, for tests: Wilder's RSI straight from its
 * definition (the first averages of gains and losses the mean of the first `period` changes, then
 * `avg += (change − avg) / period`), and the bar fill model's rules: a limit buy fills on a later
 * bar whose low reaches the limit, at the limit or at the open when the bar opened under it; a
 * market sell at the next bar's open; both at that bar's close time. Bars are taken to have volume
 * to spare. On minute bars the market sell is placed only at a bar closing in the regular session
 * (the broker takes market orders there only): a high RSI outside it sells nothing.
 */
import { type Bar, Decimal } from '@hoga/core';
import { type ExpectedTrade, marketOrderTaken } from './sma-crossover-reference.test-helper.js';

/** The RSI of each close (NaN until `period + 1` closes were seen). */
export function wilderRsi(closes: readonly number[], period: number): number[] {
  const out = closes.map(() => Number.NaN);
  let gain = 0;
  let loss = 0;
  for (let i = 1; i < closes.length; i++) {
    const change = (closes[i] as number) - (closes[i - 1] as number);
    const up = Math.max(change, 0);
    const down = Math.max(-change, 0);
    if (i < period) {
      gain += up;
      loss += down;
      continue;
    }
    if (i === period) {
      gain = (gain + up) / period;
      loss = (loss + down) / period;
    } else {
      gain += (up - gain) / period;
      loss += (down - loss) / period;
    }
    out[i] = loss === 0 ? 100 : 100 - 100 / (1 + gain / loss);
  }
  return out;
}

/** The config the computation follows. */
export interface RsiPullbackRule {
  readonly period: number;
  readonly buyBelow: number;
  readonly sellAbove: number;
  readonly quantity: number;
  readonly discountPct: number;
  readonly maxBarsWorking: number;
  /** The KR price grid at these prices (won). */
  readonly tick: number;
  /** Sell at market on a minute bar outside the regular session too (what the strategy did before). */
  readonly sellOutsideSession?: boolean;
}

/**
 * The trades the RSI pullback makes on one symbol's bars, of which the first `warmup` are warm-up
 * bars (their closes feed the RSI; no order is placed on them), and how many limit buys it cancels.
 */
export function expectedRsiTrades(
  bars: readonly Bar[],
  rule: RsiPullbackRule,
  warmup = 0,
): { trades: ExpectedTrade[]; cancelled: number } {
  const rsi = wilderRsi(
    bars.map((b) => b.close),
    rule.period,
  );
  const trades: ExpectedTrade[] = [];
  let held = 0;
  let buy: { limit: number; waited: number } | null = null;
  let sell = false;
  let cancelled = 0;
  for (let j = warmup; j < bars.length; j++) {
    const bar = bars[j] as Bar;
    const at = (side: 'BUY' | 'SELL', quantity: number, price: number) =>
      trades.push({ time: bar.closeTime, symbol: bar.symbol, side, quantity, price });
    // the venue matches the orders placed on earlier bars before the bar reaches the strategy
    if (buy !== null && bar.low <= buy.limit) {
      at('BUY', rule.quantity, Math.min(bar.open, buy.limit));
      held = rule.quantity;
      buy = null;
    }
    if (sell) {
      at('SELL', held, bar.open);
      held = 0;
      sell = false;
    }
    if (buy !== null) {
      buy.waited += 1;
      if (buy.waited >= rule.maxBarsWorking) {
        buy = null;
        cancelled += 1;
      }
      continue;
    }
    const r = rsi[j] as number;
    if (Number.isNaN(r) || sell) continue;
    if (held === 0 && r < rule.buyBelow) {
      const under = new Decimal(bar.close).times(1 - rule.discountPct / 100);
      buy = { limit: under.dividedBy(rule.tick).floor().times(rule.tick).toNumber(), waited: 0 };
    } else if (
      held > 0 &&
      r > rule.sellAbove &&
      (rule.sellOutsideSession === true || marketOrderTaken(bar))
    ) {
      sell = true;
    }
  }
  return { trades, cancelled };
}

/**
 * The reference strategy: a simple-moving-average crossover, per symbol, on the run's bars.
 *
 * On each bar's close, with `f` and `s` the averages of the last `fast` and `slow` closes (once
 * `slow + 1` bars were seen, so that yesterday's averages exist too):
 * - flat, and `f` crossed above `s` (`f[i-1] <= s[i-1] && f[i] > s[i]`): buy `quantity` at market;
 * - long, and `f` crossed below `s` (`f[i-1] >= s[i-1] && f[i] < s[i]`): sell the whole position at market.
 *
 * A market order placed here fills on the next bar (at its open, by the bar fill model). A cross is
 * traded only when the broker takes a market order then (`ctx.marketOrderAllowed`): in the regular
 * session of the symbol's market (KR 09:00–15:30 KST, US 09:30–16:00 New York; the bar closing at
 * 15:30 is already the after-market). The pre- and after-market sessions take limit orders only: a
 * cross there is let go (not remembered for the open). A daily backtest trades every cross (the
 * order is for the next open). No warm-up: the first `slow` bars of each symbol only fill the window.
 *
 * Copy this file to start a strategy of your own: a config schema, per-symbol state kept in plain
 * numbers (no object per bar), orders through `this.ctx`.
 *
 * Run it: `pnpm hoga backtest strategies/sma-crossover.ts --symbols 005930 --interval 1d --from 2024-01-01 --to 2024-12-31`
 */
import type { Bar } from '@hoga/core';
import { Strategy, z } from '@hoga/engine';

/**
 * The config: window lengths and the order size. `--config file.json` overrides any of them; an
 * unknown field (a typo) is an error rather than silently ignored.
 */
const Config = z
  .strictObject({
    /** Bars in the fast average. */
    fast: z.number().int().positive().default(5),
    /** Bars in the slow average (more than `fast`). */
    slow: z.number().int().positive().default(20),
    /** Shares bought on a cross up (whole shares: the broker takes fractions only in US market sells). */
    quantity: z.number().int().positive().default(10),
  })
  .refine((c) => c.fast < c.slow, { message: 'less than slow', path: ['fast'] });

/** The parsed config. */
export type SmaCrossoverConfig = z.infer<typeof Config>;

/** Per-symbol state: the last `slow` closes in a ring, and the previous bar's averages. */
interface SymbolState {
  readonly closes: Float64Array;
  /** Bars seen so far. */
  seen: number;
  prevFast: number;
  prevSlow: number;
}

/** Buys on a fast-over-slow cross, sells the position on the cross back. */
export default class SmaCrossover extends Strategy<SmaCrossoverConfig> {
  static readonly configSchema = Config;

  private readonly symbols = new Map<string, SymbolState>();

  override onBar(bar: Bar): void {
    const { fast, slow, quantity } = this.config;
    let st = this.symbols.get(bar.symbol);
    if (st === undefined) {
      st = { closes: new Float64Array(slow), seen: 0, prevFast: Number.NaN, prevSlow: Number.NaN };
      this.symbols.set(bar.symbol, st);
    }
    st.closes[st.seen % slow] = bar.close;
    st.seen++;
    if (st.seen < slow) return;

    const f = average(st.closes, st.seen, fast, slow);
    const s = average(st.closes, st.seen, slow, slow);
    const pf = st.prevFast;
    const ps = st.prevSlow;
    st.prevFast = f;
    st.prevSlow = s;
    if (st.seen < slow + 1) return;

    const crossedUp = pf <= ps && f > s;
    const crossedDown = pf >= ps && f < s;
    if (!crossedUp && !crossedDown) return;
    // Only now (a cross is rare) look at the orders in flight, the session and the position: the
    // broker takes a market order in the regular session only (`ctx.marketOrderAllowed`).
    if (this.ctx.openOrders(bar.symbol).length > 0 || !this.ctx.marketOrderAllowed(bar.symbol)) return;
    const position = this.ctx.position(bar.symbol);
    if (crossedUp && position === undefined) {
      this.ctx.buy(bar.symbol, quantity);
    } else if (crossedDown && position !== undefined) {
      this.ctx.sell(bar.symbol, position.quantity);
    }
  }
}

/**
 * The mean of the last `n` closes in a ring of size `size` holding `seen` closes, summed oldest
 * first (so the result does not depend on how the ring wrapped). The ring index steps and wraps
 * instead of taking `k % size` per close: a division per close is what this function would
 * otherwise spend most of its time on.
 */
function average(ring: Float64Array, seen: number, n: number, size: number): number {
  let sum = 0;
  let j = (seen - n) % size;
  for (let k = 0; k < n; k++) {
    sum += ring[j] as number;
    if (++j === size) j = 0;
  }
  return sum / n;
}

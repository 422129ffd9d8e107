/**
 * An RSI pullback, per symbol, on the run's bars: an example of an indicator library, warm-up, limit
 * orders and their cancellation.
 *
 * On each bar's close, with `r` the bar's RSI over `period` closes (Wilder's, from `trading-signals`):
 * - flat, with no order working, and `r < buyBelow`: a limit buy of `quantity` at `discountPct` %
 *   under the close, rounded down to the price grid; it rests until it fills, or until
 *   `maxBarsWorking` bars went by without filling it, when it is cancelled (that bar places nothing);
 * - long, with no order working, and `r > sellAbove`: sell the whole position at market, when the
 *   broker takes a market order then (`ctx.marketOrderAllowed`): in the regular session of the
 *   symbol's market (KR 09:00–15:30 KST, US 09:30–16:00 New York). Outside it (the pre- and
 *   after-market, the US day market) it takes limit orders only: the position waits for a high RSI
 *   in the regular session. A daily backtest sells on any bar (the order is for the next open).
 *
 * The RSI needs `period + 1` closes: `static warmupBars` asks for 50 bars before `--from`, so it is
 * ready at the first bar of the run (`period` is at most 49). Orders are placed only after warm-up.
 *
 * Run it: `pnpm hoga backtest strategies/rsi-pullback.ts --symbols 005930,AAPL --interval 1d --from 2024-01-01 --to 2024-12-31`
 */
import {
  type Bar,
  type ClientOrderId,
  Decimal,
  instrumentOf,
  isTerminalOrderState,
  type OrderEvent,
  roundToTick,
} from '@hoga/core';
import { Strategy, z } from '@hoga/engine';
import { RSI } from 'trading-signals';

/** Bars of warm-up asked for: the RSI of a `period` up to 49 is ready at the run's first bar. */
const WARMUP_BARS = 50;

const Config = z
  .strictObject({
    /** Closes in the RSI. */
    period: z
      .number()
      .int()
      .min(2)
      .max(WARMUP_BARS - 1)
      .default(14),
    /** Buy below this RSI. */
    buyBelow: z.number().gt(0).lt(100).default(30),
    /** Sell above this RSI (more than `buyBelow`). */
    sellAbove: z.number().gt(0).lt(100).default(55),
    /** Shares bought (whole shares: a buy of a fractional quantity is refused). */
    quantity: z.number().int().positive().default(10),
    /** How far under the close the limit buy rests, in percent. */
    discountPct: z.number().min(0).lt(100).default(0.5),
    /** Bars a limit buy may work before it is cancelled. */
    maxBarsWorking: z.number().int().positive().default(3),
  })
  .refine((c) => c.buyBelow < c.sellAbove, { message: 'less than sellAbove', path: ['buyBelow'] });

/** The parsed config. */
export type RsiPullbackConfig = z.infer<typeof Config>;

/** Per-symbol state: the indicator, and the working limit buy with the bars it has waited. */
interface SymbolState {
  readonly rsi: RSI;
  buyId: ClientOrderId | null;
  barsWorking: number;
}

/** Buys pullbacks (a low RSI) with a limit under the close, sells the rebound at market. */
export default class RsiPullback extends Strategy<RsiPullbackConfig> {
  static readonly configSchema = Config;
  static readonly warmupBars = WARMUP_BARS;

  private readonly symbols = new Map<string, SymbolState>();

  override onBar(bar: Bar): void {
    const c = this.config;
    let st = this.symbols.get(bar.symbol);
    if (st === undefined) {
      st = { rsi: new RSI(c.period), buyId: null, barsWorking: 0 };
      this.symbols.set(bar.symbol, st);
    }
    const r = st.rsi.add(bar.close);
    if (this.ctx.isWarmingUp) return;
    if (st.buyId !== null) {
      // the bar that ends a buy's patience cancels it (once: live, the cancel takes a while to be
      // confirmed) and places nothing
      if (++st.barsWorking === c.maxBarsWorking) this.ctx.cancel(st.buyId);
      return;
    }
    if (r === null || this.ctx.openOrders(bar.symbol).length > 0) return;
    const position = this.ctx.position(bar.symbol);
    if (position === undefined && r < c.buyBelow) {
      const under = new Decimal(bar.close).times(1 - c.discountPct / 100);
      const limit = roundToTick(instrumentOf(bar.symbol), under, 'down');
      st.buyId = this.ctx.buy(bar.symbol, c.quantity, limit);
      st.barsWorking = 0;
    } else if (position !== undefined && r > c.sellAbove && this.ctx.marketOrderAllowed(bar.symbol)) {
      this.ctx.sell(bar.symbol, position.quantity);
    }
  }

  override onOrderEvent(event: OrderEvent): void {
    // the buy filled, was cancelled, denied or rejected: the symbol may buy again
    const order = this.ctx.order(event.clientOrderId);
    const st = order === undefined ? undefined : this.symbols.get(order.symbol);
    if (order !== undefined && st?.buyId === event.clientOrderId && isTerminalOrderState(order.state)) {
      st.buyId = null;
    }
  }
}

/**
 * Dollar-cost averaging, per symbol: every `everyDays` trading days, buy a fixed sum at market.
 * An example of amount orders (a US stock bought for `usd` dollars, in fractional shares), the
 * window the broker takes them in, the market's trading date, and persistent state.
 *
 * Per symbol, on each bar's close:
 * - its trading date is the one of its market's regular session (`ctx.regularSession`: KST dates
 *   for KR, New York's for US); each new date with a bar of the symbol counts one trading day;
 * - a buy is due on the first trading day, then once `everyDays` trading days have passed since the
 *   last buy's date (`everyDays: 1`: every trading day);
 * - a due buy is placed on the first bar at which the broker takes it: a US stock by an amount
 *   order of `usd` dollars (`ctx.buyAmount`) while `ctx.amountOrderAllowed` (from the regular open
 *   to an hour before the close, 09:30–15:00 New York), a KR stock as many whole shares as `krw`
 *   won buys at the bar's close, at market, while `ctx.marketOrderAllowed` (the regular session,
 *   09:00–15:30 KST). On daily bars both answer true (the order is for the next open).
 *
 * A due buy that the broker does not take on its day (no bar in the window) is placed on the next
 * day's first bar in it. A KR stock whose one share costs more than `krw` is not bought (said once).
 * A buy the broker refuses is not tried again before the next due day (the log says why). Its
 * positions are held: on a bad day their fall counts against the risk module's daily loss limit
 * (`dailyLossLimitKrw`), which halts the strategy until the next trading day (a year of 005930 and
 * AAPL on daily bars at the defaults: halted once, no buy denied).
 *
 * The last buy's date and the trading days counted since are kept in the strategy's persistent
 * state (`ctx.state`), a key per symbol written once a trading day and at each buy: a live run
 * restarted during the day does not buy a second time that day, and one restarted days later goes
 * on counting from its last buy.
 *
 * Run it: `pnpm hoga backtest strategies/dollar-cost-average.ts --symbols AAPL,005930 --interval 1d --from 2025-01-01 --to 2025-12-31`
 */
import { type Bar, MIN_ORDER_AMOUNT_USD, marketOfSymbol, type OrderEvent } from '@hoga/core';
import { Strategy, z } from '@hoga/engine';

const Config = z.strictObject({
  /**
   * Dollars spent on a US stock at each buy (an amount order: fractional shares), to the cent and
   * at least the broker's least amount order ($1: one under it is rejected).
   */
  usd: z.number().min(MIN_ORDER_AMOUNT_USD.toNumber()).max(1_000_000).multipleOf(0.01).default(100),
  /** Won spent on a KR stock at each buy, in whole shares at the bar's close. */
  krw: z.number().int().positive().max(99_000_000).default(500_000),
  /** Trading days from one buy of a symbol to its next (1: every trading day). */
  everyDays: z.number().int().min(1).max(260).default(5),
});

/** The parsed config. */
export type DollarCostAverageConfig = z.infer<typeof Config>;

/** A symbol's schedule, as kept in the persistent state. */
export interface BuySchedule {
  /** The trading date of the last buy placed, or null before the first. */
  readonly lastBuy: string | null;
  /** The last trading date a bar of the symbol came on. */
  readonly seen: string;
  /** Trading days counted since the last buy's date (the date of `seen` included). */
  readonly days: number;
}

/**
 * The state key of a symbol's schedule: one key a symbol, so a day's count writes a few bytes, not
 * the schedules of every symbol.
 */
export function scheduleKey(symbol: string): string {
  return `schedule:${symbol}`;
}

export default class DollarCostAverage extends Strategy<DollarCostAverageConfig> {
  static readonly configSchema = Config;

  /** The schedules by symbol (each read from the persistent state at its first bar, written on each change). */
  private readonly schedules = new Map<string, BuySchedule>();
  /** KR symbols said to cost more than `krw` a share. */
  private readonly tooDear = new Set<string>();

  override onBar(bar: Bar): void {
    const symbol = bar.symbol;
    // null on a day without a session; undefined in paper and live until the broker's calendar is read
    const date = this.ctx.regularSession(symbol)?.date;
    if (date === undefined) return;
    const schedule = this.count(symbol, date);
    const due =
      schedule.lastBuy === null || (schedule.lastBuy !== date && schedule.days >= this.config.everyDays);
    if (!due || this.ctx.openOrders(symbol).length > 0) return;
    if (marketOfSymbol(symbol) === 'US') {
      if (!this.ctx.amountOrderAllowed(symbol)) return;
      this.ctx.buyAmount(symbol, this.config.usd);
    } else {
      if (!this.ctx.marketOrderAllowed(symbol)) return;
      const shares = Math.floor(this.config.krw / bar.close);
      if (shares < 1) {
        if (!this.tooDear.has(symbol)) {
          this.tooDear.add(symbol);
          this.ctx.log.warn(
            { symbol, close: bar.close, krw: this.config.krw },
            'one share costs more than krw: not bought',
          );
        }
        return;
      }
      this.ctx.buy(symbol, shares);
    }
    this.keep(symbol, { lastBuy: date, seen: date, days: 0 });
  }

  override onOrderEvent(event: OrderEvent): void {
    if (event.type === 'OrderDenied' || event.type === 'OrderRejected') {
      this.ctx.log.warn(
        { clientOrderId: event.clientOrderId, code: event.code, reason: event.reason },
        'buy refused',
      );
    }
  }

  /** The symbol's schedule with `date` counted (a new trading date is one more day). */
  private count(symbol: string, date: string): BuySchedule {
    let kept = this.schedules.get(symbol);
    if (kept === undefined) {
      // the symbol's first bar in this run: what an earlier run kept, else a symbol never bought
      kept = (this.ctx.state.get(scheduleKey(symbol)) as BuySchedule | undefined) ?? {
        lastBuy: null,
        seen: '',
        days: 0,
      };
      this.schedules.set(symbol, kept);
    }
    if (kept.seen === date) return kept;
    const next = { lastBuy: kept.lastBuy, seen: date, days: kept.days + 1 };
    this.keep(symbol, next);
    return next;
  }

  private keep(symbol: string, schedule: BuySchedule): void {
    this.schedules.set(symbol, schedule);
    this.ctx.state.set(scheduleKey(symbol), schedule);
  }
}

/**
 * An opening-range breakout, per symbol, on minute bars: an example of the time of day, timers and
 * persistent state.
 *
 * Each trading day, a symbol's range is the high and the low of its bars in the first `rangeMinutes`
 * minutes of its market's regular session (KR 09:00–15:30 KST, US 09:30–16:00 New York; a minute
 * bar is stamped with the end of its minute). After the range, on each bar's close:
 * - flat, not yet entered today, and the close above the range's high: buy `quantity` at market
 *   (once a day per symbol);
 * - long, and the close below the range's low: sell the position at market (the stop).
 *
 * `flatMinutes` before the regular close, a timer sells at market what the strategy still holds of
 * that market's symbols (whether or not a bar comes then), and a bar from then on sells a position
 * still held (a buy that filled after the timer). In the last regular minute a second timer cancels
 * a buy still unfilled (a thin stock with no trade since it was placed) and sells what is held,
 * the part such a buy filled once its cancel is answered: it is flat by the close. An order is placed only while the broker takes a market order
 * (`ctx.marketOrderAllowed`): the bar that closes at the regular close (15:30 KST, 16:00 New York)
 * is the after-market's first moment, where a market order is refused (`order-type-not-allowed`),
 * so nothing is placed on it. Bars outside the regular session (the KR after market, the US pre
 * and after markets) are not traded. The days a symbol was entered are kept in
 * the strategy's persistent state (`ctx.state`), so a live run restarted during the day does not
 * enter a symbol a second time. The day's regular session is the one the run knows
 * (`ctx.regularSession`): in paper and live the broker's market calendar, a special session it
 * announces included; in a backtest the broker model's (a NYSE early close ends at 13:00 New York,
 * the KRX's late openings start at 10:00 KST, the CSAT day ends at 16:30); core's table
 * (`regularOpenOfDailyStamp`, `regularCloseOfDailyStamp`) while the broker's calendar does not tell
 * the day yet.
 *
 * Run it: `pnpm hoga backtest strategies/opening-range.ts --symbols 005930,AAPL --interval 1m --from 2026-10-05 --to 2026-10-09`
 */
import {
  type Bar,
  KST_ZONE,
  type Market,
  marketOfSymbol,
  NEW_YORK_ZONE,
  type OrderEvent,
  regularCloseOfDailyStamp,
  regularOpenOfDailyStamp,
} from '@hoga/core';
import { type RegularSession, Strategy, type TimerFired, z } from '@hoga/engine';
import { DateTime } from 'luxon';

const Config = z.strictObject({
  /** Minutes of the opening range. */
  rangeMinutes: z.number().int().min(1).max(120).default(30),
  /** Shares bought on a breakout (whole shares: a buy of a fractional quantity is refused). */
  quantity: z.number().int().positive().default(10),
  /** Minutes before the regular close at which what is held is sold. */
  flatMinutes: z.number().int().min(1).max(120).default(15),
});

/** The parsed config. */
export type OpeningRangeConfig = z.infer<typeof Config>;

/** The zone of a market's trading dates. */
const ZONES: Readonly<Record<Market, string>> = { KR: KST_ZONE, US: NEW_YORK_ZONE };

/**
 * The regular session of `market` on the date of the minute ending at `ts`, or null when that
 * minute lies outside it (a minute bar stamped `ts` covers the minute before it: the bar stamped
 * with the close is the session's last, though it closes when market orders are no longer taken,
 * see `ctx.marketOrderAllowed`). The usual hours
 * are KR 09:00–15:30 KST and US 09:30–16:00 New York; a day of special hours has its own (a NYSE
 * early close ends at 13:00; before, this strategy took the usual 16:00 there).
 */
export function regularSessionOf(market: Market, ts: number): RegularSession | null {
  const zone = ZONES[market];
  const date = DateTime.fromMillis(ts - 1, { zone }).toISODate() as string;
  // the daily candle's stamp of that trading date (KST midnight), which core's session times take
  const stamp = DateTime.fromISO(date, { zone: KST_ZONE }).toMillis();
  const open = regularOpenOfDailyStamp(market, stamp);
  const close = regularCloseOfDailyStamp(market, stamp);
  return ts > open && ts <= close ? { date, open, close } : null;
}

/** A symbol's range of the day. */
interface DayRange {
  readonly date: string;
  readonly end: number;
  high: number;
  low: number;
}

/** The events that end an order. */
const ENDED: ReadonlySet<string> = new Set(['OrderCanceled', 'OrderFilled', 'OrderExpired', 'OrderRejected']);

/** Buys a break above the opening range, sells below it, and is flat by the close. */
export default class OpeningRange extends Strategy<OpeningRangeConfig> {
  static readonly configSchema = Config;

  private readonly ranges = new Map<string, DayRange>();
  /** The buys the last regular minute's timer cancelled: once canceled, what they filled is sold. */
  private readonly cancelledLate = new Set<string>();

  override onStart(): void {
    if (this.ctx.universe.interval !== '1m') {
      this.ctx.log.warn(`trades minute bars: on ${this.ctx.universe.interval} bars it places no order`);
    }
  }

  override onBar(bar: Bar): void {
    const market = marketOfSymbol(bar.symbol);
    const session = this.sessionOf(bar.symbol, market, bar.ts);
    if (session === null) return;
    let range = this.ranges.get(bar.symbol);
    if (range?.date !== session.date) {
      range = {
        date: session.date,
        end: session.open + this.config.rangeMinutes * 60_000,
        high: bar.high,
        low: bar.low,
      };
      this.ranges.set(bar.symbol, range);
      this.setFlatTimer(market, session);
    }
    if (bar.ts <= range.end) {
      range.high = Math.max(range.high, bar.high);
      range.low = Math.min(range.low, bar.low);
      return;
    }
    if (this.ctx.openOrders(bar.symbol).length > 0) return;
    const held = this.ctx.position(bar.symbol);
    const flatAt = session.close - this.config.flatMinutes * 60_000;
    const buy =
      held === undefined &&
      bar.close > range.high &&
      bar.ts < flatAt &&
      !this.enteredOn(bar.symbol, session.date);
    const sell = held !== undefined && (bar.close < range.low || bar.ts >= flatAt);
    if (!buy && !sell) return;
    // the bar stamped with the close arrives in the after-market: a market order is refused there
    if (!this.ctx.marketOrderAllowed(bar.symbol)) {
      if (sell)
        this.ctx.log.warn({ symbol: bar.symbol }, 'market orders are no longer taken: held over the close');
      return;
    }
    if (buy) {
      this.remember(bar.symbol, session.date);
      this.ctx.buy(bar.symbol, this.config.quantity);
    } else if (held !== undefined) {
      this.ctx.sell(bar.symbol, held.quantity);
    }
  }

  /**
   * The day's regular session of `symbol` as the run knows it (`ctx.regularSession`: in paper and
   * live the broker's calendar, so a special session the broker announces counts; in a backtest
   * the broker model's), or core's table while the broker's calendar does not tell the day yet;
   * null when the minute ending at `ts` is outside it, or the market has no session that day.
   */
  private sessionOf(symbol: string, market: Market, ts: number): RegularSession | null {
    const told = this.ctx.regularSession(symbol);
    if (told === undefined) return regularSessionOf(market, ts);
    return told !== null && ts > told.open && ts <= told.close ? told : null;
  }

  /** `flat KR 2026-11-30`: sells what is held; `last KR 2026-11-30`: cancels unfilled buys first. */
  override onTimer(timer: TimerFired): void {
    const [kind, market] = timer.name.split(' ') as [string, Market];
    if (kind === 'last') {
      for (const order of this.ctx.openOrders()) {
        if (order.side !== 'BUY' || marketOfSymbol(order.symbol) !== market) continue;
        this.ctx.log.info(
          { symbol: order.symbol },
          'the buy has not filled by the last regular minute: cancelled',
        );
        this.cancelledLate.add(order.clientOrderId);
        this.ctx.cancel(order.clientOrderId);
      }
    }
    for (const position of this.ctx.positions()) {
      if (marketOfSymbol(position.symbol) === market) this.sellAll(position.symbol);
    }
  }

  /** Sells what is held of `symbol` at market, unless an order of it is open or the broker takes none now. */
  private sellAll(symbol: string): void {
    const position = this.ctx.position(symbol);
    if (position === undefined || this.ctx.openOrders(symbol).length > 0) return;
    if (!this.ctx.marketOrderAllowed(symbol)) return;
    this.ctx.log.info({ symbol }, `flat before the close: selling ${position.quantity}`);
    this.ctx.sell(symbol, position.quantity);
  }

  override onOrderEvent(event: OrderEvent): void {
    // a buy cancelled in the last regular minute may have filled in part (or whole, before the
    // cancel reached it): sell what it filled once it ended (a KR sell is refused while a buy of the
    // stock is still pending, so not before)
    if (ENDED.has(event.type) && this.cancelledLate.delete(event.clientOrderId)) {
      const order = this.ctx.order(event.clientOrderId);
      if (order !== undefined) this.sellAll(order.symbol);
    }
    if (event.type === 'OrderDenied' || event.type === 'OrderRejected') {
      this.ctx.log.warn({ clientOrderId: event.clientOrderId }, `order refused: ${event.reason}`);
    }
  }

  /**
   * Sets the day's timers of a market (not when past): `flatMinutes` before its close, and at the
   * start of its last regular minute (the last moment a market order is taken).
   */
  private setFlatTimer(market: Market, session: RegularSession): void {
    const now = this.ctx.now();
    const at = session.close - this.config.flatMinutes * 60_000;
    if (at > now) this.ctx.setTimer(`flat ${market} ${session.date}`, { at });
    const last = session.close - 60_000;
    if (last > now) this.ctx.setTimer(`last ${market} ${session.date}`, { at: last });
  }

  private enteredOn(symbol: string, date: string): boolean {
    return this.ctx.state.get<Record<string, string>>('entered')?.[symbol] === date;
  }

  private remember(symbol: string, date: string): void {
    const entered = this.ctx.state.get<Record<string, string>>('entered') ?? {};
    this.ctx.state.set('entered', { ...entered, [symbol]: date });
  }
}

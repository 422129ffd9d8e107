/**
 * Today's unrealised PnL of a backtest's positions, as the bars move them: the daily loss limit of
 * a backtest then counts what live and paper count (see day-references), not its realised PnL only.
 *
 * A backtest's prices are its bars' closes, numbers written once per bar; valuing every position
 * with Decimals at every check would cost the backtest its speed. So the positions' unrealised PnL
 * of the day is kept here as running sums of numbers per strategy and for the account, changed by
 * each bar of a held symbol (`quantity × (close − previous close)`) and each fill, and set to zero
 * when a trading day begins: at that moment every position is worth what it was worth at its
 * reference price (the last close before the day), which is where today's PnL counts from.
 *
 * The sums are estimates with a known bound on their rounding error: the kill switch takes one as
 * clear only when it is clear by more than the bound, and otherwise asks the risk book, which
 * values the positions with Decimals at the marks and references kept here (exact).
 *
 * @module
 */
import { type Decimal, decimalOfNumber, type Fill } from '@hoga/core';
import { unrealisedToday } from './day-references.js';
import { costResidual, type Holding, numberOf } from './risk-book-records.js';
import { BAR_CLOSE_DAY_SHIFT_MS, toKrw, tradingDayStartMs } from './valuation.js';

/** Running sums of one scope (a strategy, or the account), native currencies. */
interface ScopeSums {
  krw: number;
  usd: number;
  /** Sums of the absolute changes added (bounds the rounding error). */
  absKrw: number;
  absUsd: number;
}

/** One strategy's position in one symbol, as the sums count it. */
interface Holder {
  readonly sums: ScopeSums;
  readonly usd: boolean;
  /** Quantity held (as a number). */
  q: number;
  /** The price its unrealised PnL is counted at (the symbol's last close, else its first fill's). */
  at: number;
  /** `at` when the current trading day began (NaN: no price then). */
  ref: number;
}

/** Relative bound on the sums' rounding error (far above what ~10⁷ additions of doubles can make). */
const RELATIVE_ERROR = 1e-9;

/** Where the bars' closes are kept (the backtest's `MarkBook`). */
export interface BarCloses {
  /** The slot of a symbol (allocated on first use). */
  slot(symbol: string): number;
  /** Last closes by slot (NaN: none yet). */
  readonly values: Float64Array;
}

/**
 * A backtest's unrealised PnL of the day per strategy and for the account. The bar loop calls
 * {@link BarDayPnl.time} at each new bar time and {@link BarDayPnl.moved} with each close; the risk
 * book calls {@link BarDayPnl.filled} with each fill.
 */
export class BarDayPnl {
  private readonly bySlot: (Holder[] | undefined)[] = [];
  private readonly holders = new Map<string, Map<string, Holder>>();
  private readonly scopes = new Map<string, ScopeSums>();
  private readonly account: ScopeSums = { krw: 0, usd: 0, absKrw: 0, absUsd: 0 };
  /** Start of the trading day the sums are of (NaN: before the first bar). */
  private day = Number.NaN;
  /** Start of the trading day of the current bar time (the sums move to it at its first close or fill). */
  private barDay = Number.NaN;
  private lastTime = Number.NaN;
  /** Bumped by every change of a sum (part of the risk book's revision). */
  moves = 0;
  /** Called at each new bar time, the clock still at the last one: the risk engine's evaluation of the limits. */
  onTime: (() => void) | undefined;

  /** When a trading day starts, KST hour (the risk configuration's: set by the risk module). */
  tradingDayStartHourKst = 8;

  /** @param closes - the bars' last closes */
  constructor(private readonly closes: BarCloses) {}

  /**
   * A bar time `t` begins (called before its timers fire and its bars are matched and marked). The
   * sums move to its trading day at its first close or fill, or when a question names that day: a
   * timer due before `t` still sees the day it is due in.
   */
  time(t: number): void {
    if (t === this.lastTime) return;
    this.lastTime = t;
    // the limits as the last time left them (the clock is still there)
    this.onTime?.();
    // a bar stamped at a day's start closes the day before: its close and fills are of that day
    this.barDay = tradingDayStartMs(t - BAR_CLOSE_DAY_SHIFT_MS, this.tradingDayStartHourKst);
  }

  /**
   * The run's bars ended: the limits as its last bar time left them (no later bar time comes to
   * evaluate them; before, a loss past the limit on the run's last day halted nothing).
   */
  end(): void {
    if (!Number.isNaN(this.lastTime)) this.onTime?.();
  }

  /** A close of the symbol in `slot` (called before the bar book writes it). */
  moved(slot: number, close: number): void {
    if (this.barDay !== this.day) this.reach(this.barDay);
    const holders = this.bySlot[slot];
    if (holders === undefined) return;
    for (let i = 0; i < holders.length; i++) {
      const h = holders[i] as Holder;
      if (h.q !== 0) {
        const d = h.q * (close - h.at);
        if (d !== 0) this.add(h, d);
      }
      h.at = close;
    }
  }

  /**
   * A fill booked on a strategy's holding `after`, which held `q0` at average `a0` with the cost
   * residual `r0` (numbers, see `costResidual`) before it: the unrealised PnL at the symbol's price
   * (`(at − a) × q + r`) changes by `(at − a1) × q1 + r1 − (at − a0) × q0 − r0`.
   */
  filled(strategyId: string, fill: Fill, after: Holding, q0: number, a0: number, r0: number): void {
    this.reach(this.barDay);
    const h = this.holder(strategyId, fill.symbol, after.currency === 'USD');
    // a fill before the symbol's first close: counted from its price
    if (Number.isNaN(h.at)) h.at = fill.price.toNumber();
    const q1 = numberOf(after.quantityInt, after.quantity);
    const a1 = numberOf(after.averagePriceInt, after.averagePrice);
    const d = (h.at - a1) * q1 - (h.at - a0) * q0 + (costResidual(after) - r0);
    h.q = q1;
    if (d !== 0) this.add(h, d);
  }

  /**
   * The unrealised PnL of the day of the holdings of a strategy (or all, null) at the closes and
   * references kept here, in KRW at `usdKrw`, exactly (null: none); for the trading day starting at
   * `dayStartMs` (another day than the sums' has no references: its unrealised PnL counts whole).
   */
  unrealisedKrw(
    holdings: ReadonlyMap<string, ReadonlyMap<string, Holding>>,
    strategyId: string | null,
    dayStartMs: number,
    usdKrw: Decimal,
  ): Decimal | null {
    this.reach(dayStartMs);
    let total: Decimal | null = null;
    for (const [s, bySymbol] of holdings) {
      if (strategyId !== null && s !== strategyId) continue;
      for (const [symbol, h] of bySymbol) {
        const held = this.holders.get(s)?.get(symbol);
        if (held === undefined || Number.isNaN(held.at)) continue;
        const ref =
          dayStartMs === this.day && !Number.isNaN(held.ref) ? decimalOfNumber(held.ref) : undefined;
        const change = unrealisedToday(h, decimalOfNumber(held.at), ref, dayStartMs);
        if (change === null) continue;
        const krw = toKrw(change, h.currency, usdKrw);
        total = total === null ? krw : total.plus(krw);
      }
    }
    return total;
  }

  /**
   * A lower bound of the unrealised PnL of the day of a strategy (or the account, null) in KRW at
   * `usdKrw`, for the trading day starting at `dayStartMs`; NaN when the sums are of another day.
   */
  floorKrw(strategyId: string | null, dayStartMs: number, usdKrw: number): number {
    this.reach(dayStartMs);
    if (dayStartMs !== this.day) return Number.NaN;
    const s = strategyId === null ? this.account : this.scopes.get(strategyId);
    if (s === undefined) return 0;
    const value = s.krw + s.usd * usdKrw;
    return value - (s.absKrw + s.absUsd * usdKrw) * RELATIVE_ERROR;
  }

  private add(h: Holder, d: number): void {
    this.moves += 1;
    const abs = Math.abs(d);
    const s = h.sums;
    const a = this.account;
    if (h.usd) {
      s.usd += d;
      s.absUsd += abs;
      a.usd += d;
      a.absUsd += abs;
    } else {
      s.krw += d;
      s.absKrw += abs;
      a.krw += d;
      a.absKrw += abs;
    }
  }

  /** Moves the sums to the trading day starting at `day` when it is later (a question of the past moves nothing). */
  private reach(day: number): void {
    if (day > this.day || (Number.isNaN(this.day) && !Number.isNaN(day))) this.roll(day);
  }

  /** A new trading day: every position counts from its last close (its value now), so all sums are 0. */
  private roll(day: number): void {
    this.day = day;
    this.moves += 1;
    for (const s of [...this.scopes.values(), this.account]) {
      s.krw = 0;
      s.usd = 0;
      s.absKrw = 0;
      s.absUsd = 0;
    }
    for (const bySymbol of this.holders.values()) {
      for (const h of bySymbol.values()) h.ref = h.at;
    }
  }

  private holder(strategyId: string, symbol: string, usd: boolean): Holder {
    let bySymbol = this.holders.get(strategyId);
    if (bySymbol === undefined) {
      bySymbol = new Map();
      this.holders.set(strategyId, bySymbol);
    }
    let h = bySymbol.get(symbol);
    if (h === undefined) {
      let sums = this.scopes.get(strategyId);
      if (sums === undefined) {
        sums = { krw: 0, usd: 0, absKrw: 0, absUsd: 0 };
        this.scopes.set(strategyId, sums);
      }
      const slot = this.closes.slot(symbol);
      // a holding made today has no reference: nothing of it was held when the day began
      h = { sums, usd, q: 0, at: this.closes.values[slot] ?? Number.NaN, ref: Number.NaN };
      bySymbol.set(symbol, h);
      let list = this.bySlot[slot];
      if (list === undefined) {
        list = [];
        this.bySlot[slot] = list;
      }
      list.push(h);
    }
    return h;
  }
}

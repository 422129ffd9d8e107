/**
 * The risk module's own view of the account, built from the order events every order produces
 * (strategies' and the `hoga order` command's alike) and the prices the engine sees: open orders
 * (and the last status of closed ones), positions per strategy, and today's PnL in KRW.
 *
 * @module
 */
import { type Currency, Decimal, exactIntOf, type Fill, type OrderEvent } from '@hoga/core';
import type { BarDayPnl } from './bar-day-pnl.js';
import { bookOnDayStart, DayReferences, rollDayStart, unrealisedToday } from './day-references.js';
import { OutsideOrders } from './outside-orders.js';
import { amountOf, FillSlots, RealisedDays } from './realised-days.js';
import {
  bookOnHolding,
  costResidual,
  type Holding,
  holdingOf,
  holdingView,
  type MutableOrder,
  numberOf,
  type PnlAnswer,
} from './risk-book-records.js';
import { RiskOrders } from './risk-orders.js';
import type { OpenOrderView, PositionView, RestoredRiskOrder, RiskOrder, RiskView } from './risk-types.js';
import { BAR_CLOSE_DAY_SHIFT_MS, toKrw, tradingDayStartMs } from './valuation.js';

const ZERO = new Decimal(0);
const NONE: readonly string[] = [];

export type { RestoredRiskOrder, RiskOrder, RiskView } from './risk-types.js';

/** The risk module's book, fed with order events and prices. */
export class RiskBook implements RiskView {
  /** The open orders and the last closed ones. */
  private readonly orders = new RiskOrders();
  /** The account's open orders that are not the book's own (live: see {@link RiskBook.setOutsideOrders}). */
  private readonly outside = new OutsideOrders();
  private readonly holdings = new Map<string, Map<string, Holding>>();
  /** Realised PnL (native currency, net of charges) per trading day, then per `strategy|currency`. */
  private readonly realised = new RealisedDays();
  private readonly prices = new Map<string, Decimal>();
  /** What today's PnL of each symbol counts from (see day-references). */
  private readonly references = new DayReferences(this.prices);
  private rate: Decimal;
  /** `rate` as a safe integer, or NaN. */
  private rateInt: number;
  /** `rate` as a number (a Decimal's `toNumber` parses a string: read once per rate). */
  private rateNumber: number;
  /** The rate of the moment (a backtest's), read once a USD fill is booked (`usdBooked`). */
  private usdKrwSource: (() => Decimal) | undefined;
  private usdBooked = false;
  /** A backtest's positions valued at its bars' closes (then no prices are noted here). */
  private barPnl: BarDayPnl | undefined;
  /** Where each strategy's fills in each currency are booked. */
  private readonly slots = new FillSlots((strategyId) => this.holdingsOf(strategyId));
  /** @inheritdoc */
  dayShiftMs = 0;
  /** Bumped by every change the PnL answers depend on (fills, prices, the rate, holdings). */
  private changes = 0;
  /** The last PnL answer per strategy (null: the account); checks and fills ask several times per change. */
  private readonly pnlCache = new Map<string | null, PnlAnswer>();
  /**
   * Position lists per strategy (positive holdings in the order the holdings were first booked),
   * built when asked and dropped when a fill or a restored holding changes the strategy's; a list
   * handed out is never changed afterwards.
   */
  private readonly positionCache = new Map<string, readonly PositionView[]>();

  /**
   * @param tradingDayStartHourKst - when a new trading day starts (realised PnL is kept per day)
   * @param usdKrw - the initial KRW per USD
   */
  constructor(
    private readonly tradingDayStartHourKst: number = 8,
    usdKrw: Decimal = new Decimal(1400),
  ) {
    this.rate = usdKrw;
    this.rateInt = exactIntOf(usdKrw);
    this.rateNumber = usdKrw.toNumber();
  }

  /**
   * A price of a symbol at `atMs`: the first of a new trading day makes the price before it the
   * day's reference (today's PnL counts from it).
   */
  notePrice(symbol: string, price: Decimal, atMs: number): void {
    // positions do not depend on prices: only the PnL answers go stale
    this.changes += 1;
    this.references.beforePrice(symbol, price, this.dayStartOf(atMs));
    this.prices.set(symbol, price);
  }

  /** The KRW per USD rate. */
  setUsdKrw(rate: Decimal): void {
    this.changes += 1;
    this.rate = rate;
    this.rateInt = exactIntOf(rate);
    this.rateNumber = rate.toNumber();
  }

  /** Values USD at `source`'s rate of the moment (a backtest's rate), not at the rate last set. */
  followUsdKrw(source: () => Decimal): void {
    this.usdKrwSource = source;
  }

  /**
   * Values positions at a backtest's bar closes, through `pnl` (fed with the fills booked here):
   * today's PnL then counts unrealised PnL as live and paper count it at their prices.
   */
  followBarCloses(pnl: BarDayPnl): void {
    this.barPnl = pnl;
    this.dayShiftMs = BAR_CLOSE_DAY_SHIFT_MS;
  }

  /** Start of the trading day an instant is of (a backtest's bar stamped at a day's start: the day before). */
  private dayStartOf(ms: number): number {
    return tradingDayStartMs(ms - this.dayShiftMs, this.tradingDayStartHourKst);
  }

  /** @inheritdoc */
  revision(): number {
    this.followRate();
    return this.barPnl === undefined ? this.changes : this.changes + this.barPnl.moves;
  }

  /** Takes the source's rate of the moment, once USD fills are booked (a change is a revision). */
  private followRate(): void {
    if (!this.usdBooked || this.usdKrwSource === undefined) return;
    const rate = this.usdKrwSource();
    if (!rate.eq(this.rate)) this.setUsdKrw(rate);
  }

  /** Shares a strategy holds already (the broker's holdings, as `hoga order` counts them). */
  setHolding(
    strategyId: string,
    symbol: string,
    currency: Currency,
    quantity: Decimal,
    averagePrice: Decimal,
  ): void {
    this.changes += 1;
    this.positionCache.delete(strategyId);
    const holdings = this.holdingsOf(strategyId);
    const rank = holdings.get(symbol)?.rank ?? holdings.size;
    // what it held when today began: the first PnL question of the day records it
    holdings.set(symbol, holdingOf(quantity, averagePrice, currency, rank));
  }

  /** Applies one order event. */
  onEvent(event: OrderEvent): void {
    if (event.type === 'OrderSubmitted') {
      this.orders.submit(event);
      return;
    }
    const order = this.orders.known(event.clientOrderId);
    if (order === undefined) return;
    let changed = true;
    if (event.type === 'OrderPartiallyFilled' || event.type === 'OrderFilled') {
      this.applyFill(order, event.fill, event.type === 'OrderFilled');
    } else changed = this.orders.transition(order, event);
    this.orders.settle(order, changed);
  }

  /**
   * An order still open from before this process (an earlier run's, restored from the store as the
   * broker left it): open as if submitted, with its fills so far. Its fills are not booked again
   * (the strategy's holdings come from its stored fills, see {@link RiskBook.bookStoredFill}).
   */
  restoreOpen(order: RestoredRiskOrder): void {
    this.orders.restore(order);
  }

  /** @inheritdoc */
  openOrders(): readonly OpenOrderView[] {
    return this.orders.openOrders();
  }

  /**
   * The account's open orders that are not this book's own, as the store lists them now (live):
   * another live run's, a strategy's not in this run, `hoga order`'s, those from another channel
   * (`ext-`). Orders the book knows (its strategies' own, open or ended) are passed over. They
   * replace the last list: an order not in it any more ended.
   *
   * @returns the outside orders that appeared, ended or changed since the last list
   */
  setOutsideOrders(orders: readonly RestoredRiskOrder[]): readonly OpenOrderView[] {
    const outside = orders.filter((o) => this.orders.known(o.clientOrderId) === undefined);
    return this.outside.replace(outside);
  }

  /** @inheritdoc */
  accountOpenOrders(): readonly OpenOrderView[] {
    const own = this.orders.openOrders();
    return this.outside.size === 0 ? own : [...own, ...this.outside.orders()];
  }

  /** @inheritdoc */
  pricedOpenOrderCount(): number {
    return this.orders.pricedOpenOrderCount();
  }

  /** @inheritdoc */
  openOrderCount(strategyId: string): number {
    return this.orders.openOrderCount(strategyId);
  }

  /** @inheritdoc */
  order(clientOrderId: string): RiskOrder | undefined {
    return this.orders.order(clientOrderId);
  }

  /** @inheritdoc */
  positions(strategyId: string): readonly PositionView[] {
    const cached = this.positionCache.get(strategyId);
    if (cached !== undefined) return cached;
    const out: PositionView[] = [];
    for (const [symbol, h] of this.holdings.get(strategyId) ?? []) {
      const view = holdingView(symbol, h);
      if (view !== undefined) out.push(view);
    }
    this.positionCache.set(strategyId, out);
    return out;
  }

  /** @inheritdoc */
  position(strategyId: string, symbol: string): PositionView | undefined {
    const h = this.holdings.get(strategyId)?.get(symbol);
    return h === undefined ? undefined : holdingView(symbol, h);
  }

  /** @inheritdoc */
  lastPrices(): ReadonlyMap<string, Decimal> {
    return this.prices;
  }

  /** @inheritdoc */
  usdKrw(): Decimal {
    return this.rate;
  }

  /** @inheritdoc */
  dailyPnlKrw(strategyId: string | null, nowMs: number): Decimal {
    const day = this.dayStartOf(nowMs);
    const revision = this.revision();
    const cached = this.pnlCache.get(strategyId);
    if (cached !== undefined && cached.revision === revision && cached.dayStartMs === day) {
      return cached.value;
    }
    // 0 + x is x: the first term is taken as it is, the others added in order
    let total: Decimal | null = null;
    const today = this.realised.table(day);
    if (today !== undefined) {
      for (const e of today.list) {
        if (strategyId === null || e.strategyId === strategyId) {
          const krw = toKrw(amountOf(e), e.currency, this.rate);
          total = total === null ? krw : total.plus(krw);
        }
      }
    }
    // only symbols with a price (or, seen by a book with prices, a fill) carry unrealised PnL: walk
    // those, not every holding (a backtest's book has no prices: no walk, and no iterator made)
    for (const symbol of this.references.size === 0 ? NONE : this.references.symbols()) {
      const reference = this.references.reference(symbol, day);
      const mark = this.prices.get(symbol) ?? reference;
      if (mark === undefined) continue;
      for (const [s, bySymbol] of this.holdings) {
        if (strategyId !== null && s !== strategyId) continue;
        const h = bySymbol.get(symbol);
        const pnl = h === undefined ? null : unrealisedToday(h, mark, reference, day);
        if (pnl === null) continue;
        const krw = toKrw(pnl, (h as Holding).currency, this.rate);
        total = total === null ? krw : total.plus(krw);
      }
    }
    const atCloses = this.barPnl?.unrealisedKrw(this.holdings, strategyId, day, this.rate) ?? null;
    if (atCloses !== null) total = total === null ? atCloses : total.plus(atCloses);
    const value = total ?? ZERO;
    if (cached === undefined) {
      this.pnlCache.set(strategyId, { revision, dayStartMs: day, value });
    } else {
      cached.revision = revision;
      cached.dayStartMs = day;
      cached.value = value;
    }
    return value;
  }

  /**
   * {@link RiskBook.dailyPnlKrw} as a number when it is exactly one: no prices known (realised PnL
   * only) and every amount, the rate for USD amounts and every partial sum safe integers. NaN
   * otherwise (ask {@link RiskBook.dailyPnlKrw}). The kill switch compares it on every fill without
   * making a Decimal.
   */
  dailyPnlKrwInt(strategyId: string | null, nowMs: number): number {
    if (this.references.size > 0 || this.barPnl !== undefined) return Number.NaN;
    this.followRate();
    return this.realised.sumInt(this.dayStartOf(nowMs), strategyId, this.rateInt);
  }

  /**
   * A lower bound of {@link RiskBook.dailyPnlKrw} as a number, within a small fraction of it, when
   * positions are valued at bar closes ({@link RiskBook.followBarCloses}); NaN otherwise.
   */
  dailyPnlKrwFloor(strategyId: string | null, nowMs: number): number {
    if (this.barPnl === undefined) return Number.NaN;
    this.followRate();
    const day = this.dayStartOf(nowMs);
    const rate = this.rateNumber;
    return this.realised.floorKrw(day, strategyId, rate) + this.barPnl.floorKrw(strategyId, day, rate);
  }

  private applyFill(order: MutableOrder, fill: Fill, complete: boolean): void {
    this.changes += 1;
    // the first fill's quantity is the filled quantity (0 + q is q)
    order.filledQuantity = order.filledQuantity.isZero()
      ? fill.quantity
      : order.filledQuantity.plus(fill.quantity);
    // the filled amount is read for amount orders only (their remaining amount)
    if (order.amount !== null) order.filledAmount = order.filledAmount.plus(fill.quantity.times(fill.price));
    order.status = complete ? 'FILLED' : 'PARTIAL_FILLED';
    this.bookFill(order.strategyId, order.currency, fill);
  }

  /**
   * A fill of an earlier run of a strategy (its stored fills, in the order they were stored): booked
   * on its holding and on the realised PnL of its day, so that today's loss before a restart counts
   * after it.
   */
  bookStoredFill(strategyId: string, currency: Currency, fill: Fill): void {
    this.changes += 1;
    this.bookFill(strategyId, currency, fill);
  }

  /** Books a fill on its strategy's holding and the realised PnL of its trading day. */
  private bookFill(strategyId: string, currency: Currency, fill: Fill): void {
    if (currency === 'USD') this.usdBooked = true;
    const slot = this.slots.of(strategyId, currency);
    const holdings = slot.holdings;
    let h = holdings.get(fill.symbol);
    if (h === undefined) {
      h = holdingOf(ZERO, ZERO, currency, holdings.size);
      holdings.set(fill.symbol, h);
    }
    const day = this.dayStartOf(fill.tsEvent);
    // what the holding began the fill's day with (a fill of an earlier day: that day began with it)
    if (day < h.dayStartMs) bookOnDayStart(h, fill);
    else rollDayStart(h, day);
    if (this.prices.size > 0) this.references.noteFill(fill.symbol, fill.price, day);
    const q0 = this.barPnl === undefined ? 0 : numberOf(h.quantityInt, h.quantity);
    const a0 = this.barPnl === undefined ? 0 : numberOf(h.averagePriceInt, h.averagePrice);
    const r0 = this.barPnl === undefined ? 0 : costResidual(h);
    const { changeInt, change } = bookOnHolding(h, fill);
    this.barPnl?.filled(strategyId, fill, h, q0, a0, r0);
    // the position view and the strategy's list are rebuilt when next asked for
    h.view = undefined;
    if (this.positionCache.size !== 0) this.positionCache.delete(strategyId);
    this.realised.book(slot, day, changeInt, change);
  }

  private holdingsOf(strategyId: string): Map<string, Holding> {
    let bySymbol = this.holdings.get(strategyId);
    if (bySymbol === undefined) {
      bySymbol = new Map();
      this.holdings.set(strategyId, bySymbol);
    }
    return bySymbol;
  }
}

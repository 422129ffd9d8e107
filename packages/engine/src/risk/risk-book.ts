/**
 * The risk module's own view of the account, built from the order events every order produces
 * (strategies' and the `hoga order` command's alike) and the prices the engine sees: open orders
 * (and the last status of closed ones), positions per strategy, and today's PnL in KRW.
 *
 * @module
 */
import {
  type Currency,
  Decimal,
  type Fill,
  type KnownBrokerOrderStatus,
  type OrderEvent,
  type OrderSide,
  type OrderType,
  type TimeInForce,
} from '@hoga/core';
import { addExact, mulExact, safeIntOf, subExact } from './exact-int.js';
import type { RawIntentFields } from './intent-fields.js';
import type { OpenOrderView, PositionView } from './risk-types.js';
import { toKrw, tradingDayStartMs } from './valuation.js';

const ZERO = new Decimal(0);

/** What the risk engine reads of the account (its own book, or an adapter over another one). */
export interface RiskView {
  /** Every open order of the account. */
  openOrders(): readonly OpenOrderView[];
  /** How many of {@link RiskView.openOrders} are a strategy's (without it they are counted from the list). */
  openOrderCount?(strategyId: string): number;
  /**
   * How many of {@link RiskView.openOrders} have a limit price or an amount (a market order by
   * quantity has neither: it is worth 0 while no price is known).
   */
  pricedOpenOrderCount?(): number;
  /** An order by its client id: open, or closed with its last status; undefined when unknown. */
  order(clientOrderId: string): RiskOrder | undefined;
  /** Positions of one strategy. */
  positions(strategyId: string): readonly PositionView[];
  /** Last prices by symbol. */
  lastPrices(): ReadonlyMap<string, Decimal>;
  /** KRW per USD. */
  usdKrw(): Decimal;
  /** Today's PnL in KRW (realised today + unrealised at the last prices) of a strategy, or the account (null). */
  dailyPnlKrw(strategyId: string | null, nowMs: number): Decimal;
  /**
   * A number that changes whenever an answer of {@link RiskView.dailyPnlKrw} may change for the
   * same trading day (a fill, a price, the rate, a restored holding). Without it the risk engine
   * evaluates the daily loss limits on every check.
   */
  revision?(): number;
  /**
   * {@link RiskView.dailyPnlKrw} as a number when it is exactly a safe integer, else NaN. Lets the
   * kill switch compare without making a Decimal; without it the Decimal answer is compared.
   */
  dailyPnlKrwInt?(strategyId: string | null, nowMs: number): number;
}

/** An order in the risk view, open or closed. */
export interface RiskOrder extends OpenOrderView {
  /** The broker status it is in, as far as hoga knows. */
  readonly status: KnownBrokerOrderStatus;
  readonly timeInForce: TimeInForce;
  /** Ordered quantity (null for amount orders). */
  readonly quantity: Decimal | null;
  readonly filledQuantity: Decimal;
}

interface MutableOrder {
  clientOrderId: string;
  strategyId: string;
  symbol: string;
  market: OpenOrderView['market'];
  currency: Currency;
  side: OrderSide;
  orderType: OrderType;
  timeInForce: TimeInForce;
  price: Decimal | null;
  quantity: Decimal | null;
  amount: Decimal | null;
  filledQuantity: Decimal;
  filledAmount: Decimal;
  status: KnownBrokerOrderStatus;
  /** The view of the order as it stands (dropped on every event of the order). */
  view?: RiskOrder | undefined;
  /** Its strategy's count of open orders (it counts there while it is in the open map). */
  readonly openCount: OpenCount;
}

/** How many open orders a strategy has. */
interface OpenCount {
  readonly strategyId: string;
  n: number;
}

interface Holding {
  quantity: Decimal;
  averagePrice: Decimal;
  /** `quantity` and `averagePrice` as numbers when they are safe integers, else NaN (see exact-int). */
  quantityInt: number;
  averagePriceInt: number;
  currency: Currency;
  /** The position as the checks see it while the quantity is positive, else null (undefined: not built yet). */
  view?: PositionView | null | undefined;
  /** Place of the holding in its strategy's map (the order the position lists keep). */
  rank?: number;
}

/**
 * Realised PnL of one strategy in one currency on one trading day: a number while it is a safe
 * integer (whole-won fills: no Decimal made per fill), else a Decimal.
 */
interface RealisedEntry {
  readonly strategyId: string;
  readonly currency: Currency;
  /** The amount as a safe integer, or NaN: then `amount` holds it. */
  amountInt: number;
  /** The amount as a Decimal (null while `amountInt` holds it and no one asked for the Decimal). */
  amount: Decimal | null;
}

/** An entry's amount as a Decimal (made once from its integer when first asked). */
function amountOf(e: RealisedEntry): Decimal {
  if (e.amount === null) e.amount = new Decimal(e.amountInt);
  return e.amount;
}

/**
 * Where the fills of one strategy in one currency are booked: the strategy's holdings, and its
 * realised entry of the trading day it last filled on (found once a day, not on every fill).
 */
interface FillSlot {
  readonly strategyId: string;
  readonly currency: Currency;
  /** `strategy|currency`: the key of its realised entries. */
  readonly key: string;
  readonly holdings: Map<string, Holding>;
  /** Start of the trading day of `entry` (NaN before the first fill). */
  dayStartMs: number;
  entry: RealisedEntry | undefined;
}

/** The realised entries of one trading day, by `strategy|currency` and in the order first booked. */
interface DayTable {
  readonly byKey: Map<string, RealisedEntry>;
  readonly list: RealisedEntry[];
}

/** A daily PnL answer, good while the book's revision and the trading day are the same. */
interface PnlAnswer {
  revision: number;
  dayStartMs: number;
  value: Decimal;
}

const CLOSED: ReadonlySet<KnownBrokerOrderStatus> = new Set(['FILLED', 'CANCELED', 'REJECTED']);

/** The risk module's book, fed with order events and prices. */
export class RiskBook implements RiskView {
  /** Every order submitted, in the order submitted. */
  private readonly submitted: MutableOrder[] = [];
  /**
   * Orders by client id (the last submitted of an id wins), indexed from `submitted` up to
   * `indexed` only when an order is asked for that is not open: a run that never asks for a closed
   * order (a backtest) never builds it.
   */
  private readonly orders = new Map<string, MutableOrder>();
  private indexed = 0;
  /** Ids of the orders still open (the checks walk these, not every order ever seen). */
  private readonly open = new Map<string, MutableOrder>();
  private readonly holdings = new Map<string, Map<string, Holding>>();
  /**
   * Realised PnL (native currency, net of charges) per trading day (by its start, epoch ms), then
   * per `strategy|currency` (the entries also in a list, in the order first booked: the order the
   * sums are taken in).
   */
  private readonly realised = new Map<number, DayTable>();
  /** The last day {@link RiskBook.dayTable} was asked for, and its table then (NaN: none yet). */
  private lastDay = Number.NaN;
  private lastDayTable: DayTable | undefined;
  private readonly prices = new Map<string, Decimal>();
  private rate: Decimal;
  /** `rate` as a safe integer, or NaN. */
  private rateInt: number;
  /** Fill slots by `strategy|currency`, and the last one used (fills come in runs of one strategy). */
  private readonly slots = new Map<string, FillSlot>();
  private lastSlot: FillSlot | undefined;
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
  /** Open orders per strategy (the entries of `open` by their strategy). */
  private readonly openCounts = new Map<string, OpenCount>();
  private lastOpenCount: OpenCount | undefined;
  /** Open orders with a limit price or an amount (the others are worth 0 until a price is known). */
  private pricedOpen = 0;
  /** The open orders' views since the last order event. */
  private openCache: readonly OpenOrderView[] | null = null;

  /**
   * @param tradingDayStartHourKst - when a new trading day starts (realised PnL is kept per day)
   * @param usdKrw - the initial KRW per USD
   */
  constructor(
    private readonly tradingDayStartHourKst: number = 8,
    usdKrw: Decimal = new Decimal(1400),
  ) {
    this.rate = usdKrw;
    this.rateInt = safeIntOf(usdKrw);
  }

  /** A price of a symbol. */
  notePrice(symbol: string, price: Decimal): void {
    // positions do not depend on prices: only the PnL answers go stale
    this.changes += 1;
    this.prices.set(symbol, price);
  }

  /** The KRW per USD rate. */
  setUsdKrw(rate: Decimal): void {
    this.changes += 1;
    this.rate = rate;
    this.rateInt = safeIntOf(rate);
  }

  /** @inheritdoc */
  revision(): number {
    return this.changes;
  }

  /** Shares a strategy holds already (restored from the store or the broker's holdings). */
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
    holdings.set(symbol, {
      quantity,
      averagePrice,
      quantityInt: safeIntOf(quantity),
      averagePriceInt: safeIntOf(averagePrice),
      currency,
      rank,
    });
  }

  /** Applies one order event. */
  onEvent(event: OrderEvent): void {
    if (event.type === 'OrderSubmitted') {
      this.openCache = null;
      const i = event.intent;
      // the intent's fields read as they are (see intentFields), with no object made for them
      const fields = i as unknown as RawIntentFields;
      const strategyId = event.strategyId ?? i.strategyId ?? 'manual';
      const order: MutableOrder = {
        clientOrderId: event.clientOrderId,
        strategyId,
        symbol: i.instrument.symbol,
        market: i.instrument.market,
        currency: i.instrument.currency,
        side: i.side,
        orderType: i.orderType,
        timeInForce: fields.timeInForce ?? 'DAY',
        price: fields.price ?? null,
        quantity: fields.quantity ?? null,
        amount: fields.amount ?? null,
        filledQuantity: ZERO,
        filledAmount: ZERO,
        status: 'PENDING',
        view: undefined,
        openCount: this.openCountOf(strategyId),
      };
      this.submitted.push(order);
      const replaced = this.open.get(event.clientOrderId);
      if (replaced !== undefined) {
        replaced.openCount.n -= 1;
        if (isPriced(replaced)) this.pricedOpen -= 1;
      }
      this.open.set(event.clientOrderId, order);
      order.openCount.n += 1;
      if (isPriced(order)) this.pricedOpen += 1;
      return;
    }
    const order = this.known(event.clientOrderId);
    if (order === undefined) return;
    const before = order.status;
    let changed = true;
    switch (event.type) {
      case 'OrderDenied':
      case 'OrderRejected':
        order.status = 'REJECTED';
        break;
      case 'OrderCanceled':
      case 'OrderExpired':
        order.status = 'CANCELED';
        break;
      case 'OrderCancelRequested':
        order.status = 'PENDING_CANCEL';
        break;
      case 'OrderModifyRequested':
        order.status = 'PENDING_REPLACE';
        break;
      case 'OrderModified':
        if (event.price !== undefined && this.open.get(order.clientOrderId) === order) {
          // a market order made a limit order (or back) is counted again
          this.pricedOpen += (event.price === null ? 0 : 1) - (order.price === null ? 0 : 1);
        }
        if (event.price !== undefined) order.price = event.price;
        if (event.quantity !== undefined) order.quantity = event.quantity;
        order.status = isPositive(order.filledQuantity) ? 'PARTIAL_FILLED' : 'PENDING';
        break;
      case 'OrderCancelRejected':
      case 'OrderModifyRejected':
      case 'OrderAccepted':
        if (!CLOSED.has(order.status))
          order.status = isPositive(order.filledQuantity) ? 'PARTIAL_FILLED' : 'PENDING';
        // only the status can have changed (an accept of a pending order changes nothing)
        changed = order.status !== before;
        break;
      case 'OrderPartiallyFilled':
      case 'OrderFilled':
        this.applyFill(order, event.fill, event.type === 'OrderFilled');
        break;
    }
    if (changed) {
      // the order's view and the open orders' list are rebuilt when next asked for
      order.view = undefined;
      this.openCache = null;
    }
    if (CLOSED.has(order.status) && this.open.delete(order.clientOrderId)) {
      order.openCount.n -= 1;
      if (isPriced(order)) this.pricedOpen -= 1;
    }
  }

  /** @inheritdoc */
  openOrders(): readonly OpenOrderView[] {
    if (this.openCache !== null) return this.openCache;
    const out: OpenOrderView[] = [];
    for (const o of this.open.values()) out.push(cachedView(o));
    this.openCache = out;
    return out;
  }

  /** @inheritdoc */
  pricedOpenOrderCount(): number {
    return this.pricedOpen;
  }

  /** @inheritdoc */
  openOrderCount(strategyId: string): number {
    return this.openCounts.get(strategyId)?.n ?? 0;
  }

  /** A strategy's count of open orders (the last one asked kept at hand: orders come in runs of one strategy). */
  private openCountOf(strategyId: string): OpenCount {
    const last = this.lastOpenCount;
    if (last !== undefined && last.strategyId === strategyId) return last;
    let count = this.openCounts.get(strategyId);
    if (count === undefined) {
      count = { strategyId, n: 0 };
      this.openCounts.set(strategyId, count);
    }
    this.lastOpenCount = count;
    return count;
  }

  /** @inheritdoc */
  order(clientOrderId: string): RiskOrder | undefined {
    const o = this.known(clientOrderId);
    return o === undefined ? undefined : cachedView(o);
  }

  /**
   * The last order submitted with an id: an open one from the open map (every submit puts its order
   * there, so an open entry is the last of its id), else from the index of every order, brought up
   * to date first.
   */
  private known(clientOrderId: string): MutableOrder | undefined {
    const open = this.open.get(clientOrderId);
    if (open !== undefined) return open;
    const all = this.submitted;
    for (let i = this.indexed; i < all.length; i++) this.orders.set(all[i]!.clientOrderId, all[i]!);
    this.indexed = all.length;
    return this.orders.get(clientOrderId);
  }

  /** @inheritdoc */
  positions(strategyId: string): readonly PositionView[] {
    const cached = this.positionCache.get(strategyId);
    if (cached !== undefined) return cached;
    const out: PositionView[] = [];
    for (const [symbol, h] of this.holdings.get(strategyId) ?? []) {
      if (h.view === undefined) h.view = positionView(symbol, h);
      if (h.view !== null) out.push(h.view);
    }
    this.positionCache.set(strategyId, out);
    return out;
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
    const day = tradingDayStartMs(nowMs, this.tradingDayStartHourKst);
    const cached = this.pnlCache.get(strategyId);
    if (cached !== undefined && cached.revision === this.changes && cached.dayStartMs === day) {
      return cached.value;
    }
    // 0 + x is x: the first term is taken as it is, the others added in order
    let total: Decimal | null = null;
    const today = this.dayTable(day);
    if (today !== undefined) {
      for (const e of today.list) {
        if (strategyId === null || e.strategyId === strategyId) {
          const krw = toKrw(amountOf(e), e.currency, this.rate);
          total = total === null ? krw : total.plus(krw);
        }
      }
    }
    // only symbols with a price can carry unrealised PnL: walk those, not every holding (a
    // backtest's book has no prices: no walk at all)
    if (this.prices.size > 0) {
      for (const [symbol, mark] of this.prices) {
        for (const [s, bySymbol] of this.holdings) {
          if (strategyId !== null && s !== strategyId) continue;
          const h = bySymbol.get(symbol);
          if (h === undefined || h.quantity.isZero()) continue;
          const krw = toKrw(mark.minus(h.averagePrice).times(h.quantity), h.currency, this.rate);
          total = total === null ? krw : total.plus(krw);
        }
      }
    }
    const value = total ?? ZERO;
    if (cached === undefined) {
      this.pnlCache.set(strategyId, { revision: this.changes, dayStartMs: day, value });
    } else {
      cached.revision = this.changes;
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
    if (this.prices.size > 0) return Number.NaN;
    const today = this.dayTable(tradingDayStartMs(nowMs, this.tradingDayStartHourKst));
    let total = 0;
    if (today === undefined) return total;
    for (const e of today.list) {
      if (strategyId !== null && e.strategyId !== strategyId) continue;
      const krw = e.currency === 'USD' ? mulExact(e.amountInt, this.rateInt) : e.amountInt;
      total = addExact(total, krw);
    }
    return total;
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
    const slot = this.slotOf(order.strategyId, order.currency);
    const holdings = slot.holdings;
    let h = holdings.get(fill.symbol);
    if (h === undefined) {
      h = {
        quantity: ZERO,
        averagePrice: ZERO,
        quantityInt: 0,
        averagePriceInt: 0,
        currency: order.currency,
        rank: holdings.size,
      };
      holdings.set(fill.symbol, h);
    }
    // The realised change: −charges on a buy; (price − average) × sold − charges on a sell. Whole
    // numbers (won prices, share counts) are booked as safe integers, exactly, with no Decimal made;
    // anything else (or any result outside the safe range) as Decimal, as before.
    const quantity = safeIntOf(fill.quantity);
    const price = safeIntOf(fill.price);
    const commission = safeIntOf(fill.commission.amount);
    const chargesInt = fill.tax === undefined ? commission : addExact(commission, safeIntOf(fill.tax.amount));
    let changeInt = Number.NaN;
    let change: Decimal | null = null;
    if (fill.side === 'BUY') {
      if (h.quantity.isZero() && exactProduct(fill.price, fill.quantity) && !fill.quantity.isZero()) {
        // flat before: (0 + price × quantity) / quantity is the price itself when the product is exact
        h.quantity = fill.quantity;
        h.averagePrice = fill.price;
        h.quantityInt = quantity;
        h.averagePriceInt = price;
      } else {
        const cost = h.averagePrice.times(h.quantity).plus(fill.price.times(fill.quantity));
        h.quantity = h.quantity.plus(fill.quantity);
        h.averagePrice = h.quantity.isZero() ? ZERO : cost.dividedBy(h.quantity);
        h.quantityInt = safeIntOf(h.quantity);
        h.averagePriceInt = safeIntOf(h.averagePrice);
      }
      changeInt = -chargesInt;
      if (Number.isNaN(changeInt)) change = charges(fill).negated();
    } else {
      // min(fill, held) and max(0, held − fill)
      const held = h.quantityInt;
      const sold = Math.min(quantity, held);
      changeInt = subExact(mulExact(subExact(price, h.averagePriceInt), sold), chargesInt);
      const left = subExact(held, quantity);
      if (!Number.isNaN(changeInt) && !Number.isNaN(left)) {
        h.quantityInt = Math.max(left, 0);
        h.quantity = left > 0 ? new Decimal(left) : ZERO;
      } else {
        // without the copies Decimal.min and Decimal.max make
        const soldDecimal = fill.quantity.lte(h.quantity) ? fill.quantity : h.quantity;
        change = fill.price.minus(h.averagePrice).times(soldDecimal).minus(charges(fill));
        changeInt = Number.NaN;
        h.quantity = nonNegative(h.quantity.minus(fill.quantity));
        h.quantityInt = safeIntOf(h.quantity);
      }
    }
    // the position view and the strategy's list are rebuilt when next asked for
    h.view = undefined;
    if (this.positionCache.size !== 0) this.positionCache.delete(order.strategyId);
    const day = tradingDayStartMs(fill.tsEvent, this.tradingDayStartHourKst);
    const entry = slot.dayStartMs === day ? slot.entry : this.realisedEntry(slot, day);
    if (entry === undefined) {
      const added: RealisedEntry = {
        strategyId: order.strategyId,
        currency: order.currency,
        amountInt: changeInt,
        amount: change,
      };
      // realisedEntry made the day's table
      const today = this.dayTable(day)!;
      today.list.push(added);
      today.byKey.set(slot.key, added);
      slot.entry = added;
      return;
    }
    const sum = addExact(entry.amountInt, changeInt);
    if (!Number.isNaN(sum)) {
      entry.amountInt = sum;
      entry.amount = null;
    } else {
      // a Decimal from here on (amount + change: the change's sign carries a buy's −charges)
      entry.amount = amountOf(entry).plus(change ?? new Decimal(changeInt));
      entry.amountInt = Number.NaN;
    }
  }

  /** The fill slot of a strategy's fills in a currency. */
  private slotOf(strategyId: string, currency: Currency): FillSlot {
    const last = this.lastSlot;
    if (last !== undefined && last.strategyId === strategyId && last.currency === currency) return last;
    const key = `${strategyId}|${currency}`;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = {
        strategyId,
        currency,
        key,
        holdings: this.holdingsOf(strategyId),
        dayStartMs: Number.NaN,
        entry: undefined,
      };
      this.slots.set(key, slot);
    }
    this.lastSlot = slot;
    return slot;
  }

  /**
   * Points a slot at a trading day: the day's table made if new, the slot's entry of the day if
   * booked already (undefined: the slot's first fill of the day adds it).
   */
  private realisedEntry(slot: FillSlot, day: number): RealisedEntry | undefined {
    let today = this.dayTable(day);
    if (today === undefined) {
      today = { byKey: new Map(), list: [] };
      this.realised.set(day, today);
      this.lastDay = day;
      this.lastDayTable = today;
    }
    slot.dayStartMs = day;
    slot.entry = today.byKey.get(slot.key);
    return slot.entry;
  }

  /** The realised entries of a trading day (the last day asked for kept at hand: fills and checks ask for the same one). */
  private dayTable(day: number): DayTable | undefined {
    if (day !== this.lastDay) {
      this.lastDay = day;
      this.lastDayTable = this.realised.get(day);
    }
    return this.lastDayTable;
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

/** A fill's commission plus its tax. */
function charges(fill: Fill): Decimal {
  return fill.tax === undefined ? fill.commission.amount : fill.commission.amount.plus(fill.tax.amount);
}

/** Whether an order has a limit price or an amount. */
function isPriced(o: MutableOrder): boolean {
  return o.price !== null || o.amount !== null;
}

/** Whether `a × b` is exact at the configured precision (no digit of the product is rounded away). */
function exactProduct(a: Decimal, b: Decimal): boolean {
  return a.sd() + b.sd() <= Decimal.precision;
}

function cachedView(o: MutableOrder): RiskOrder {
  if (o.view === undefined) o.view = view(o);
  return o.view;
}

function positionView(symbol: string, h: Holding): PositionView | null {
  return isPositive(h.quantity) ? { symbol, currency: h.currency, quantity: h.quantity } : null;
}

/** x, or 0 when x is negative: `Decimal.max(0, x)` without its copies. */
function nonNegative(x: Decimal): Decimal {
  return x.isNeg() ? ZERO : x;
}

/** x > 0, without the Decimal `gt(0)` makes of its 0. */
function isPositive(x: Decimal): boolean {
  return !x.isNeg() && !x.isZero() && !x.isNaN();
}

/** max(0, total − done); total itself (never below 0) while nothing is done. */
function left(total: Decimal, done: Decimal): Decimal {
  return nonNegative(done.isZero() ? total : total.minus(done));
}

function view(o: MutableOrder): RiskOrder {
  return {
    clientOrderId: o.clientOrderId,
    strategyId: o.strategyId,
    symbol: o.symbol,
    market: o.market,
    currency: o.currency,
    side: o.side,
    orderType: o.orderType,
    timeInForce: o.timeInForce,
    price: o.price,
    quantity: o.quantity,
    remainingQuantity: o.quantity === null ? null : left(o.quantity, o.filledQuantity),
    amount: o.amount === null ? null : left(o.amount, o.filledAmount),
    filledQuantity: o.filledQuantity,
    status: o.status,
  };
}

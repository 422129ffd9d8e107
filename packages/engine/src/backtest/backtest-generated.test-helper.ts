/**
 * Test helper of the generated backtests (`backtest-generated.test.ts`): daily bars of a KR and a
 * US stock on the days both markets trade, a schedule of orders, changes and cancels drawn by
 * fast-check, and a strategy that carries it out and notes, as it goes, every rule of the run it
 * sees broken (a fill before its order, outside its bar or through its limit, an event after its
 * order ended, negative cash or shares). Test code only.
 */
import { isBusinessDay, knownHolidays } from '@hoga/broker-model';
import {
  type Bar,
  type BarInterval,
  type ClientOrderId,
  type Currency,
  Decimal,
  type Fill,
  HogaError,
  instrumentOf,
  KST_ZONE,
  krTickSizeOfNumber,
  Market,
  NEW_YORK_ZONE,
  type OrderEvent,
  regularCloseOfDailyStamp,
} from '@hoga/core';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { Strategy } from '../strategy/strategy.js';
import type { AccountHolding, PositionView } from '../strategy/strategy-context.js';

/** The run's two symbols: a KR stock and a US one. */
export const KR = '005930';
export const US = 'AAPL';
export const SYMBOLS = [KR, US] as const;

/** The first `n` days from 2026-03-03 on which both KRX and NYSE trade (their known holidays). */
export function tradingDays(n: number): string[] {
  const kr = knownHolidays(Market.KR);
  const us = knownHolidays(Market.US);
  const days: string[] = [];
  for (let t = Date.parse('2026-03-03T00:00:00Z'); days.length < n; t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    if (isBusinessDay(day, kr) && isBusinessDay(day, us)) days.push(day);
  }
  return days;
}

const KR_STOCK = instrumentOf(KR);

/** A KR price on its tick grid (the broker's ticks for the price's band). */
function krPrice(p: number): number {
  const tick = krTickSizeOfNumber(KR_STOCK, p);
  return Math.max(tick, Math.round(p / tick) * tick);
}

/** A US price in cents. */
function usPrice(p: number): number {
  return Math.max(0.01, Math.round(p * 100) / 100);
}

/** A price of the symbol's market on its grid. */
export function onGrid(symbol: string, p: number): number {
  return symbol === KR ? krPrice(p) : usPrice(p);
}

/** One bar's moves: the gap at its open, its close's move, its wicks (fractions), its volume. */
export interface DayMove {
  readonly gap: number;
  readonly move: number;
  readonly up: number;
  readonly down: number;
  readonly volume: number;
}

const dayMove: fc.Arbitrary<DayMove> = fc.record({
  gap: fc.double({ min: -0.03, max: 0.03, noNaN: true }),
  move: fc.double({ min: -0.06, max: 0.06, noNaN: true }),
  up: fc.double({ min: 0, max: 0.03, noNaN: true }),
  down: fc.double({ min: 0, max: 0.03, noNaN: true }),
  volume: fc.integer({ min: 0, max: 5_000 }),
});

/**
 * Minute windows of each market's day, local time (first bar's close, bars): the pre-market and
 * the open, the regular close and the after-market, the after-market's end.
 */
const MINUTE_WINDOWS: Readonly<Record<Market, readonly (readonly [string, number])[]>> = {
  // KST: 08:31–09:10, 15:11–15:40, 19:51–20:00
  KR: [
    ['08:31', 40],
    ['15:11', 30],
    ['19:51', 10],
  ],
  // New York: 09:21–09:50, 15:51–16:10, 19:51–20:00
  US: [
    ['09:21', 30],
    ['15:51', 20],
    ['19:51', 10],
  ],
};

/** A bar's place in time: its stamp and its close. */
interface Slot {
  readonly ts: number;
  readonly closeTime: number;
}

/** The bars' places of one symbol: one a day (daily), or each minute of its market's windows. */
function slotsOf(symbol: string, interval: BarInterval, days: readonly string[]): Slot[] {
  const market = symbol === KR ? Market.KR : Market.US;
  if (interval === '1d') {
    return days.map((day) => {
      const ts = Date.parse(`${day}T00:00:00+09:00`);
      return { ts, closeTime: regularCloseOfDailyStamp(market, ts) };
    });
  }
  const zone = market === Market.KR ? KST_ZONE : NEW_YORK_ZONE;
  return days.flatMap((day) =>
    MINUTE_WINDOWS[market].flatMap(([from, n]) => {
      const first = DateTime.fromISO(`${day}T${from}`, { zone }).toMillis();
      return Array.from({ length: n }, (_, i) => ({ ts: first + i * 60_000, closeTime: first + i * 60_000 }));
    }),
  );
}

/** Bars of one symbol from its moves (open, high, low and close on its grid; a minute moves a tenth of a day). */
function barsOf(
  symbol: string,
  interval: BarInterval,
  slots: readonly Slot[],
  moves: readonly DayMove[],
  first: number,
): Bar[] {
  const scale = interval === '1d' ? 1 : 0.1;
  let close = first;
  return slots.map((slot, i) => {
    const m = moves[i % moves.length] as DayMove;
    const open = onGrid(symbol, close * (1 + m.gap * scale));
    const next = onGrid(symbol, open * (1 + m.move * scale));
    const high = onGrid(symbol, Math.max(open, next) * (1 + m.up * scale));
    const low = onGrid(symbol, Math.min(open, next) * (1 - m.down * scale));
    close = next;
    return {
      symbol,
      interval,
      ts: slot.ts,
      closeTime: slot.closeTime,
      open,
      high: Math.max(high, open, next),
      low: Math.min(low, open, next),
      close: next,
      volume: m.volume,
    };
  });
}

/** What the strategy does on a bar of a symbol. */
export type Op =
  | { readonly op: 'buy'; readonly qty: number; readonly offset: number | null }
  | { readonly op: 'sell'; readonly part: number; readonly offset: number | null }
  | { readonly op: 'buyAmount'; readonly amount: number }
  | { readonly op: 'modify'; readonly pick: number; readonly offset: number; readonly qty: number | null }
  | { readonly op: 'cancel'; readonly pick: number };

/** A limit's distance from the bar's close (a fraction), or null for a market order. */
const offset = fc.option(fc.double({ min: -0.05, max: 0.05, noNaN: true }), { nil: null });

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('buy' as const), qty: fc.integer({ min: 1, max: 40 }), offset }),
  fc.record({
    op: fc.constant('sell' as const),
    part: fc.double({ min: 0.05, max: 1, noNaN: true }),
    offset,
  }),
  fc.record({ op: fc.constant('buyAmount' as const), amount: fc.integer({ min: 5, max: 3_000 }) }),
  fc.record({
    op: fc.constant('modify' as const),
    pick: fc.nat(),
    offset: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
    qty: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
  }),
  fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }),
);

/**
 * What a strategy does: ops on a bar of a symbol (the bar's index among the symbol's, modulo their
 * number; the symbol's index; the op).
 */
export type Schedule = readonly (readonly [number, number, Op])[];

/**
 * A generated run: its interval and trading days, the bars' moves per symbol, one schedule per
 * strategy (one or two), the bar model's volume share.
 */
export interface Scenario {
  readonly interval: BarInterval;
  readonly days: number;
  readonly moves: readonly (readonly DayMove[])[];
  readonly schedules: readonly Schedule[];
  readonly volumeFraction: number;
}

/** Scenarios of `days` trading days of daily bars, or of minute bars in each market's windows. */
export function scenarioArb(interval: BarInterval, days: number): fc.Arbitrary<Scenario> {
  // the most bars a symbol has (KR minutes: 80 a day)
  const bars = interval === '1d' ? days : days * 80;
  const moves = fc.array(dayMove, { minLength: bars, maxLength: bars });
  return fc.record({
    interval: fc.constant(interval),
    days: fc.constant(days),
    moves: fc.tuple(moves, moves),
    schedules: fc.array(
      fc.array(fc.tuple(fc.nat(bars - 1), fc.nat(1), opArb), { minLength: 20, maxLength: 80 }),
      { minLength: 1, maxLength: 2 },
    ),
    volumeFraction: fc.constantFrom(0.01, 0.1, 1),
  });
}

/** The bars of a scenario: both symbols, in no particular order (the feed orders them). */
export function scenarioBars(s: Scenario): Bar[] {
  const days = tradingDays(s.days);
  return [
    ...barsOf(KR, s.interval, slotsOf(KR, s.interval, days), s.moves[0] as DayMove[], 70_000),
    ...barsOf(US, s.interval, slotsOf(US, s.interval, days), s.moves[1] as DayMove[], 180),
  ];
}

/** What the strategy saw at its stop. */
export interface Final {
  readonly cash: Record<Currency, Decimal>;
  readonly positions: readonly PositionView[];
  readonly holdings: readonly AccountHolding[];
  readonly realized: Record<Currency, Decimal>;
  readonly unrealized: Record<Currency, Decimal>;
  readonly commissions: Record<Currency, Decimal>;
  readonly taxes: Record<Currency, Decimal>;
  /** The account's cash (what its open buys hold back taken off). */
  readonly accountCash: Record<Currency, Decimal>;
  /** Whether this strategy had a buy open at the stop (it holds cash back in the account's). */
  readonly openBuys: boolean;
}

/** The refusals of a modify or a cancel: replies to a command, which may come after the order ended. */
const REPLIES = new Set(['OrderModifyRejected', 'OrderCancelRejected']);
const TERMINAL = new Set(['OrderFilled', 'OrderCanceled', 'OrderRejected', 'OrderDenied', 'OrderExpired']);

/** A strategy that carries out a schedule over a scenario's bars; notes each broken rule in `broken`. */
export function scheduleStrategy(schedule: Schedule, bars: readonly Bar[]) {
  const series = new Map<string, Bar[]>();
  for (const b of bars) series.set(b.symbol, [...(series.get(b.symbol) ?? []), b]);
  const indexOf = new Map<string, number>();
  for (const [symbol, list] of series)
    for (const [i, b] of list.entries()) indexOf.set(`${symbol}|${b.ts}`, i);
  const byKey = new Map<string, Op[]>();
  for (const [index, sym, op] of schedule) {
    const symbol = SYMBOLS[sym] as string;
    const key = `${symbol}|${index % (series.get(symbol)?.length ?? 1)}`;
    byKey.set(key, [...(byKey.get(key) ?? []), op]);
  }

  return class Scheduled extends Strategy {
    readonly broken: string[] = [];
    final: Final | undefined;
    /**
     * Each order placed: its time, its limit in force (null: market), the last price a market buy
     * by quantity was valued at (null otherwise), whether it ended, and its last event that was not
     * a reply to a change.
     */
    readonly orders = new Map<
      string,
      { placed: number; limit: Decimal | null; valuedAt: number | null; ended: boolean; last: string }
    >();
    /**
     * How far below zero a strategy's cash may go, per currency: what its market buys by quantity
     * filled above the last price they were valued at (the budget's documented rule), with their
     * commission.
     */
    private readonly slack: Record<Currency, Decimal> = { KRW: new Decimal(0), USD: new Decimal(0) };

    override onBar(bar: Bar): void {
      const ops = byKey.get(`${bar.symbol}|${indexOf.get(`${bar.symbol}|${bar.ts}`)}`) ?? [];
      for (const op of ops) {
        try {
          this.carry(op, bar);
        } catch (error) {
          // a typed refusal at the call (a bad quantity, an order not open) is allowed; anything
          // else fails the run (the test sees its failure)
          if (!(error instanceof HogaError)) throw error;
        }
      }
    }

    private carry(op: Op, bar: Bar): void {
      const ctx = this.ctx;
      const limit = (o: number | null) => (o === null ? undefined : onGrid(bar.symbol, bar.close * (1 + o)));
      let id: ClientOrderId | undefined;
      switch (op.op) {
        case 'buy':
          id = ctx.buy(bar.symbol, op.qty, limit(op.offset));
          break;
        case 'sell': {
          const held = ctx.position(bar.symbol)?.quantity;
          if (held === undefined) return;
          // US market sells may be fractional; the rest in whole shares
          const fractional = bar.symbol === US && op.offset === null;
          const qty = fractional ? held.times(op.part).toDecimalPlaces(2, 1) : held.times(op.part).floor();
          if (qty.lte(0)) return;
          id = ctx.sell(bar.symbol, qty, limit(op.offset));
          break;
        }
        case 'buyAmount':
          if (bar.symbol !== US) return;
          id = ctx.buyAmount(bar.symbol, op.amount);
          break;
        case 'modify': {
          const open = ctx.openOrders(bar.symbol).filter((o) => o.orderType === 'LIMIT');
          const o = open[op.pick % Math.max(open.length, 1)];
          if (o === undefined) return;
          ctx.modify(o.clientOrderId, {
            price: onGrid(bar.symbol, bar.close * (1 + op.offset)),
            ...(op.qty === null || bar.symbol !== KR ? {} : { quantity: op.qty }),
          });
          return;
        }
        case 'cancel': {
          const open = ctx.openOrders(bar.symbol);
          const o = open[op.pick % Math.max(open.length, 1)];
          if (o !== undefined) ctx.cancel(o.clientOrderId);
          return;
        }
      }
      const view = ctx.order(id);
      const valuedAt =
        view?.orderType === 'MARKET' && view.side === 'BUY' && view.amount === null ? bar.close : null;
      this.orders.set(id, {
        placed: ctx.now(),
        limit: view?.price ?? null,
        valuedAt,
        ended: false,
        last: '',
      });
    }

    override onOrderEvent(e: OrderEvent): void {
      const o = this.orders.get(e.clientOrderId);
      if (o === undefined) return;
      // a change asked while the order's end was on its way is refused after it: a reply, not a state
      if (o.ended && !REPLIES.has(e.type)) this.broken.push(`${e.type} of ${e.clientOrderId} after it ended`);
      if (TERMINAL.has(e.type)) o.ended = true;
      if (!REPLIES.has(e.type)) o.last = e.type;
      if (e.type === 'OrderModified' && e.price !== undefined) o.limit = e.price;
    }

    override onFill(f: Fill): void {
      const o = this.orders.get(f.clientOrderId);
      const where = `${f.side} ${f.quantity} ${f.symbol} at ${f.price} (${new Date(f.tsEvent).toISOString()})`;
      if (o === undefined) {
        this.broken.push(`fill of an unknown order: ${where}`);
        return;
      }
      if (!(f.tsEvent > o.placed)) this.broken.push(`filled at or before it was placed: ${where}`);
      // the bar the fill was made in: the first of its symbol closing at or after it
      const bar = (series.get(f.symbol) ?? []).find((b) => b.closeTime >= f.tsEvent);
      const p = f.price.toNumber();
      if (bar === undefined) this.broken.push(`filled after the last bar: ${where}`);
      else if (p < bar.low || p > bar.high)
        this.broken.push(`outside its bar ${bar.low}–${bar.high}: ${where}`);
      // a market order trades in its market's regular session only: up to the bar holding the
      // closing auction (stamped a minute after the close)
      const session = this.ctx.regularSession(f.symbol);
      if (
        o.limit === null &&
        session !== undefined &&
        (session === null || f.tsEvent <= session.open || f.tsEvent > session.close + 60_000)
      )
        this.broken.push(`a market order filled outside the regular session: ${where}`);
      if (o.limit !== null && (f.side === 'BUY' ? f.price.gt(o.limit) : f.price.lt(o.limit)))
        this.broken.push(`through its limit ${o.limit}: ${where}`);
      const currency: Currency = f.symbol === KR ? 'KRW' : 'USD';
      if (o.valuedAt !== null && p > o.valuedAt) {
        const above = f.quantity.times(f.price.minus(o.valuedAt)).times(1.001);
        this.slack[currency] = this.slack[currency].plus(above).plus(currency === 'KRW' ? 1 : 0.01);
      }
      const cash = this.ctx.cash(currency);
      if (cash.plus(this.slack[currency]).lt(0)) this.broken.push(`cash ${cash} after ${where}`);
      const q = this.ctx.position(f.symbol)?.quantity;
      if (q?.lte(0)) this.broken.push(`position ${q} after ${where}`);
      if (f.cumulativeQuantity.lt(f.quantity)) this.broken.push(`cumulative below the fill: ${where}`);
    }

    override onStop(): void {
      const c = this.ctx;
      const per = (f: (cur: Currency) => Decimal) => ({ KRW: f('KRW'), USD: f('USD') });
      this.final = {
        cash: per((k) => c.cash(k)),
        positions: c.positions(),
        holdings: c.account.holdings(),
        realized: per((k) => c.realizedPnl(k)),
        unrealized: per((k) => c.unrealizedPnl(k)),
        commissions: per((k) => c.commissions(k)),
        taxes: per((k) => c.taxes(k)),
        accountCash: per((k) => c.account.cash(k)),
        openBuys: c.openOrders().some((o) => o.side === 'BUY'),
      };
    }
  };
}

/** Shares per symbol (or per any key) of `entries` added up, flat ones left out, as sorted text. */
export function sharesText(entries: Iterable<readonly [string, Decimal]>): string[] {
  const total = new Map<string, Decimal>();
  for (const [s, q] of entries) total.set(s, (total.get(s) ?? new Decimal(0)).plus(q));
  return [...total]
    .filter(([, q]) => !q.isZero())
    .map(([s, q]) => `${s} ${q.toFixed()}`)
    .sort();
}

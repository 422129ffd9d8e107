/**
 * The risk book's realised PnL: per trading day, one entry per strategy and currency, booked fill
 * by fill through the strategy's fill slot, as safe integers while they stay exact.
 *
 * @module
 */
import { type Currency, Decimal } from '@hoga/core';
import { addExact, mulExact } from './exact-int.js';
import type { Holding } from './risk-book-records.js';

/**
 * Realised PnL of one strategy in one currency on one trading day: a number while it is a safe
 * integer (whole-won fills: no Decimal made per fill), else a Decimal.
 */
export interface RealisedEntry {
  readonly strategyId: string;
  readonly currency: Currency;
  /** The amount as a safe integer, or NaN: then `amount` holds it. */
  amountInt: number;
  /** The amount as a Decimal (null while `amountInt` holds it and no one asked for the Decimal). */
  amount: Decimal | null;
}

/** An entry's amount as a Decimal (made once from its integer when first asked). */
export function amountOf(e: RealisedEntry): Decimal {
  if (e.amount === null) e.amount = new Decimal(e.amountInt);
  return e.amount;
}

/**
 * Where the fills of one strategy in one currency are booked: the strategy's holdings, and its
 * realised entry of the trading day it last filled on (found once a day, not on every fill).
 */
export interface FillSlot {
  readonly strategyId: string;
  readonly currency: Currency;
  /** `strategy|currency`: the key of its realised entries. */
  readonly key: string;
  readonly holdings: Map<string, Holding>;
  /** Start of the trading day of `entry` (NaN before the first fill). */
  dayStartMs: number;
  entry: RealisedEntry | undefined;
}

/** The fill slots by `strategy|currency`, the last one used kept at hand (fills come in runs of one strategy). */
export class FillSlots {
  private readonly slots = new Map<string, FillSlot>();
  private last: FillSlot | undefined;

  /** @param holdingsOf - a strategy's holdings (made when new) */
  constructor(private readonly holdingsOf: (strategyId: string) => Map<string, Holding>) {}

  /** The slot of a strategy's fills in a currency. */
  of(strategyId: string, currency: Currency): FillSlot {
    const last = this.last;
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
    this.last = slot;
    return slot;
  }
}

/** The realised entries of one trading day, by `strategy|currency` and in the order first booked. */
export interface DayTable {
  readonly byKey: Map<string, RealisedEntry>;
  readonly list: RealisedEntry[];
}

/**
 * Realised entries per trading day (by its start, epoch ms), each day's by `strategy|currency` and
 * in the order first booked (the order the sums are taken in). Only the newest two days are kept:
 * older ones are dropped when a new day's first fill is booked (see {@link RealisedDays.newDay}).
 */
export class RealisedDays {
  private readonly days = new Map<number, DayTable>();
  /** The last day {@link RealisedDays.table} was asked for, and its table then (NaN: none yet). */
  private lastDay = Number.NaN;
  private lastTable: DayTable | undefined;
  /** The latest trading day booked so far. */
  private newestDay = Number.NEGATIVE_INFINITY;

  /** How many trading days' tables are kept. */
  get size(): number {
    return this.days.size;
  }

  /** The realised entries of a trading day (the last day asked for kept at hand: fills and checks ask for the same one). */
  table(day: number): DayTable | undefined {
    if (day !== this.lastDay) {
      this.lastDay = day;
      this.lastTable = this.days.get(day);
    }
    return this.lastTable;
  }

  /**
   * A lower bound of the realised PnL of a trading day of a strategy (or the account, null) as a
   * number in KRW at `usdKrw` (exact for whole won; a Decimal amount's double less its rounding).
   */
  floorKrw(day: number, strategyId: string | null, usdKrw: number): number {
    let total = 0;
    let abs = 0;
    for (const e of this.table(day)?.list ?? []) {
      if (strategyId !== null && e.strategyId !== strategyId) continue;
      const amount = Number.isNaN(e.amountInt) ? amountOf(e).toNumber() : e.amountInt;
      const krw = e.currency === 'USD' ? amount * usdKrw : amount;
      total += krw;
      abs += Math.abs(krw);
    }
    return total - abs * 1e-12;
  }

  /**
   * Points a slot at a trading day: the day's table made if new, the slot's entry of the day if
   * booked already (undefined: the slot's first fill of the day adds it).
   */
  entry(slot: FillSlot, day: number): RealisedEntry | undefined {
    let today = this.table(day);
    if (today === undefined) {
      today = { byKey: new Map(), list: [] };
      if (day > this.newestDay) this.newDay(day);
      this.days.set(day, today);
      this.lastDay = day;
      this.lastTable = today;
    }
    slot.dayStartMs = day;
    slot.entry = today.byKey.get(slot.key);
    return slot.entry;
  }

  /**
   * A trading day later than any booked so far begins: the tables of the days before the last
   * newest one are dropped. Only today's PnL is asked for (the daily loss limits, at the clock's
   * now); the day before stays for a clock a little behind a fill's time. Runs once per new day,
   * never per fill.
   */
  private newDay(day: number): void {
    const keepFrom = this.newestDay;
    this.newestDay = day;
    for (const d of this.days.keys()) if (d < keepFrom) this.days.delete(d);
    if (this.lastDay < keepFrom) {
      this.lastDay = Number.NaN;
      this.lastTable = undefined;
    }
  }

  /**
   * Books a fill's realised change on its slot's entry of trading day `day` (made at the slot's
   * first fill of the day): a safe integer while the sum stays one, a Decimal from then on.
   */
  book(slot: FillSlot, day: number, changeInt: number, change: Decimal | null): void {
    const entry = slot.dayStartMs === day ? slot.entry : this.entry(slot, day);
    if (entry === undefined) {
      const added: RealisedEntry = {
        strategyId: slot.strategyId,
        currency: slot.currency,
        amountInt: changeInt,
        amount: change,
      };
      // entry() made the day's table
      const today = this.table(day) as DayTable;
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

  /**
   * The realised PnL of a trading day of a strategy (or the account, null) in KRW at `usdKrwInt`
   * as a number, when every amount, the rate and every partial sum are safe integers; NaN
   * otherwise.
   */
  sumInt(day: number, strategyId: string | null, usdKrwInt: number): number {
    let total = 0;
    for (const e of this.table(day)?.list ?? []) {
      if (strategyId !== null && e.strategyId !== strategyId) continue;
      const krw = e.currency === 'USD' ? mulExact(e.amountInt, usdKrwInt) : e.amountInt;
      total = addExact(total, krw);
    }
    return total;
  }
}

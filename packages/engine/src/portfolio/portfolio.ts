/**
 * The portfolio: one {@link StrategyBook} per strategy, built from that strategy's own fills, the
 * marks positions are valued at, and the equity curve in KRW (USD through the rate valid at each
 * moment). The account's holdings are a separate, read-only view (the venue's ledger or the broker).
 *
 * @module
 */
import { type Clock, type Currency, Decimal, type OrderEvent } from '@hoga/core';
import { inject } from 'inversify';
import { ClockToken } from '../runtime/tokens.js';
import { FxRates } from './fx-rates.js';
import { MarkBook } from './mark-book.js';
import { type CurrencyTotals, StrategyBook } from './strategy-book.js';

/** One point of an equity curve. */
export interface EquityPoint {
  /** Epoch ms. */
  readonly time: number;
  /** Total value in KRW. */
  readonly equity: number;
}

/** Token of {@link Portfolio}. */
export const Portfolio = Symbol.for('hoga.engine.Portfolio');

/** What the runtime and strategies read of the portfolio. */
export interface Portfolio {
  /** Opens the books of a strategy with its starting cash. */
  open(strategyId: string, cash: Readonly<Partial<Record<Currency, Decimal>>>): StrategyBook;
  /** The books of a strategy. */
  book(strategyId: string): StrategyBook;
  /** Every strategy's id, in the order opened. */
  strategies(): readonly string[];
  /** Applies an order event (fills move the owning strategy's books). */
  onOrderEvent(event: OrderEvent): void;
  /**
   * Sets the account's cash that no strategy was given (the won or cent an equal split of the run's
   * cash leaves over, or what strategies given their own cash left): no strategy can spend it, but
   * the account holds it, so the total equity counts it (a strategy's does not).
   */
  holdUnallocatedCash(cash: Readonly<Partial<Record<Currency, Decimal>>>): void;
  /**
   * Total value in KRW now: one strategy's, or all strategies' together with the unallocated cash,
   * less what the account's shares their `fromAccount` sells took brought in (the run's equity).
   */
  equityKrw(strategyId?: string): number;
  /** KRW per USD valid now, the rate {@link Portfolio.equityKrw} values dollars at. */
  usdKrw(): number;
  /** One strategy's unrealized PnL in a currency at the last prices. */
  unrealizedPnl(strategyId: string, currency: Currency): Decimal;
  /** The last price of a symbol the positions are valued at, if one is known. */
  lastPrice(symbol: string): number | undefined;
  /**
   * Appends the current total equity to the curve at the clock's time, or at `at` (a paper or live
   * session's point at the end of a trading day, stamped in the day it ends), USD valued at the rate
   * valid then; a point at the last one's time replaces it.
   */
  recordEquity(at?: number): void;
  /** The equity curve of all strategies together. */
  equityCurve(): readonly EquityPoint[];
}

/** The portfolio over per-strategy books (every mode). */
export class StrategyPortfolio implements Portfolio {
  private readonly books = new Map<string, StrategyBook>();
  private readonly curve: EquityPoint[] = [];
  /** Cash no strategy was given, per currency as numbers (see {@link Portfolio.holdUnallocatedCash}). */
  private unallocatedKrw = 0;
  private unallocatedUsd = 0;

  /**
   * @param clock - the engine clock
   * @param marks - last prices
   * @param fx - USD/KRW rates
   */
  constructor(
    @inject(ClockToken) private readonly clock: Clock,
    @inject(MarkBook) private readonly marks: MarkBook,
    @inject(FxRates) private readonly fx: FxRates,
  ) {}

  /** @inheritdoc */
  open(strategyId: string, cash: Readonly<Partial<Record<Currency, Decimal>>>): StrategyBook {
    const book = new StrategyBook(cash);
    this.books.set(strategyId, book);
    return book;
  }

  /** @inheritdoc */
  book(strategyId: string): StrategyBook {
    const book = this.books.get(strategyId);
    if (book === undefined) throw new Error(`portfolio: no books for strategy ${strategyId}`);
    return book;
  }

  /** @inheritdoc */
  strategies(): readonly string[] {
    return [...this.books.keys()];
  }

  /** @inheritdoc */
  onOrderEvent(event: OrderEvent): void {
    if (event.type !== 'OrderFilled' && event.type !== 'OrderPartiallyFilled') return;
    if (event.strategyId === undefined) return;
    this.books.get(event.strategyId)?.apply(event.fill, event.fill.commission.currency);
  }

  /** @inheritdoc */
  holdUnallocatedCash(cash: Readonly<Partial<Record<Currency, Decimal>>>): void {
    this.unallocatedKrw = cash.KRW?.toNumber() ?? 0;
    this.unallocatedUsd = cash.USD?.toNumber() ?? 0;
  }

  /** @inheritdoc */
  equityKrw(strategyId?: string): number {
    return this.equityKrwAt(this.clock.nowMs(), strategyId);
  }

  /** @inheritdoc */
  usdKrw(): number {
    return this.fx.usdKrwAt(this.clock.nowMs());
  }

  private equityKrwAt(ms: number, strategyId?: string): number {
    const rate = this.fx.usdKrwAt(ms);
    if (strategyId !== undefined) return this.book(strategyId).equityKrwAt(this.marks, rate);
    let total = 0;
    for (const book of this.books.values()) {
      total += book.equityKrwAt(this.marks, rate);
      // the account's shares a `fromAccount` sell took: the account's before the run, not its gain
      if (book.broughtKrw !== 0 || book.broughtUsd !== 0) total -= book.broughtKrw + book.broughtUsd * rate;
    }
    if (this.unallocatedKrw !== 0) total += this.unallocatedKrw;
    if (this.unallocatedUsd !== 0) total += this.unallocatedUsd * rate;
    return total;
  }

  /** @inheritdoc */
  unrealizedPnl(strategyId: string, currency: Currency): Decimal {
    return this.book(strategyId).unrealizedPnl(currency, (symbol) => this.marks.get(symbol));
  }

  /** @inheritdoc */
  lastPrice(symbol: string): number | undefined {
    return this.marks.get(symbol);
  }

  /** @inheritdoc */
  recordEquity(at?: number): void {
    const time = at ?? this.clock.nowMs();
    const equity = this.equityKrwAt(time);
    const last = this.curve[this.curve.length - 1];
    if (last !== undefined && last.time === time) this.curve[this.curve.length - 1] = { time, equity };
    else this.curve.push({ time, equity });
  }

  /** @inheritdoc */
  equityCurve(): readonly EquityPoint[] {
    return this.curve;
  }
}

/**
 * Cash, realized PnL (before charges), commissions and taxes in `currency`, summed over every
 * strategy's book (zeros when there is none): a run's totals.
 */
export function portfolioTotals(portfolio: Portfolio, currency: Currency): CurrencyTotals {
  let cash = new Decimal(0);
  let realizedPnl = cash;
  let commissions = cash;
  let taxes = cash;
  for (const id of portfolio.strategies()) {
    const t = portfolio.book(id).totals(currency);
    cash = cash.plus(t.cash);
    realizedPnl = realizedPnl.plus(t.realizedPnl);
    commissions = commissions.plus(t.commissions);
    taxes = taxes.plus(t.taxes);
  }
  return { cash, realizedPnl, commissions, taxes };
}

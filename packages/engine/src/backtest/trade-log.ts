/**
 * A backtest's fills as they happen, kept in columns of numbers and shared strings rather than as
 * an object with four Decimals per fill: a long run's trades stay alive until its end, and objects
 * that live that long are copied by every young-generation collection they survive (in the daily
 * bench, keeping the trades as objects was over a third of the collector's time). The trades are
 * made as {@link BacktestTrade} objects once, when asked for at the end.
 *
 * Quantities, prices, commissions and taxes that are safe integers (whole shares, whole won) are
 * kept as numbers and made Decimals again exactly; any other value keeps its Decimal.
 *
 * @module
 */
import { type Currency, Decimal, decimalOfNumber, exactIntOf, type Fill, type OrderSide } from '@hoga/core';
import type { BacktestTrade } from './run-backtest.js';

const ZERO = new Decimal(0);

/** The fills of a run, in the order they happened. */
export class TradeLog {
  private readonly time: number[] = [];
  private readonly strategyId: string[] = [];
  private readonly clientOrderId: string[] = [];
  private readonly symbol: string[] = [];
  private readonly side: OrderSide[] = [];
  private readonly currency: Currency[] = [];
  /** quantity, price, commission, tax per fill: the exact integer, or NaN (then in `decimals`). */
  private readonly figures: number[] = [];
  /** The four Decimals of the fills whose figures are not all safe integers, by fill index. */
  private readonly decimals = new Map<number, readonly [Decimal, Decimal, Decimal, Decimal]>();
  private made: BacktestTrade[] | null = null;

  /** Fills so far. */
  get length(): number {
    return this.time.length;
  }

  /** Adds one fill of a strategy. */
  add(fill: Fill, strategyId: string): void {
    const index = this.time.length;
    const tax = fill.tax?.amount ?? ZERO;
    const q = exactIntOf(fill.quantity);
    const p = exactIntOf(fill.price);
    const c = exactIntOf(fill.commission.amount);
    const t = exactIntOf(tax);
    this.time.push(fill.tsEvent);
    this.strategyId.push(strategyId);
    this.clientOrderId.push(fill.clientOrderId);
    this.symbol.push(fill.symbol);
    this.side.push(fill.side);
    this.currency.push(fill.commission.currency);
    this.figures.push(q, p, c, t);
    if (Number.isNaN(q) || Number.isNaN(p) || Number.isNaN(c) || Number.isNaN(t)) {
      this.decimals.set(index, [fill.quantity, fill.price, fill.commission.amount, tax]);
    }
    this.made = null;
  }

  /** The fills as trade records (made once, until the next fill). */
  trades(): BacktestTrade[] {
    if (this.made !== null) return this.made;
    const n = this.time.length;
    const out = new Array<BacktestTrade>(n);
    const f = this.figures;
    for (let i = 0; i < n; i++) {
      const exact = this.decimals.get(i);
      out[i] = {
        time: this.time[i] as number,
        strategyId: this.strategyId[i] as string,
        clientOrderId: this.clientOrderId[i] as string,
        symbol: this.symbol[i] as string,
        side: this.side[i] as OrderSide,
        quantity: exact?.[0] ?? decimalOfNumber(f[i * 4] as number),
        price: exact?.[1] ?? decimalOfNumber(f[i * 4 + 1] as number),
        currency: this.currency[i] as Currency,
        commission: exact?.[2] ?? decimalOfNumber(f[i * 4 + 2] as number),
        tax: exact?.[3] ?? decimalOfNumber(f[i * 4 + 3] as number),
      };
    }
    this.made = out;
    return out;
  }
}

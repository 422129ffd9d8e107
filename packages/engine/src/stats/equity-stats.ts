/**
 * Statistics of an equity curve: total return, CAGR, maximum drawdown and the Sharpe ratio, plus the
 * daily resampling the Sharpe ratio is computed on. Plain numbers (equity in one currency).
 *
 * @module
 */

/** One point of an equity curve (structurally the portfolio's `EquityPoint`). */
export interface EquitySample {
  /** Epoch ms. */
  readonly time: number;
  /** Total value (one currency, e.g. KRW). */
  readonly equity: number;
}

/** Trading days per year used to annualise daily figures. */
export const TRADING_DAYS_PER_YEAR = 252;
/** Mean length of a calendar year in ms (365.25 days), for CAGR. */
export const YEAR_MS = 365.25 * 86_400_000;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * Where a trading day ends, as a shift of epoch ms: `floor((time + shift) / day)` rolls at 23:00:30
 * UTC (08:00:30 KST), after the US after-market's last minute (18:00 New York: 08:00 KST in winter,
 * 07:00 in summer) and before the KR pre-market's first bar (08:01 KST). The backtest's equity curve
 * takes one point per such day, and {@link sessionDayKey} resamples by it.
 */
export const SESSION_DAY_SHIFT_MS = HOUR_MS - 30_000;

/**
 * The default trading-session key of an instant, as a day number (see {@link SESSION_DAY_SHIFT_MS}).
 * It keeps a KR trading day (08:00–20:00 KST) and a US one (its day market from 20:00 New York the
 * evening before to its after-market's end at 18:00) each inside one key, so a mixed KR/US curve
 * resamples to one point per trading day, as the backtest records it. (It rolled at 07:00 KST before,
 * which put the winter after-market's last hour in the next day.)
 *
 * @param time - epoch ms
 */
export function sessionDayKey(time: number): number {
  return Math.floor((time + SESSION_DAY_SHIFT_MS) / DAY_MS);
}

/**
 * The last point of each session day, in time order (the daily equity curve of an intraday one);
 * the first point (the starting equity) is kept as well, so the first day's return starts there.
 *
 * @param curve - points in time order
 * @param dayOf - the day key of an instant (default {@link sessionDayKey})
 */
export function resampleDaily(
  curve: readonly EquitySample[],
  dayOf: (time: number) => number = sessionDayKey,
): EquitySample[] {
  const daily: EquitySample[] = [];
  let lastKey = Number.NaN;
  for (let i = 0; i < curve.length; i++) {
    const p = curve[i] as EquitySample;
    const key = dayOf(p.time);
    // The first point (the starting equity) always stays: day one's return is measured from it.
    if (key === lastKey && daily.length > 1) daily[daily.length - 1] = p;
    else daily.push(p);
    lastKey = key;
  }
  return daily;
}

/**
 * `last / first − 1`; 0 for an empty curve; null for a start that is not positive (an account that
 * started with nothing has no return: before, 0, while its CAGR was none).
 */
export function totalReturn(curve: readonly EquitySample[]): number | null {
  const first = curve[0];
  const last = curve[curve.length - 1];
  if (first === undefined || last === undefined) return 0;
  if (!(first.equity > 0)) return null;
  return last.equity / first.equity - 1;
}

/**
 * Compound annual growth rate: `(last / first)^(1 / years) − 1` with years = elapsed time / 365.25
 * days; null when less than a day elapsed or the equity is not positive at both ends.
 */
export function cagr(curve: readonly EquitySample[]): number | null {
  const first = curve[0];
  const last = curve[curve.length - 1];
  if (first === undefined || last === undefined) return null;
  const years = (last.time - first.time) / YEAR_MS;
  if (years * 365.25 < 1 || first.equity <= 0 || last.equity <= 0) return null;
  return (last.equity / first.equity) ** (1 / years) - 1;
}

/**
 * The largest fall from a running peak, as a positive fraction of that peak (0.25 = 25 % below the
 * peak); 0 for a curve that never falls.
 */
export function maxDrawdown(curve: readonly EquitySample[]): number {
  let peak = Number.NEGATIVE_INFINITY;
  let worst = 0;
  for (const p of curve) {
    if (p.equity > peak) peak = p.equity;
    else if (peak > 0) worst = Math.max(worst, (peak - p.equity) / peak);
  }
  return worst;
}

/**
 * Annualised Sharpe ratio of a **daily** equity curve with a zero risk-free rate:
 * `mean(r) / sd(r) × √252` over the daily simple returns `r`, `sd` the sample standard deviation
 * (n − 1). Resample an intraday curve with {@link resampleDaily} first. Null with fewer than two
 * returns or returns that do not vary.
 *
 * @param daily - one point per trading day, in time order
 */
export function sharpeRatio(daily: readonly EquitySample[]): number | null {
  const n = daily.length - 1;
  if (n < 2) return null;
  let sum = 0;
  for (let i = 1; i <= n; i++)
    sum += (daily[i] as EquitySample).equity / (daily[i - 1] as EquitySample).equity - 1;
  const mean = sum / n;
  let squares = 0;
  for (let i = 1; i <= n; i++) {
    const d = (daily[i] as EquitySample).equity / (daily[i - 1] as EquitySample).equity - 1 - mean;
    squares += d * d;
  }
  const sd = Math.sqrt(squares / (n - 1));
  if (!(sd > 1e-15)) return null;
  return (mean / sd) * Math.sqrt(TRADING_DAYS_PER_YEAR);
}

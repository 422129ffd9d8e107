/**
 * The flags of `hoga backtest`, checked once: symbols, interval, the inclusive date range, the
 * starting cash, the strategy config file. Every problem is a usage error (exit 2) naming the flag
 * and the value, but a range no bar can be in (exit 1, as a range the broker has no bars for).
 *
 * @module
 */
import {
  type BarInterval,
  Currency,
  Decimal,
  isBarInterval,
  KST_ZONE,
  type Market,
  MINUTE_CANDLE_HISTORY_START,
  marketOfSymbol,
  NEW_YORK_ZONE,
  parseDateTime,
  ValidationError,
} from '@hoga/core';
import { tradingDateRange } from '@hoga/engine';
import { DateTime } from 'luxon';
import {
  checkConfigCount,
  checkStrategyId,
  parseStrategyArgument,
  parseSymbolList,
  readStrategyConfig,
} from '../config/strategy-inputs.js';
import { CliError, ExitCode, usageError } from '../runtime/exit-codes.js';
import { cashAmountProblem } from './cash-amount.js';

/** The flags as commander gives them. */
export interface BacktestFlags {
  readonly symbols?: string;
  readonly interval?: string;
  readonly from?: string;
  readonly to?: string;
  /** Config files, one per strategy in their order (`--config` repeated). */
  readonly config?: readonly string[];
  readonly cash?: string;
  /** `--cash-krw`: the KRW starting cash, as `hoga run` takes it. */
  readonly cashKrw?: string;
  /** `--cash-usd`: the USD starting cash, as `hoga run` takes it. */
  readonly cashUsd?: string;
  readonly usdKrw?: string;
  readonly volumeFraction?: string;
  /** The risk configuration file (else `$HOGA_RISK_CONFIG`, else the defaults). */
  readonly riskConfig?: string;
  readonly id?: string;
  readonly json?: boolean;
  /** Refused: a backtest prints a table or `--json`. */
  readonly csv?: boolean;
}

/** A symbol's part of the run: its candle stamps `[fromTs, toTs)` and when its run starts. */
export interface SymbolRange {
  readonly symbol: string;
  readonly market: Market;
  /** First candle stamp of the run (inclusive). */
  readonly fromTs: number;
  /** Candle stamps before this (exclusive). */
  readonly toTs: number;
}

/** A strategy of the run as the command line gives it. */
export interface StrategyInput {
  /** Its `.ts` file, as given. */
  readonly file: string;
  /** Its id (`FILE.ts:ID`, or `--id` for a single strategy); default its class name. */
  readonly id: string | undefined;
  /** Its parsed `--config` JSON (`{}` without one). */
  readonly config: unknown;
  readonly configFile: string | undefined;
}

/** The checked request. */
export interface BacktestRequest {
  /** The strategies, in the command line's order (one engine runs them all). */
  readonly strategies: readonly StrategyInput[];
  readonly symbols: readonly string[];
  readonly interval: BarInterval;
  /** `--from` and `--to` as given. */
  readonly from: string;
  readonly to: string;
  /** Per symbol (same order as `symbols`); null when the range holds no possible candle. */
  readonly ranges: readonly (SymbolRange | null)[];
  /** The run's first instant: the earliest of the symbols' starts. */
  readonly startMs: number;
  readonly cash: Readonly<Record<Currency, Decimal>>;
  /** Fixed USD/KRW valuation rate, when given. */
  readonly usdKrw: number | undefined;
  readonly volumeFraction: number | undefined;
  readonly json: boolean;
}

const DEFAULT_CASH = { KRW: new Decimal(100_000_000), USD: new Decimal(100_000) } as const;

/**
 * Checks the flags.
 *
 * @param strategyArguments - the positional arguments (`FILE.ts` or `FILE.ts:ID`)
 * @param flags - commander's options
 * @throws {@link CliError} (exit 2) naming the flag and the value
 */
export function parseBacktestFlags(
  strategyArguments: readonly string[],
  flags: BacktestFlags,
): BacktestRequest {
  if (flags.csv === true) {
    throw usage('--csv: a backtest prints a table, or --json (its trades and equity curve as JSON)');
  }
  const symbols = parseSymbolList(flags.symbols, 'backtest');
  const interval = flags.interval ?? '';
  if (interval.trim() === '') throw usage('--interval is required: 1m or 1d');
  if (!isBarInterval(interval)) throw usage(`--interval: expected 1m or 1d, found "${interval}"`);
  const from = required(flags.from, '--from');
  const to = required(flags.to, '--to');
  checkOrder(from, to, symbols.map(marketOfSymbol));
  const ranges = symbols.map((symbol) => symbolRange(symbol, interval, from, to));
  const present = ranges.filter((r): r is SymbolRange => r !== null);
  // before: a range no bar can be in ran on to `new VirtualClock(NaN)` ("invalid-value: start: … NaN")
  if (present.length === 0) throw noBarsError({ symbols, interval, from, to });
  const startMs = runStart(from, present, interval);
  return {
    strategies: strategyInputs(strategyArguments, flags),
    symbols,
    interval,
    from,
    to,
    ranges,
    startMs,
    cash: parseCash(flags.cash, { KRW: flags.cashKrw, USD: flags.cashUsd }),
    usdKrw: flags.usdKrw === undefined ? undefined : positive(flags.usdKrw, '--usd-krw'),
    volumeFraction: flags.volumeFraction === undefined ? undefined : share(flags.volumeFraction),
    json: flags.json === true,
  };
}

/** Each strategy with the `--config` of its position and its id. */
function strategyInputs(strategyArguments: readonly string[], flags: BacktestFlags): StrategyInput[] {
  const configs = flags.config ?? [];
  checkConfigCount(configs, strategyArguments.length, 'backtest');
  if (flags.id !== undefined && strategyArguments.length > 1) {
    throw usage(`--id names the one strategy of a run: give each of several its id as FILE.ts:ID`);
  }
  const inputs = strategyArguments.map((argument, i) => {
    const { file, id } = parseStrategyArgument(argument);
    if (id !== undefined && flags.id !== undefined && flags.id !== id) {
      throw usage(`the strategy is given two ids, ${id} (${argument}) and ${flags.id} (--id): give one`);
    }
    const configFile = configs[i];
    return {
      file,
      id: id ?? (flags.id === undefined ? undefined : checkStrategyId(flags.id)),
      config: configFile === undefined ? {} : readStrategyConfig(configFile, 'backtest'),
      configFile,
    };
  });
  return inputs;
}

function usage(message: string) {
  return usageError(message, 'backtest');
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw usage(`${flag} is required (a date like 2024-01-31)`);
  return value.trim();
}

/**
 * The request over other symbols (same interval, dates and everything else): the bars a strategy
 * subscribed to in `onStart` beyond the universe.
 *
 * @param request - the run's request
 * @param symbols - the other symbols
 */
export function requestFor(request: BacktestRequest, symbols: readonly string[]): BacktestRequest {
  return {
    ...request,
    symbols,
    ranges: symbols.map((symbol) => symbolRange(symbol, request.interval, request.from, request.to)),
  };
}

/**
 * The candle stamps of one symbol from `--from` to `--to`, both inclusive (the engine's
 * `tradingDateRange`: a date is a trading date of the symbol's market; a date-time an instant).
 * Null when the range holds no possible candle (before the minute history starts).
 */
function symbolRange(symbol: string, interval: BarInterval, from: string, to: string): SymbolRange | null {
  const market = marketOfSymbol(symbol);
  let range: { start: number; end: number } | null;
  try {
    range = tradingDateRange(market, interval, from, to);
  } catch (error) {
    throw usage(`--${error instanceof ValidationError ? error.message : String(error)}`);
  }
  return range === null ? null : { symbol, market, fromTs: range.start, toTs: range.end };
}

/**
 * The run's first instant (the clock's start, the equity curve's first point, the CAGR's first
 * day): the earliest of the symbols' first candle stamps, but never before a date-time `--from`.
 * A date-time bounds daily bars by their close, so a bar stamped before it (KST midnight of its
 * date) is the run's when it closes after: before, the run started at that stamp, up to a day
 * before `--from` (`--from 2025-01-02T00:00:00+09:00` with AAPL started at 2025-01-01 00:00 KST,
 * the stamp of its bar closing at 06:00 on the 2nd). A date starts a US minute range at 20:00 New
 * York the evening before, where its trading date begins, a millisecond before the first candle
 * stamp it may hold (the one stamped 20:00 is the day before's; before, the run, its equity curve
 * and timers began at 20:00:00.001).
 *
 * @param from - `--from` as given (a date, or a date-time with offset)
 * @param present - the symbols' ranges (at least one)
 * @param interval - the run's bar interval
 */
function runStart(from: string, present: readonly SymbolRange[], interval: BarInterval): number {
  if (from.includes('T')) {
    const at = parseDateTime(from, 'from').toMillis();
    return Math.min(...present.map((r) => Math.max(at, r.fromTs)));
  }
  return Math.min(...present.map((r) => (r.market === 'US' && interval === '1m' ? r.fromTs - 1 : r.fromTs)));
}

/**
 * The failure of a run with no bar in its range for any symbol (exit 1). A minute range that ends
 * before the broker's minute history (spec, candle rule 11) says where that history starts.
 *
 * @param request - the symbols, the interval and the range as given
 */
export function noBarsError(
  request: Pick<BacktestRequest, 'symbols' | 'interval' | 'from' | 'to'>,
): CliError {
  const { symbols, interval, from, to } = request;
  const markets = [...new Set(symbols.map(marketOfSymbol))];
  // a date-time's own date is near enough for the hint
  const beforeHistory =
    interval === '1m' && markets.every((m) => to.slice(0, 10) < MINUTE_CANDLE_HISTORY_START[m]);
  const why = beforeHistory
    ? `the broker's minute candles start on ${markets.map((m) => `${MINUTE_CANDLE_HISTORY_START[m]} for ${m} stocks`).join(' and ')}: give a later --from, or --interval 1d`
    : 'check the dates (trading days, not in the future) and the symbols';
  return new CliError(
    `no ${interval} bars for ${symbols.join(',')} from ${from} to ${to}: ${why}`,
    ExitCode.FAILURE,
  );
}

/** `--to` must not be before `--from` (compared as instants; a date `--to` as its markets' trading date). */
function checkOrder(from: string, to: string, markets: readonly Market[]): void {
  const at = (v: string) =>
    v.includes('T') ? DateTime.fromISO(v, { setZone: true }) : DateTime.fromISO(v, { zone: KST_ZONE });
  if (!at(from).isValid)
    throw usage(`--from: expected a date like 2024-01-31 or a date-time with offset, found "${from}"`);
  if (!at(to).isValid)
    throw usage(`--to: expected a date like 2024-01-31 or a date-time with offset, found "${to}"`);
  if (toBeforeFrom(from, to, markets)) throw usage(`--to (${to}) is before --from (${from})`);
}

/**
 * Whether `--to` comes before `--from` (each a date, KST, or a date-time with offset; invalid ones
 * are not compared). A date `--to` is its whole trading date, in the latest of the markets': a KR
 * one ends at KST midnight after it (`--from 2026-11-20T10:00+09:00 --to 2026-11-20` is in order),
 * a US one at 20:00 New York on it, where its minute candles' trading day ends (before, KST's
 * midnight for a US symbol too: `--from 2025-01-03T16:30:00-05:00 --to 2025-01-03`, AAPL's
 * after-market of that date, was refused as `--to` before `--from`).
 *
 * @param markets - the markets of the symbols (default KR: a date is a KST date)
 */
export function toBeforeFrom(from: string, to: string, markets: readonly Market[] = ['KR']): boolean {
  const at = (v: string) =>
    v.includes('T') ? DateTime.fromISO(v, { setZone: true }) : DateTime.fromISO(v, { zone: KST_ZONE });
  const a = at(from);
  const b = at(to);
  if (!a.isValid || !b.isValid) return false;
  if (to.includes('T')) return b < a;
  // two dates are trading dates of the same markets: compared as dates
  if (!from.includes('T')) return to < from;
  const kst = b.plus({ days: 1 });
  const end = markets.includes('US')
    ? DateTime.max(kst, DateTime.fromISO(`${to}T20:00:00`, { zone: NEW_YORK_ZONE }))
    : kst;
  return end <= a;
}

/** A starting cash amount, or a usage error (exit 2) naming `what` and why. */
function checkedCash(currency: Currency, amount: string, what: string): Decimal {
  const problem = cashAmountProblem(currency, amount);
  if (problem !== null) throw usage(`${what} ${problem}`);
  return new Decimal(amount);
}

/**
 * `--cash`, `--cash-krw` and `--cash-usd`: the amounts they name; a currency none names keeps its
 * default. Currency names in any case (`usd=100`), as symbols and `hoga calendar kr` take theirs
 * (before: a usage error). `--cash-krw` and `--cash-usd` are `hoga run`'s flags, so that one
 * command line's budget can be moved from a backtest to a paper run; a currency given by both
 * `--cash` and its own flag is refused.
 */
function parseCash(
  raw: string | undefined,
  own: Readonly<Record<Currency, string | undefined>>,
): Record<Currency, Decimal> {
  const cash: Record<Currency, Decimal> = { ...DEFAULT_CASH };
  const named = new Set<string>();
  if (raw !== undefined) {
    for (const part of raw.split(',')) {
      const [name = '', amount = '', ...more] = part.split('=').map((s) => s.trim());
      const currency = name.toUpperCase();
      if ((currency !== Currency.KRW && currency !== Currency.USD) || more.length > 0) {
        throw usage(`--cash: expected KRW=<amount>,USD=<amount>, found "${part}"`);
      }
      // before: the last one won, unseen
      if (named.has(currency)) throw usage(`--cash: ${currency} is given twice`);
      named.add(currency);
      cash[currency] = checkedCash(currency, amount, `--cash: ${currency} amount`);
    }
  }
  for (const currency of [Currency.KRW, Currency.USD] as const) {
    const amount = own[currency];
    if (amount === undefined) continue;
    const flag = `--cash-${currency.toLowerCase()}`;
    if (named.has(currency)) throw usage(`${flag}: ${currency} is given by --cash too; give it once`);
    cash[currency] = checkedCash(currency, amount.trim(), `${flag}: amount`);
  }
  return cash;
}

function positive(raw: string, flag: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw usage(`${flag}: expected a positive number, found "${raw}"`);
  return value;
}

/** `--volume-fraction`: a share of a bar's volume, more than 0 and at most all of it. */
function share(raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1)
    throw usage(`--volume-fraction: expected a share of the volume in (0, 1], found "${raw}"`);
  return value;
}

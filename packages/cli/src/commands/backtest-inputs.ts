/**
 * What a backtest reads before it runs and writes after: the USD/KRW rates, the instruments' real
 * security types, the report of symbols without bars, and the run's record in the store.
 *
 * @module
 */
import { BrokerApiError, type BrokerClient } from '@hoga/connector';
import {
  type BarInterval,
  formatKst,
  type Instrument,
  instrumentOf,
  KST_ZONE,
  LiveClock,
  type Logger,
  Market,
  MINUTE_CANDLE_HISTORY_START,
  RateLimitGroup,
  SecurityType,
} from '@hoga/core';
import type { BarFeed, CandleDownloadTarget, FxRates } from '@hoga/engine';
import type { FxRateAnswer, HogaDatabase } from '@hoga/store';
import { DateTime } from 'luxon';
import { CliError, ExitCode } from '../runtime/exit-codes.js';
import { type BacktestRequest, noBarsError, type SymbolRange } from './backtest-options.js';
import { downloadBar } from './download-bar.js';

type Engine = typeof import('@hoga/engine');

/**
 * At most this many rates are read for a run: the start, the end of each trading day (a year of
 * them: at the endpoint's 3 a second, about 90 s the first time) and the range's end. A longer range
 * spreads its day ends evenly (a two-year run reads every other day's). Five years of days, 7
 * minutes of reading before a first run's first bar, was judged too long a wait.
 */
const MAX_RATE_SAMPLES = 263;
/** Month starts a KR run holding dollars looks at for its one rate, at most (ten years of them). */
const MAX_MONTH_STARTS = 120;
/** Rates to read from the broker (not cached) from which the run says it waits for them. */
const SAY_RATES_FROM = 13;
/** The pair the backtest values USD with: KRW per USD. */
const USD_KRW = { baseCurrency: 'USD', quoteCurrency: 'KRW' } as const;
/** Symbols per stock-info request (the endpoint takes 1 to 200). */
const STOCKS_PER_REQUEST = 200;

/**
 * The instruments of the run's symbols with the security type the broker's stock info gives (a KR
 * ETF/ETN has 5-won ticks and no sell tax), read once before the run so the bar loop only looks
 * them up. When the broker cannot say (the request fails, or a symbol is missing from the answer),
 * the symbol is taken for a stock, as before, and a warning on stderr names it.
 */
export async function instrumentsOf(
  client: BrokerClient,
  symbols: readonly string[],
): Promise<ReadonlyMap<string, Instrument>> {
  const known = new Set<string>(Object.values(SecurityType));
  const instruments = new Map<string, Instrument>();
  let failure: string | null = null;
  for (let i = 0; i < symbols.length && failure === null; i += STOCKS_PER_REQUEST) {
    try {
      for (const info of await client.getStocks(symbols.slice(i, i + STOCKS_PER_REQUEST))) {
        const type = known.has(info.securityType) ? info.securityType : SecurityType.STOCK;
        instruments.set(info.symbol, instrumentOf(info.symbol, type));
      }
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
  }
  const unknown = symbols.filter((s) => !instruments.has(s));
  if (unknown.length > 0) {
    const why = failure === null ? 'the broker has no stock info for them' : `stock info failed: ${failure}`;
    process.stderr.write(
      `hoga: instrument type unknown for ${unknown.join(',')} (${why}); backtesting them as stocks (stock ticks and sell tax)\n`,
    );
  }
  return instruments;
}

/** The rate of a run that holds no dollars: any positive number values its USD (zero) the same. */
const NO_DOLLARS_RATE = 1;

/**
 * The USD/KRW rates of the run: `--usd-krw` when given; none needed for a KR run without USD cash;
 * else the exchange-rate endpoint's rate at
 * the start, and when the universe holds US symbols, at the end of each trading day (`dayEnds`: the
 * times of the equity curve's points) and at the range's end (at most {@link MAX_RATE_SAMPLES}), as
 * a step function. Each rate is read from the database's
 * exchange-rate cache first; the broker is asked only for the times not cached (at the pace its
 * market-info group allows, the spec's 3 a second: a run that asks for 13 or more says so on stderr,
 * with the wait, once the first is read), and its answers (a rate, or none for that time) are
 * cached when they are history.
 *
 * @param lastBarMs - the close of the range's last bar, where the equity curve ends (default: the
 *   instant before the range's end)
 * @param ends - the close of each trading day's last bar (see {@link dayEnds}), in time order:
 *   asked for when the run holds US symbols
 * @param signal - stops the reading between two rates (Ctrl-C); the rates read stay cached
 */
export async function fxRates(
  engine: Engine,
  client: BrokerClient,
  db: HogaDatabase,
  request: BacktestRequest,
  logger: Logger,
  lastBarMs?: number,
  ends: () => readonly number[] = () => [],
  signal?: AbortSignal,
): Promise<FxRates> {
  if (request.usdKrw !== undefined) return new engine.FixedFxRates(request.usdKrw);
  const hasUs = request.ranges.some((r) => r?.market === Market.US);
  // a run with no US symbol and no USD holds no dollar to value (no automatic currency exchange,
  // and a US buy without dollars is refused): it needs no rate, and one before the broker's rate
  // history stopped it (exit 2, 'give one with --usd-krw')
  if (!hasUs && request.cash.USD.isZero()) return new engine.FixedFxRates(NO_DOLLARS_RATE);
  // the end's dollars at the rate of the last bar's close (else the instant before the range's end),
  // never a time to come
  const end = lastBarMs ?? Math.max(...request.ranges.map((r) => r?.toTs ?? 0)) - 1;
  const last = Math.min(end, Date.now());
  // a KR run looks for one rate, the start's or the first month start's with one
  const times = hasUs ? rateTimes(request.startMs, ends(), last) : monthStarts(request.startMs, last);
  const points: [number, number][] = [];
  const missing: number[] = [];
  // each time's cached answer, read once: the times without one are asked of the broker
  const cached = times.map((t) => db.fxRates.get({ ...USD_KRW, at: t }));
  const toRead = hasUs ? cached.filter((answer) => answer === undefined).length : 0;
  // said after the first rate read: its answer announced the group's limit (`X-RateLimit-Limit`,
  // which the client follows), where the wait is worked out from (the spec's 3 a second; an
  // embedded simulator's far more)
  let said = toRead < SAY_RATES_FROM;
  for (const [i, t] of times.entries()) {
    signal?.throwIfAborted();
    let answer: FxRateAnswer | undefined = cached[i];
    if (answer === undefined) {
      answer = await brokerUsdKrwAt(client, db, t);
      if (!said) {
        said = true;
        const pace = client.limiter.rateOf(RateLimitGroup.MARKET_INFO);
        process.stderr.write(
          `hoga: USD/KRW: reading ${toRead} rates from the broker (the start and each trading day's end; about ${Math.ceil(toRead / pace)} s at its ${+pace.toFixed(1)} a second); later runs read them from the database (--usd-krw RATE values the dollars at one rate and reads none)\n`,
        );
      }
    }
    const rate = answer.type === 'rate' ? answer.rate : null;
    if (rate === null) {
      missing.push(t);
      continue;
    }
    points.push([t, rate.toNumber()]);
    // a KR run holds its USD cash at one rate: the start's, or the first the range has
    if (!hasUs) break;
  }
  if (points.length === 0) {
    throw new CliError(
      `the broker has no USD/KRW rate for the backtest range; give one with --usd-krw (e.g. --usd-krw 1350)${hasUs ? '' : ', or hold no dollars: --cash USD=0'}`,
      ExitCode.USAGE,
    );
  }
  if (missing.length > 0) logger.warn(missingRates(missing, points[0]?.[0] as number));
  return new engine.SteppedFxRates(points);
}

/**
 * The run's USD/KRW rates, which the bars a strategy subscribes to in `onStart` may replace: a KR
 * universe holds its dollars at one rate, but a US symbol subscribed to there trades them, and the
 * run then values them at the broker's rates of its days too (see `backtest-run.ts`).
 */
export class ReplaceableFxRates implements FxRates {
  /** @param current - the rates the run starts with */
  constructor(public current: FxRates) {}

  /** @inheritdoc */
  usdKrwAt(ms: number): number {
    return this.current.usdKrwAt(ms);
  }
}

/**
 * What a run is told of the times it sampled without a USD/KRW rate (one line, not one per time):
 * those before the first rate found are valued at it, later ones at the rate before them.
 */
function missingRates(missing: readonly number[], firstFound: number): string {
  const day = (t: number) => DateTime.fromMillis(t, { zone: KST_ZONE }).toFormat('yyyy-MM-dd');
  const first = missing[0] as number;
  const last = missing[missing.length - 1] as number;
  const span = first === last ? `on ${day(first)}` : `from ${day(first)} to ${day(last)}`;
  return last < firstFound
    ? `the broker has no USD/KRW rate ${span}: the first rate after them (${day(firstFound)}) values those days`
    : `the broker has no USD/KRW rate at ${missing.length} of the times sampled (${span}): the rate before each values it`;
}

/**
 * The broker's USD/KRW answer at `t` (a rate, or none for that time), cached when it is history
 * (see the store's `FxRateCache`).
 */
async function brokerUsdKrwAt(client: BrokerClient, db: HogaDatabase, t: number): Promise<FxRateAnswer> {
  const key = { ...USD_KRW, at: t };
  let answer: FxRateAnswer;
  try {
    const rate = await client.getExchangeRate({ ...USD_KRW, dateTime: formatKst(DateTime.fromMillis(t)) });
    answer = {
      type: 'rate',
      rate: rate.rate,
      validFrom: rate.validFrom.toMillis(),
      validUntil: rate.validUntil.toMillis(),
    };
  } catch (error) {
    if (!(error instanceof BrokerApiError && error.code === 'exchange-rate-not-found')) throw error;
    answer = { type: 'no-rate' };
  }
  db.fxRates.store(key, answer);
  return answer;
}

/**
 * When to read the USD/KRW rate: the start, the end of each trading day up to `last` (the points
 * of the equity curve, each valued at the rate valid then), and `last` itself (the range's last
 * bar's close, where the curve ends), at most {@link MAX_RATE_SAMPLES} in all, the day ends spread
 * evenly over a longer range. Before, the start, each month start and the end: a day's point held
 * the month start's rate, so the daily returns, the drawdown and the Sharpe ratio of a run holding
 * dollars saw a month's drift of the rate at once on the first of the month and none in between
 * (a quarter's US run: a drawdown of 0.35 % for the 1.59 % the day's rates give, a Sharpe ratio of
 * 1.48 for 0.73).
 */
function rateTimes(startMs: number, ends: readonly number[], last: number): number[] {
  const days = ends.filter((t) => t > startMs && t <= last);
  const tail = last > startMs && days[days.length - 1] !== last ? [last] : [];
  return [startMs, ...spread(days, MAX_RATE_SAMPLES - 1 - tail.length), ...tail];
}

/**
 * The start, each month start up to `last` and `last`, at most {@link MAX_MONTH_STARTS} month starts
 * spread evenly: where a KR run holding dollars looks for its one rate.
 */
function monthStarts(startMs: number, last: number): number[] {
  const first = DateTime.fromMillis(startMs, { zone: KST_ZONE }).startOf('month');
  const months: number[] = [];
  for (let m = 1; ; m++) {
    const t = first.plus({ months: m }).toMillis();
    if (t > last) break;
    months.push(t);
  }
  const tail = last > startMs && months[months.length - 1] !== last ? [last] : [];
  return [startMs, ...spread(months, MAX_MONTH_STARTS), ...tail];
}

/** `times` as they are when at most `room` of them, else `room` of them spread evenly, the last kept. */
function spread(times: readonly number[], room: number): readonly number[] {
  if (times.length <= room) return times;
  return Array.from(
    { length: room },
    (_, i) => times[Math.round(((i + 1) * times.length) / room) - 1] as number,
  );
}

/**
 * The close of each trading day's last bar, from `startMs` on, in time order: one per day as the
 * equity curve counts them (`sessionDayKey`), where the backtest records its points. Read once
 * before the run, from the feed's columns (not per bar of the run).
 *
 * @param series - the feed's series (warm-up bars before `startMs` are skipped)
 */
export function dayEnds(
  engine: Engine,
  series: readonly { readonly columns: { readonly closeTime: Float64Array; readonly length: number } }[],
  startMs: number,
): number[] {
  const ends = new Map<number, number>();
  for (const s of series) {
    const close = s.columns.closeTime;
    const n = s.columns.length;
    let i = 0;
    while (i < n && (close[i] as number) <= startMs) i++;
    while (i < n) {
      const day = engine.sessionDayKey(close[i] as number);
      // the series' first bar of a later day (its bars are in time order, so the day keys too):
      // a day's bars are skipped by bisection, not looked at one by one (a minute run has millions)
      let lo = i + 1;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (engine.sessionDayKey(close[mid] as number) > day) hi = mid;
        else lo = mid + 1;
      }
      const t = close[lo - 1] as number;
      const seen = ends.get(day);
      if (seen === undefined || t > seen) ends.set(day, t);
      i = lo;
    }
  }
  return [...ends.values()].sort((a, b) => a - b);
}

/** A first bar this long after the range's start is a late start, not a weekend or a holiday (Korea's longest, 2017's, ran ten days). */
const LATE_START_MS = 14 * 86_400_000;

/**
 * Warns (on stderr) about each symbol without bars in the range, and about each whose bars begin
 * well after the range's start (the broker's history begins later, or the stock was listed later):
 * the equity curve, the return and the CAGR count the whole range. Fails when no symbol has any bar.
 *
 * @throws {@link CliError} (exit 1) when the range holds no bar at all
 */
export function reportCoverage(
  feed: BarFeed,
  request: BacktestRequest,
  present: readonly SymbolRange[],
): void {
  const empty: string[] = [];
  const late: string[] = [];
  for (const symbol of request.symbols) {
    const series = feed.series.find((s) => s.symbol === symbol);
    const range = present.find((r) => r.symbol === symbol);
    const ts = series?.columns.ts;
    if (
      range === undefined ||
      ts === undefined ||
      ts.length === 0 ||
      (ts[ts.length - 1] as number) < range.fromTs
    ) {
      empty.push(symbol);
      continue;
    }
    // the first bar of the run (the series holds its warm-up bars before it)
    const first = ts.find((t) => t >= range.fromTs) as number;
    if (first - range.fromTs >= LATE_START_MS) {
      const format = request.interval === '1d' ? 'yyyy-MM-dd' : "yyyy-MM-dd HH:mm 'KST'";
      const from = DateTime.fromMillis(first, { zone: KST_ZONE }).toFormat(format);
      late.push(
        `hoga: ${symbol} has ${request.interval} bars from ${from} on (the range starts ${request.from}): ` +
          `the equity curve, return and CAGR count from ${request.from}\n`,
      );
    }
  }
  if (empty.length === request.symbols.length) throw noBarsError(request);
  for (const symbol of empty) {
    process.stderr.write(
      `hoga: no ${request.interval} bars for ${symbol} from ${request.from} to ${request.to}\n`,
    );
  }
  // a minute range is cut to the broker's minute history (its run starts there, its curve too)
  const markets = [...new Set(present.map((r) => r.market))];
  for (const market of markets) {
    const start = MINUTE_CANDLE_HISTORY_START[market];
    if (request.interval === '1m' && request.from.slice(0, 10) < start) {
      process.stderr.write(
        `hoga: the broker's minute candles start on ${start} for ${market} stocks: their run starts there, not on ${request.from}\n`,
      );
    }
  }
  for (const line of late) process.stderr.write(line);
}

/**
 * Makes the candle cache cover the run (and the warm-up before it), and each symbol's last daily
 * candle before it (the run's prices before its first bars, see `priorDailyBars`), downloading what
 * is missing: a progress bar on a terminal, one plain line per symbol otherwise (both on stderr). A
 * daily run's range is widened back to hold that candle; a minute run downloads the daily candles
 * after its own.
 *
 * @param hint - what the error for an unknown symbol tells the user to check
 * @throws {@link CliError} (exit 2) naming a symbol the broker does not know
 */
export async function downloadCandles(
  engine: Engine,
  client: BrokerClient,
  db: HogaDatabase,
  request: BacktestRequest,
  warmupBars: number,
  signal?: AbortSignal,
  hint = 'check --symbols',
): Promise<void> {
  const targets = engine.downloadTargets(
    request.symbols,
    request.interval,
    request.from,
    request.to,
    warmupBars,
  );
  const prior = engine.priorCloseTargets(
    targets.map((t) => t.symbol),
    request.from,
  );
  if (request.interval === '1d') {
    // each symbol's range reaches back to its last close before the run (by symbol, not position)
    const priorStart = new Map(prior.map((p) => [p.symbol, p.range.start]));
    const widened = targets.map((t) => ({
      symbol: t.symbol,
      range: { start: Math.min(t.range.start, priorStart.get(t.symbol) ?? t.range.start), end: t.range.end },
    }));
    await ensureCandles(engine, client, db, '1d', widened, signal, hint, '1d');
    return;
  }
  await ensureCandles(engine, client, db, request.interval, targets, signal, hint, request.interval);
  // named as what they are for: a minute run's lines of daily candles would puzzle otherwise
  const label = `1d, the last close before ${request.from}`;
  await ensureCandles(engine, client, db, '1d', prior, signal, hint, label);
}

/**
 * Downloads what the cache lacks of `targets`, with the progress (`label` beside each symbol) and the
 * errors of {@link downloadCandles}.
 */
async function ensureCandles(
  engine: Engine,
  client: BrokerClient,
  db: HogaDatabase,
  interval: BarInterval,
  targets: readonly CandleDownloadTarget[],
  signal: AbortSignal | undefined,
  hint: string,
  label: string,
): Promise<void> {
  let current = '';
  const render = process.stderr.isTTY === true ? await downloadBar(engine.formatEta, label) : null;
  const plain = engine.plainProgress((text) => process.stderr.write(`hoga: ${text}`), label);
  const downloader = new engine.CandleDownloader({
    client,
    cache: db.candles,
    clock: new LiveClock(),
    ...(signal === undefined ? {} : { signal }),
    onProgress: (event) => {
      if (event.type === 'SymbolStarted') current = event.symbol;
      if (render === null) plain(event);
      else render.update(event);
    },
  });
  try {
    await downloader.ensure(interval, targets);
  } catch (error) {
    if (error instanceof BrokerApiError && error.code === 'stock-not-found') {
      throw new CliError(
        `unknown symbol ${current}: the broker has no stock with that code (${error.code}); ${hint}`,
        ExitCode.USAGE,
        { cause: error },
      );
    }
    throw error;
  } finally {
    render?.stop();
  }
}

/**
 * The risk module as the engine's `RiskGate` in a mode's container: fed by the venue's order
 * events, cancelling through the venue when a kill switch trips, and (live, paper) judging the
 * broker's rules against the broker's data, kept fresh in the background because the runtime checks
 * synchronously. Bind it with `container.bind(RiskGate).toConstantValue(binding.gate)` after
 * `await binding.start()`.
 *
 * @module
 */
import { BrokerApiError, RequestPriority } from '@hoga/connector';
import type { Clock, Decimal, TradingMode } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import { type SchedulerLike, type Subscription, timer } from 'rxjs';
import type { ExecutionVenue } from '../venue/execution-venue.js';
import type { AccountInfoSource } from './account-info-provider.js';
import type { BarDayPnl } from './bar-day-pnl.js';
import type { MarketInfoSource, ReadOptions } from './market-info-source.js';
import { type PriorClose, type PriorCloseSource, seedPriorCloses } from './prior-closes.js';
import type { MarkSource, RiskEngineOptions } from './risk-engine-options.js';
import { createRiskModule, type RiskModule } from './risk-module.js';

/** What {@link createRiskGateBinding} needs. */
export interface RiskGateBindingOptions {
  readonly clock: Clock;
  /** The risk configuration (raw JSON or parsed); defaults when absent. */
  readonly config?: unknown;
  /** The store: trading states survive restarts and `hoga risk reset` reaches the run. */
  readonly db?: HogaDatabase | undefined;
  readonly mode: TradingMode;
  /** Where the runtime sends accepted commands; its events feed the risk book. */
  readonly venue: ExecutionVenue;
  /**
   * The broker (a `BrokerClient`): its rules are judged against its data (live, paper); with its
   * candles, the symbols' last prices before the trading day began are read at the start (today's
   * PnL of a carried position counts from them).
   */
  readonly broker?: (MarketInfoSource & AccountInfoSource & Partial<PriorCloseSource>) | undefined;
  /** The broker's address: with `db`, its market calendars are shared through the store (see the risk module's). */
  readonly brokerUrl?: string | undefined;
  /** Symbols whose market data and sellable quantity are kept fresh. */
  readonly symbols?: readonly string[];
  /** How often the broker data is refreshed, ms (default: the configured account-info age). */
  readonly refreshIntervalMs?: number;
  /** Watch order-history polls and prices for staleness (feed polls with `module.staleness.noteOrderPoll()`). */
  readonly watchStaleness?: boolean;
  /** Scheduler of the refresh timer (tests pass a virtual one). */
  readonly scheduler?: SchedulerLike;
  /** Last prices and the rate where no broker gives them (a backtest's closes and rates). */
  readonly marks?: MarkSource | undefined;
  /**
   * Told each symbol's last price after each read of the broker data (the first at `start`), with
   * the moment it is of (the broker's time of it when the read gave one, else when it was asked),
   * epoch ms: a run's portfolio values its positions at them.
   */
  readonly onPrice?: (symbol: string, price: Decimal, atMs: number) => void;
  /**
   * Symbols the run holds outside {@link RiskGateBindingOptions.symbols} (its strategies' positions
   * carried from earlier sessions), asked at each read of the broker data: their last prices are
   * read after the run's symbols' (one request per 200), told to `onPrice` and to the risk book
   * (the daily loss limits count their moves today, from the last price before the day began, read
   * once per symbol as the run's symbols' is at the start). A failed read of them is told to
   * `onHeldReadFailed` and fails nothing else: a symbol the broker no longer lists keeps its last
   * known price.
   */
  readonly held?: (() => readonly string[]) | undefined;
  /**
   * Told a failed read of the {@link RiskGateBindingOptions.held} symbols' prices; `unlisted`: the
   * broker does not list them (`stock-not-found`), and they are not asked again this run. One such
   * symbol fails the request of all: the others are then read one by one.
   */
  readonly onHeldReadFailed?:
    | ((symbols: readonly string[], error: unknown, unlisted: boolean) => void)
    | undefined;
  /** A backtest's positions valued at its bars' closes (see the risk module's `barPnl`). */
  readonly barPnl?: BarDayPnl | undefined;
  /** The broker's rules where no broker judges them (a backtest's; see the risk engine's `brokerRules`). */
  readonly brokerRules?: RiskEngineOptions['brokerRules'];
  /** The account's open orders as the store lists them (live; see the risk engine's `outsideOrders`). */
  readonly outsideOrders?: RiskEngineOptions['outsideOrders'];
}

/** The gate and what keeps it fed. */
export interface RiskGateBinding {
  /** The risk engine: bind it to the `RiskGate` token. */
  readonly gate: RiskModule['engine'];
  readonly module: RiskModule;
  /**
   * Reads the symbols' last prices before the trading day began and the broker data, and starts
   * the background refresh (resolves after the first read, with what the first reads found).
   */
  start(): Promise<readonly PriorClose[]>;
  /** Reads the broker data for every symbol now and re-evaluates the daily loss limits. */
  refresh(): Promise<void>;
  /**
   * Reads the last prices of the held symbols outside the run's now (see
   * {@link RiskGateBindingOptions.held}): the run's books, restored after {@link start}, before
   * `onStart`. Never rejects.
   */
  refreshHeld(): Promise<void>;
  /** Stops the refresh (its reads not yet answered are aborted) and the event feed. */
  dispose(): void;
}

/** Builds the risk gate of a mode. */
export function createRiskGateBinding(options: RiskGateBindingOptions): RiskGateBinding {
  const module = createRiskModule({
    clock: options.clock,
    config: options.config,
    db: options.db,
    mode: options.mode,
    broker: options.broker,
    brokerUrl: options.brokerUrl,
    sink: options.venue,
    watchStaleness: options.watchStaleness === true,
    marks: options.marks,
    barPnl: options.barPnl,
    brokerRules: options.brokerRules,
    outsideOrders: options.outsideOrders,
    // the abuse throttles protect the connection to the broker: a backtest has none
    throttles: options.mode !== 'backtest',
  });
  const symbols = options.symbols ?? [];
  let refreshing: Subscription | undefined;
  const stopped = new AbortController();
  // the background reads queue behind an order's own reads at the rate limits, and stop with the binding
  const background: ReadOptions = { priority: RequestPriority.POLL, signal: stopped.signal };
  const read = async (): Promise<void> => {
    const { market, funds } = module;
    // an outside order that appeared or ended since: its symbol's funds are read again below
    module.engine.syncOutsideOrders();
    // the last prices in one request per 200 symbols (each symbol's own read cost one per symbol)
    await market?.refreshQuotes(symbols, stopped.signal);
    await Promise.all(
      symbols.map(async (symbol) => {
        await market?.prepare(symbol, false, background);
        const instrument = market?.instrument(symbol);
        // the sellable quantity of what the account may hold: a symbol the broker said none of is
        // read again by the sell order that needs it (one request per symbol and refresh otherwise)
        const sellable = funds?.mayHold(symbol) === true ? symbol : null;
        if (instrument !== undefined) await funds?.refresh(instrument.currency, sellable, false, background);
      }),
    );
  };
  /** Reads the broker data (and whatever `alongside` reads, at once) and notes the prices. */
  const refreshWith = async (alongside?: Promise<unknown>): Promise<void> => {
    const { market, book, engine, staleness } = module;
    try {
      await Promise.all([read(), alongside]);
    } catch (error) {
      if (stopped.signal.aborted) return;
      throw error;
    }
    notePrices(symbols, staleness);
    await readHeld();
    const fx = market?.usdKrw();
    if (fx !== undefined) book.setUsdKrw(fx);
    staleness?.evaluate();
    engine.evaluate();
  };
  /**
   * Gives the book, the staleness watch (the run's symbols) and `onPrice` each symbol's last price
   * the market view holds.
   */
  const notePrices = (list: readonly string[], staleness?: RiskModule['staleness']): void => {
    const nowMs = options.clock.nowMs();
    for (const symbol of list) {
      const last = module.market?.lastPriceAt(symbol);
      if (last === undefined) continue;
      // timed: the day's first price makes the one before it the day's reference (daily loss)
      module.book.notePrice(symbol, last.price, nowMs);
      staleness?.notePrice(symbol);
      options.onPrice?.(symbol, last.price, last.atMs);
    }
  };
  /**
   * Reads the last prices of `list` before the trading day began into the book (see
   * `seedPriorCloses`), or nothing without the broker's candles.
   */
  const priorCloses = (list: readonly string[]): Promise<readonly PriorClose[]> | undefined => {
    const broker = options.broker;
    const getCandles = broker?.getCandles;
    if (getCandles === undefined || list.length === 0) return undefined;
    const { book, config } = module;
    const nowMs = options.clock.nowMs();
    const source = { getCandles: getCandles.bind(broker) };
    return seedPriorCloses(book, source, list, nowMs, config.tradingDayStartHourKst, background);
  };
  /** The held symbols outside the run's whose last price before the day began was asked for. */
  const seededHeld = new Set<string>();
  /** Held symbols the broker said it does not list: not asked again this run. */
  const unlisted = new Set<string>();
  /**
   * Reads the quotes of `list`, and answers the symbols whose read failed with the error. One
   * symbol the broker does not list fails the request of all: the others are then read one by one.
   */
  const readQuotes = async (list: readonly string[]): Promise<[readonly string[], unknown][]> => {
    try {
      await module.market?.refreshQuotes(list, stopped.signal);
      return [];
    } catch (error) {
      if (stopped.signal.aborted) return [];
      if (list.length === 1 || !notListed(error)) return [[list, error]];
      return (await Promise.all(list.map((symbol) => readQuotes([symbol])))).flat();
    }
  };
  /** The held symbols' prices outside the run's, for `onPrice` and the book (their failure told, not thrown). */
  const readHeld = async (): Promise<void> => {
    const market = module.market;
    const universe = new Set(symbols);
    const outside = [...new Set(options.held?.() ?? [])].filter((s) => !universe.has(s) && !unlisted.has(s));
    if (market === undefined || outside.length === 0 || stopped.signal.aborted) return;
    const unseeded = outside.filter((s) => !seededHeld.has(s));
    for (const symbol of unseeded) seededHeld.add(symbol);
    const [failed] = await Promise.all([
      readQuotes(outside),
      // each one's price before the day began, once: today's PnL of the position counts from it (a
      // symbol with none read takes its first price of the day, as the run's own symbols do)
      priorCloses(unseeded)?.catch(() => undefined),
    ]);
    for (const [list, error] of failed) {
      if (!notListed(error)) {
        options.onHeldReadFailed?.(list, error, false);
        continue;
      }
      // told once each (a refresh running beside the first read may have found it too)
      const fresh = list.filter((symbol) => !unlisted.has(symbol));
      for (const symbol of fresh) unlisted.add(symbol);
      if (fresh.length > 0) options.onHeldReadFailed?.(fresh, error, true);
    }
    notePrices(outside);
  };
  /** {@link readHeld}, then the daily loss limits evaluated with what it found. */
  const refreshHeld = async (): Promise<void> => {
    await readHeld();
    module.engine.evaluate();
  };
  const refresh = (): Promise<void> => refreshWith();
  return {
    gate: module.engine,
    module,
    async start() {
      if (options.broker === undefined) return [];
      // the last prices before the day read beside the first refresh's reads (the chart group's
      // rate limit is its own), and given to the book before its first prices of the day
      const seeded = priorCloses(symbols);
      await refreshWith(seeded);
      // (settled by now; a stop aborted it: nothing found)
      const found = (await seeded?.catch((): PriorClose[] => [])) ?? [];
      const every = options.refreshIntervalMs ?? Math.max(1_000, module.config.accountInfoMaxAgeMs);
      // a refresh still reading (many symbols under the rate limits) is not started again
      let running = false;
      refreshing = timer(every, every, options.scheduler).subscribe(() => {
        if (running) return;
        running = true;
        refresh()
          .catch(() => undefined)
          .finally(() => {
            running = false;
          });
      });
      return found;
    },
    refresh,
    refreshHeld,
    dispose() {
      refreshing?.unsubscribe();
      stopped.abort();
      module.sender.dispose();
    },
  };
}

/** Whether the broker answered that it lists no such stock. */
function notListed(error: unknown): boolean {
  return error instanceof BrokerApiError && error.code === 'stock-not-found';
}

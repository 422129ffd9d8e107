/**
 * Cold RxJS streams over the broker's REST API. Each stream shares one poller per key, polls
 * through the {@link PollScheduler} (fair shares of each group's budget, nothing while the
 * market is closed unless asked), and leaves no timer or request behind after the last
 * unsubscribe. A failed poll is reported to `onError` and the stream goes on.
 *
 * @module
 */
import { type Market, marketOfSymbol, type OrderEvent, RateLimitGroup } from '@hoga/core';
import {
  defer,
  distinctUntilChanged,
  EMPTY,
  filter,
  finalize,
  map,
  merge,
  mergeMap,
  type Observable,
  type SchedulerLike,
  Subject,
  share,
  shareReplay,
  takeUntil,
} from 'rxjs';
import type { BrokerClient } from '../client/broker-client.js';
import { RequestPriority } from '../rate-limit/rate-limit-groups.js';
import type { CandleInterval, Orderbook, Price, Trade } from '../schemas/market-data.js';
import type {
  ExchangeRate,
  KrMarketCalendarResult,
  UsMarketCalendarResult,
} from '../schemas/reference-data.js';
import { CLOSE_GRACE_MS, readCandlePage } from './candle-page.js';
import { CandleTracker, type CandleUpdate } from './candle-tracker.js';
import { MarketHours } from './market-hours.js';
import { orderUpdates } from './order-updates.js';
import { PollScheduler } from './poll-scheduler.js';
import { diffTrades } from './trade-dedup.js';
import { WatchedPrices } from './watched-prices.js';

/**
 * Least time between two polls of one subscription, per stream kind (ms): real time, but for
 * `exchangeRate` and `calendar`, which the broker refreshes on its own clock, counted on the
 * client's clock (a sped-up simulator's rate, refreshed every minute of its time, is read every
 * minute of its time).
 */
export interface StreamIntervals {
  readonly prices: number;
  readonly orderbook: number;
  readonly trades: number;
  readonly candles1m: number;
  readonly candles1d: number;
  readonly exchangeRate: number;
  readonly calendar: number;
  readonly orders: number;
}

/** Defaults: market data as often as its fair share allows; slow data slowly. */
export const DEFAULT_STREAM_INTERVALS: StreamIntervals = {
  prices: 0,
  orderbook: 0,
  trades: 0,
  candles1m: 5_000,
  candles1d: 60_000,
  exchangeRate: 60_000,
  calendar: 3_600_000,
  orders: 500,
};

/** Options of {@link BrokerStreams}. */
export interface BrokerStreamsOptions {
  /** Timers; default the client's scheduler. */
  readonly scheduler?: SchedulerLike;
  /** Intervals per stream kind. */
  readonly intervals?: Partial<StreamIntervals>;
  /** Poll market data while its market is closed (default false). */
  readonly pollClosedMarkets?: boolean;
  /**
   * Market hours on the client's clock; default {@link MarketHours} (calendars read through the
   * client), asked at one reading of the clock (`atMs`, `afterMs`). `nextOpenMs`: a closed market's
   * next open after `afterMs` (epoch ms), when its streams wake (else every 30 real s).
   * `cancelLoads`: called after the last subscription (no calendar read left behind).
   */
  readonly marketHours?: {
    isOpen(market: Market, graceMs?: number, atMs?: number): boolean | undefined;
    nextOpenMs?(market: Market, afterMs?: number): number | null | undefined;
    cancelLoads?(): void;
  };
  /** Receives failed polls (the stream goes on). */
  readonly onError?: (error: unknown, key: string) => void;
  /** Polls of one group in flight at once (default 2). */
  readonly maxInFlight?: number;
  /**
   * Longest wait (ms) of `orderUpdates$` for the answer of a create, modify or cancel before an
   * order it cannot attribute is taken for one placed elsewhere (default 10 s); also how long the
   * replacement of a modify whose answer was lost is looked for by the modify's terms.
   */
  readonly orderHoldMs?: number;
}

/**
 * An orderbook snapshot of `orderbook$`, and when its poll's request was sent (this client's
 * clock, epoch ms): the broker made the book after that, whatever its `timestamp` says (the spec
 * does not say whether it is the snapshot's time or the book's last change) and however late the
 * answer came.
 */
export interface PolledOrderbook extends Orderbook {
  readonly askedAtMs: number;
}

/** New trades of one symbol since the previous poll (none from the first poll: see `trades$`). */
export interface TradeBatch {
  readonly symbol: string;
  /** Oldest first; each trade is emitted once. */
  readonly trades: readonly Trade[];
  /** More trades happened between two polls than one poll returns (50): some were missed. */
  readonly gap: boolean;
}

const TRADE_PAGE = 50;
/** The streams; see the module description. */
export class BrokerStreams {
  /** The scheduler sharing each group's budget (exposed for figures). */
  readonly polls: PollScheduler;
  private readonly intervals: StreamIntervals;
  private readonly scheduler: SchedulerLike;
  private readonly orderHoldMs: number | undefined;
  private readonly cache = new Map<string, Observable<unknown>>();
  private readonly watchedPrices: WatchedPrices;
  private readonly stop$ = new Subject<void>();
  private disposed = false;

  /**
   * @param client - the broker client
   * @param options - scheduler, intervals, market hours
   */
  constructor(
    private readonly client: BrokerClient,
    options: BrokerStreamsOptions = {},
  ) {
    this.intervals = { ...DEFAULT_STREAM_INTERVALS, ...options.intervals };
    this.scheduler = options.scheduler ?? client.scheduler;
    this.orderHoldMs = options.orderHoldMs;
    const hours = options.marketHours ?? new MarketHours(client, client.clock);
    this.polls = new PollScheduler({
      rateOf: (group) => client.limiter.rateOf(group),
      scheduler: this.scheduler,
      isMarketOpen: (market, graceMs, atMs) => hours.isOpen(market, graceMs, atMs),
      clock: client.clock,
      ...(hours.nextOpenMs === undefined
        ? {}
        : { nextOpenMs: (market: Market, afterMs: number) => hours.nextOpenMs?.(market, afterMs) }),
      pollClosedMarkets: options.pollClosedMarkets ?? false,
      onIdle: () => hours.cancelLoads?.(),
      ...(options.onError ? { onError: options.onError } : {}),
      ...(options.maxInFlight ? { maxInFlight: options.maxInFlight } : {}),
    });
    this.watchedPrices = new WatchedPrices({
      client,
      polls: this.polls,
      minIntervalMs: this.intervals.prices,
      onError: options.onError,
    });
  }

  /**
   * Completes every stream of this instance (each subscriber gets `complete`), stopping all polls.
   * Streams asked for afterwards complete at once.
   */
  dispose(): void {
    this.disposed = true;
    this.stop$.next();
    this.stop$.complete();
  }

  private shared<T>(key: string, build: () => Observable<T>, replay: boolean): Observable<T> {
    if (this.disposed) return EMPTY;
    let stream = this.cache.get(key) as Observable<T> | undefined;
    if (stream === undefined) {
      const source = build().pipe(
        takeUntil(this.stop$),
        finalize(() => this.cache.delete(key)),
      );
      stream = replay ? source.pipe(shareReplay({ bufferSize: 1, refCount: true })) : source.pipe(share());
      this.cache.set(key, stream);
    }
    return stream;
  }

  /**
   * Last prices of `symbols`, polled in batches of up to 200 per market; emits each batch's answer.
   *
   * @param symbols - any number of symbols
   */
  prices$(symbols: readonly string[]): Observable<readonly Price[]> {
    const unique = [...new Set(symbols)].sort();
    return this.shared(
      `prices:${unique.join(',')}`,
      () => {
        const batches: { market: Market; symbols: string[] }[] = [];
        for (const market of ['KR', 'US'] as const) {
          const mine = unique.filter((s) => marketOfSymbol(s) === market);
          for (let i = 0; i < mine.length; i += 200)
            batches.push({ market, symbols: mine.slice(i, i + 200) });
        }
        return merge(
          ...batches.map((batch) =>
            this.polls.poll$({
              group: RateLimitGroup.MARKET_DATA,
              key: `prices:${batch.symbols[0]}+${batch.symbols.length - 1}`,
              market: batch.market,
              minIntervalMs: this.intervals.prices,
              fetch: (signal) =>
                this.client.getPrices(batch.symbols, { priority: RequestPriority.POLL, signal }),
            }),
          ),
        );
      },
      false,
    );
  }

  /**
   * The last price of one symbol, polled together with every other symbol watched this way in its
   * market: one request (per 200 symbols) for all of them, where a `prices$` per symbol makes one
   * each. A symbol the broker does not know is reported to `onError` on the key `prices:<symbol>+0`
   * and dropped; the others go on.
   *
   * @param symbol - the symbol
   */
  price$(symbol: string): Observable<Price> {
    const market = marketOfSymbol(symbol);
    const upper = symbol.toUpperCase();
    return defer(() => {
      const unwatch = this.watchedPrices.watch(market, symbol);
      return this.shared(`prices:watched-${market}`, () => this.watchedPrices.poll$(market), false).pipe(
        mergeMap((prices) => prices.filter((p) => p.symbol.toUpperCase() === upper)),
        finalize(unwatch),
      );
    });
  }

  /**
   * Orderbook snapshots of one symbol (asks lowest first, bids highest first).
   *
   * @param symbol - the symbol
   */
  orderbook$(symbol: string): Observable<PolledOrderbook> {
    return this.shared(
      `orderbook:${symbol}`,
      () =>
        this.polls.poll$({
          group: RateLimitGroup.MARKET_DATA,
          key: `orderbook:${symbol}`,
          market: marketOfSymbol(symbol),
          minIntervalMs: this.intervals.orderbook,
          fetch: async (signal): Promise<PolledOrderbook> => {
            const askedAtMs = this.client.clock.nowMs();
            const book = await this.client.getOrderbook(symbol, { priority: RequestPriority.POLL, signal });
            return { ...book, askedAtMs };
          },
        }),
      true,
    );
  }

  /**
   * New trades of one symbol, each once across overlapping polls; `gap` flags missed trades. Only
   * trades printed after the first poll: the trades it lists (printed before) are not emitted.
   *
   * @param symbol - the symbol
   */
  trades$(symbol: string): Observable<TradeBatch> {
    return this.shared(
      `trades:${symbol}`,
      () =>
        defer(() => {
          let previous: readonly Trade[] | null = null;
          return this.polls
            .poll$({
              group: RateLimitGroup.MARKET_DATA,
              key: `trades:${symbol}`,
              market: marketOfSymbol(symbol),
              minIntervalMs: this.intervals.trades,
              fetch: (signal) =>
                this.client.getTrades(
                  symbol,
                  { count: TRADE_PAGE },
                  { priority: RequestPriority.POLL, signal },
                ),
            })
            .pipe(
              map((latest) => {
                // the first poll lists trades printed before the subscription: it is the baseline,
                // not news (before, all of them, up to 50, were emitted as if just printed)
                if (previous === null) {
                  previous = latest;
                  return { symbol, trades: [], gap: false };
                }
                const diff = diffTrades(previous, latest, TRADE_PAGE);
                previous = latest;
                return { symbol, trades: diff.fresh, gap: diff.gap };
              }),
              filter((batch) => batch.trades.length > 0 || batch.gap),
            );
        }),
      false,
    );
  }

  /**
   * Candles of one symbol: each completed candle once, and the candle in progress marked
   * `complete: false` whenever it changes. A poll reaches back to the last candle handed over
   * (paging back up to 2,000 minute candles), so polls spaced wider than ten minutes, or hours
   * apart, skip none; candles beyond that are told on the next one handed over (`gap`). The first
   * poll hands over the newest completed candle alone, or, given `handedThroughMs`, every completed
   * candle after that one (a run's warm-up read the candles before the newest while the clock went
   * on: the ones completed meanwhile follow it, none left out).
   *
   * @param symbol - the symbol
   * @param interval - `1m` or `1d`
   * @param handedThroughMs - the end stamp (ms) of the newest candle the caller already has; the
   *   stream is shared by symbol and interval, so only its first subscriber's counts
   */
  candles$(symbol: string, interval: CandleInterval, handedThroughMs?: number): Observable<CandleUpdate> {
    const market = marketOfSymbol(symbol);
    return this.shared(
      `candles:${symbol}:${interval}`,
      () =>
        defer(() => {
          const tracker = new CandleTracker(symbol, interval, market, handedThroughMs ?? null);
          return (
            this.polls
              .poll$({
                group: RateLimitGroup.MARKET_DATA_CHART,
                key: `candles:${symbol}:${interval}`,
                market,
                minIntervalMs: interval === '1m' ? this.intervals.candles1m : this.intervals.candles1d,
                // the session's last minute candle completes at the close: polled a while after it
                closeGraceMs: interval === '1m' ? CLOSE_GRACE_MS : 0,
                fetch: (signal) =>
                  readCandlePage(this.client, symbol, interval, tracker.newestCompletedMs, signal),
              })
              // judged by when the request was sent, not when its answer came (`CandlePoll.asOf`)
              .pipe(mergeMap((poll) => tracker.update(poll.candles, poll.asOf, poll.gap)))
          );
        }),
      false,
    );
  }

  /** The USD/KRW display rate, emitted when it changes. */
  exchangeRate$(): Observable<ExchangeRate> {
    return this.shared(
      'exchangeRate',
      () =>
        this.polls
          .poll$({
            group: RateLimitGroup.MARKET_INFO,
            key: 'exchangeRate',
            // refreshed every minute of the broker's clock: as often on a sped-up simulator's
            minClockIntervalMs: this.intervals.exchangeRate,
            fetch: (signal) => this.client.getExchangeRate({}, { priority: RequestPriority.POLL, signal }),
          })
          .pipe(distinctUntilChanged((a, b) => a.validFrom.equals(b.validFrom) && a.rate.eq(b.rate))),
      true,
    );
  }

  /**
   * A market's calendar (previous, current and next business day), emitted when it changes.
   *
   * @param market - KR or US
   */
  calendar$(market: 'KR'): Observable<KrMarketCalendarResult>;
  calendar$(market: 'US'): Observable<UsMarketCalendarResult>;
  calendar$(market: Market): Observable<KrMarketCalendarResult | UsMarketCalendarResult>;
  calendar$(market: Market): Observable<KrMarketCalendarResult | UsMarketCalendarResult> {
    return this.shared(
      `calendar:${market}`,
      () =>
        this.polls
          .poll$<KrMarketCalendarResult | UsMarketCalendarResult>({
            group: RateLimitGroup.MARKET_INFO,
            key: `calendar:${market}`,
            minClockIntervalMs: this.intervals.calendar,
            fetch: (signal) =>
              market === 'KR'
                ? this.client.getKrMarketCalendar(undefined, { priority: RequestPriority.POLL, signal })
                : this.client.getUsMarketCalendar(undefined, { priority: RequestPriority.POLL, signal }),
          })
          .pipe(distinctUntilChanged((a, b) => JSON.stringify(a.raw) === JSON.stringify(b.raw))),
      true,
    );
  }

  /** Order events of the account (accepted, fills, cancelled, rejected, modified); see `orderUpdates`. */
  orderUpdates$(): Observable<OrderEvent> {
    return this.shared(
      'orderUpdates',
      () =>
        orderUpdates(this.client, this.polls, this.intervals.orders, {
          scheduler: this.scheduler,
          ...(this.orderHoldMs === undefined ? {} : { holdMs: this.orderHoldMs }),
        }),
      false,
    );
  }
}

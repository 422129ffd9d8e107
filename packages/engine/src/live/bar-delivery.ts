/**
 * How the market data of a live or paper run reaches its strategies: the completed candles of the
 * run's symbols, from the connector's polled streams through the daily bar gate
 * ({@link DailyBarGate}), are handed to every strategy one bar at a time in the order they
 * complete, each bar's close marking its symbol's last price; in the same queue, the market data
 * the strategies subscribed to ({@link MarketSubscriptions}). The paper account polls its order
 * books on the same streams, and the run follows the broker's USD/KRW rate on them (unless its
 * rates were fixed). A timer on the engine clock releases the daily bars whose market
 * opened, runs the paper account's closing auction and fires the strategies' timers.
 *
 * @module
 */
import {
  type BrokerStreams,
  type CandleInterval,
  candleToBar,
  DEFAULT_STREAM_INTERVALS,
} from '@hoga/connector';
import type { Bar } from '@hoga/core';
import { filter, type Subscription } from 'rxjs';
import { EngineError, EngineErrorCode } from '../engine-error.js';
import { type FxRates, LatestFxRates } from '../portfolio/fx-rates.js';
import type { MarkBook } from '../portfolio/mark-book.js';
import type { RiskGateBinding } from '../risk/risk-gate-factory.js';
import type { EngineRuntime } from '../runtime/engine-runtime.js';
import { DailyBarGate } from './daily-bar-gate.js';
import { ofEndedSession } from './ended-session-bar.js';
import { HandedBars } from './handed-bars.js';
import { MarketClosedNotice } from './market-closed-notice.js';
import { MarketSubscriptions } from './market-subscriptions.js';
import { missedBarsLine } from './missed-bars.js';
import type { PaperAccount } from './paper-account.js';
import type { LiveRunOptions } from './run-live.js';
import { runStreams } from './run-streams.js';
import { sayCandlePolling } from './start-progress.js';

/** What the bar delivery needs of the run's options. */
type DeliveryOptions = Pick<
  LiveRunOptions,
  'client' | 'clock' | 'settings' | 'streamIntervals' | 'onBar' | 'onError' | 'logger' | 'db'
>;

/** What {@link BarDelivery} hands the bars to, and what it works with. */
export interface BarDeliveryParts {
  /** The strategies (started). */
  readonly runtime: EngineRuntime;
  /** The run's last prices: a bar's close is its symbol's. */
  readonly marks: MarkBook;
  /** The risk gate: its stale-price watch, and the markets' calendars for the daily bar gate. */
  readonly risk: RiskGateBinding;
  /** Paper: the account whose working orders' books are polled; null in live. */
  readonly paperAccount: PaperAccount | null;
  /** The run's subscriptions: the candle streams' are added (the run ends them once its runtime stopped). */
  readonly subscriptions: Subscription[];
  /** True once the run stops. */
  readonly stopped: () => boolean;
  /** The run's USD/KRW rates: {@link LatestFxRates} are kept at the broker's rate (the exchange-rate stream). */
  readonly fx: FxRates;
  /**
   * The end stamp of each symbol's last warm-up bar, when the run had a warm-up: its bars are
   * the completed candles after it (see `warm-up.ts`), else the newest completed one on.
   */
  readonly warmedThrough?: ReadonlyMap<string, number>;
}

/** Feeds a run's strategies the bars and market data they get (see the module documentation). */
export class BarDelivery {
  // Bars are handed over one at a time, in the order they complete; once the run stops, the bars
  // still queued are dropped (only the one being handled finishes).
  private chain: Promise<void> = Promise.resolve();
  private delivered = 0;
  private readonly streams: BrokerStreams;
  private readonly dailyBars: DailyBarGate;
  private readonly market: MarketSubscriptions;
  private readonly timerTick: ReturnType<typeof setInterval>;
  private readonly closedNotice: MarketClosedNotice;
  private closedCheckedMs = Number.NEGATIVE_INFINITY;
  /** The bars each strategy id had, in this run and the earlier ones of its mode. */
  private readonly handed: HandedBars;

  /**
   * Starts at once: the streams of the run's symbols and of the strategies' subscriptions so far,
   * the paper account's books, the timer.
   *
   * @param o - the run's options: client, clock, settings, stream intervals, `onBar`, `onError`
   * @param parts - the runtime, last prices, risk gate, paper account, subscriptions, stop flag
   */
  constructor(
    private readonly o: DeliveryOptions,
    private readonly parts: BarDeliveryParts,
  ) {
    this.streams = runStreams({
      client: o.client,
      streamIntervals: o.streamIntervals,
      // a subscription to a symbol the broker does not know ends, said once (not at every poll)
      onError: (e, key) => {
        if (!this.market.unknownSymbol(e, key)) o.onError?.(e, key);
      },
    });
    const interval = o.settings.interval;
    this.handed = new HandedBars({ db: o.db, mode: o.settings.mode, logger: o.logger });
    // daily bars wait for their market's regular session (a market order placed on one goes in at
    // the open, as a backtest fills it at the next bar's open)
    this.dailyBars = new DailyBarGate({
      clock: o.clock,
      calendar: (m) => parts.risk.module.market?.calendar(m),
    });
    // what the strategies subscribed to besides the universe's bars (in onStart, and later)
    this.market = new MarketSubscriptions({
      runtime: parts.runtime,
      streams: this.streams,
      clock: o.clock,
      symbols: o.settings.symbols,
      interval: o.settings.interval,
      enqueue: (task) => this.enqueue(task),
      marks: parts.marks,
      holdBar: (bar, hand) => this.dailyBars.offer(bar, hand),
      onUnknownSymbol: (message) =>
        o.onError?.(new EngineError(EngineErrorCode.INVALID_REQUEST, message), 'subscriptions'),
      onTradesMissed: (symbol, message) => o.logger.warn({ symbol }, message),
      onBarsMissed: (symbol, message) => o.logger.warn({ symbol }, message),
      handed: this.handed,
    });
    this.market.sync();
    // a closed market's symbols get no bars: said once, with when it opens next
    this.closedNotice = new MarketClosedNotice({
      clock: o.clock,
      logger: o.logger,
      symbols: o.settings.symbols,
      calendar: (m) => parts.risk.module.market?.calendar(m),
    });
    const deliver = (bar: Bar): void => this.deliver(bar);
    for (const symbol of o.settings.symbols) {
      parts.subscriptions.push(
        this.streams
          .candles$(symbol, interval as CandleInterval, parts.warmedThrough?.get(symbol))
          .pipe(filter((u) => u.complete))
          .subscribe((u) => {
            // bars the streams could not read back after a long pause: said, the later ones handed over
            if (u.gap !== undefined) o.logger.warn({ symbol }, missedBarsLine(symbol, interval, u.gap, null));
            this.dailyBars.offer(candleToBar(u.candle, symbol, interval), deliver);
          }),
      );
    }
    // many symbols share the chart group's requests: how late their bars can come, said once
    const intervals = { ...DEFAULT_STREAM_INTERVALS, ...o.streamIntervals };
    const asked = interval === '1m' ? intervals.candles1m : intervals.candles1d;
    sayCandlePolling(o.logger, o.client, o.settings.symbols.length, asked);
    const fx = parts.fx;
    if (fx instanceof LatestFxRates) {
      // the risk checks take the same rate (the risk module's market view reads none of its own
      // unless the stream stalls: then it reads it, the run says so once and values equity by it)
      const view = parts.risk.module.market;
      view?.watchFx({
        stale: (message) => o.logger.warn({}, message),
        refreshed: (rate) => fx.set(rate.toNumber()),
      });
      parts.subscriptions.push(
        this.streams.exchangeRate$().subscribe((r) => {
          fx.set(r.rate.toNumber());
          view?.followFx(r.rate, r.validUntil.toMillis());
        }),
      );
    }
    parts.paperAccount?.attach(this.streams);
    // Timers run on the engine clock.
    this.timerTick = setInterval(() => this.tick(), 100);
  }

  /** Bars handed over so far. */
  get bars(): number {
    return this.delivered;
  }

  /** Daily bars completed and waiting for their market's regular open (see `DailyBarGate`). */
  get waiting(): number {
    return this.dailyBars.waiting;
  }

  /**
   * Stops the timer, the streams and the market subscriptions and drops the daily bars waiting;
   * resolves once the bar being handled finished and the bars handed over are stored (call once the
   * run stopped).
   */
  close(): Promise<void> {
    clearInterval(this.timerTick);
    this.dailyBars.clear();
    this.market.dispose();
    this.streams.dispose();
    return this.chain.then(() => this.handed.flush());
  }

  /** Queues `task` after the hand-overs before it (dropped once the run stopped). */
  private enqueue(task: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (!this.parts.stopped()) await task();
    });
  }

  /**
   * Queues the hand-over of one bar of the run's symbols to every strategy, but for a strategy id
   * an earlier run already handed it to (the run's first bar, the newest completed candle, after a
   * restart before the next completed), and for a bar of a trading day whose sessions ended (see
   * `ended-session-bar.ts`): to one with a warm-up it comes as warm-up (`ctx.isWarmingUp`, its
   * orders denied), to the others not at all (see `handed-bars.ts`).
   */
  private deliver(bar: Bar): void {
    const { runtime, marks, risk } = this.parts;
    this.chain = this.chain.then(async () => {
      if (this.parts.stopped()) return;
      // (not over a price of a later moment: one the risk module read from the broker, a fill's)
      marks.setAt(bar.symbol, bar.close, bar.closeTime);
      // A completed candle is market data as of its close: the stale-price watch counts from
      // there (the background price reads run on a real-time timer, which against a fast
      // simulator spans more engine time than the staleness limit).
      risk.module.staleness?.notePrice(bar.symbol, bar.closeTime);
      // the previous session's last bar (at the open, after a sleep) is no news: as one had before
      const ended = ofEndedSession(bar, this.o.clock.nowMs());
      // a bar every strategy had in an earlier run is not counted as handed over
      if (!ended && !runtime.hosts.every((h) => this.handed.had(h.strategyId, bar))) this.delivered++;
      this.o.onBar?.(bar);
      for (const host of runtime.hosts) {
        if (typeof host.strategy.onBar !== 'function') continue;
        if (!ended && !this.handed.had(host.strategyId, bar)) {
          this.handed.note(host.strategyId, bar);
        } else if ((host.strategyClass.warmupBars ?? 0) > 0) {
          host.isWarmingUp = true;
        } else continue;
        try {
          runtime.call(host, 'onBar', bar);
          if (runtime.busy) await runtime.settle();
        } finally {
          host.isWarmingUp = false;
        }
      }
      this.market.sync();
    });
  }

  /** One tick of the timer. */
  private tick(): void {
    const { runtime, paperAccount } = this.parts;
    this.dailyBars.release();
    paperAccount?.tick();
    const now = this.o.clock.nowMs();
    if (Date.now() - this.closedCheckedMs >= 1_000) {
      this.closedCheckedMs = Date.now();
      this.closedNotice.check();
    }
    // a repeating timer behind by periods (the process could not run) fires once for them
    for (let t = runtime.timers.takeDue(now, true); t !== undefined; t = runtime.timers.takeDue(now, true))
      runtime.fireTimer(t.owner, t.name, t.due);
    this.market.sync();
  }
}

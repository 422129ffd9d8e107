/**
 * The market data a strategy subscribed to in a paper or live run (`ctx.subscribePrices`,
 * `subscribeOrderbook`, `subscribeTrades`, `subscribeBars` of a symbol or interval outside the run's
 * universe), from the connector's polled streams to the hooks of the strategies that asked:
 * `onPrice`, `onOrderbook`, `onTrade` and `onBar`. One stream per symbol and kind, shared by the
 * strategies; each item is handed over through the run's queue, one hook at a time, in turn with
 * the universe's bars. The streams emit every poll: a price or book polled again unchanged is not
 * handed over again (see `sameTick` and `sameBook`); trades come once each from the stream.
 * Subscriptions made after the start (in any hook) are picked up by {@link MarketSubscriptions.sync}.
 * A symbol the broker does not know (404 `stock-not-found` on a poll of its stream) ends its
 * subscriptions, said once naming the strategies and the call ({@link MarketSubscriptions.unknownSymbol}),
 * instead of a poll refused and a warning twice a second for the rest of the run; a later
 * subscription to it is refused the same way at once. More trades printed between two polls than
 * a poll lists (50) is said once per symbol ({@link MarketSubscriptionsOptions.onTradesMissed}), bars
 * a poll could not read back after a long pause once per gap ({@link MarketSubscriptionsOptions.onBarsMissed}).
 *
 * @module
 */
import {
  BrokerApiError,
  type BrokerStreams,
  type CandleInterval,
  candleToBar,
  type Orderbook,
  type Price,
  type Trade,
} from '@hoga/connector';
import type { Bar, BarInterval, Clock } from '@hoga/core';
import { distinctUntilChanged, filter, map, type Subscription as RxSubscription } from 'rxjs';
import type { MarkBook } from '../portfolio/mark-book.js';
import type { EngineRuntime, Subscription } from '../runtime/engine-runtime.js';
import { SUBSCRIBE_CALLS } from '../runtime/intent-input.js';
import type { MarketTrade, OrderbookSnapshot, PriceTick } from '../strategy/market-events.js';
import type { StrategyHook } from '../strategy/strategy.js';
import { ofEndedSession } from './ended-session-bar.js';
import type { HandedBars } from './handed-bars.js';
import { missedBarsLine } from './missed-bars.js';
import { sameBook, sameTick } from './repeated-market-data.js';

/** What {@link MarketSubscriptions} works with. */
export interface MarketSubscriptionsOptions {
  readonly runtime: EngineRuntime;
  readonly streams: BrokerStreams;
  readonly clock: Clock;
  /** The run's universe: its bars already reach every strategy. */
  readonly symbols: readonly string[];
  readonly interval: BarInterval;
  /** Queues one hand-over after the ones before it (the run's single queue of hooks). */
  readonly enqueue: (task: () => Promise<void>) => void;
  /**
   * Where a completed bar waits before it is handed over (a daily bar: for its market's regular
   * session, see `DailyBarGate`); default: handed over at once.
   */
  readonly holdBar?: (bar: Bar, hand: (bar: Bar) => void) => void;
  /** Told once per subscription to a symbol the broker does not know (the run prints it as a warning). */
  readonly onUnknownSymbol?: (message: string) => void;
  /**
   * Told once per symbol when a poll of its trades found no overlap with the one before and a full
   * list: more trades were printed between them than a poll lists, and some never reach `onTrade`.
   */
  readonly onTradesMissed?: (symbol: string, message: string) => void;
  /** Told when a poll of subscribed bars could not read back every bar since the last (`missed-bars.ts`). */
  readonly onBarsMissed?: (symbol: string, message: string) => void;
  /**
   * The run's last prices: a price tick marks its symbol, and so does a subscribed bar of a symbol
   * outside the universe (whose bars mark their own). Before, only the universe's bars did, so a
   * strategy's market buy of a subscribed symbol outside it was never held to its own cash (see
   * `strategy-budget.ts`: no price known, not judged) and its positions there were never valued.
   */
  readonly marks?: MarkBook;
  /**
   * The bars each strategy id was handed, in this run and the earlier ones of its mode: a
   * subscribed bar a strategy had is not handed to it again (a subscription's first bar is the
   * newest completed candle, which the run before had when it restarted before the next); none: all
   * are handed over.
   */
  readonly handed?: HandedBars;
}

/** One stream and the strategies that get its items. */
interface Feed {
  readonly kind: Subscription['kind'];
  readonly symbol: string;
  readonly strategies: Set<string>;
  readonly subscription: RxSubscription;
}

/** The symbol of a market data stream's key (`prices:X+0`, `orderbook:X`, `trades:X`, `candles:X:1m`). */
const STREAM_KEY = /^(?:prices|orderbook|trades|candles):([^:+]+)/;

/** Wires the strategies' market data subscriptions to their hooks. */
export class MarketSubscriptions {
  private readonly feeds = new Map<string, Feed>();
  /** Symbols the broker answered `stock-not-found` for. */
  private readonly unknown = new Set<string>();
  /** Symbols whose missed trades were said. */
  private readonly missedSaid = new Set<string>();
  /** Subscriptions made and not yet wired (by {@link MarketSubscriptions.sync}). */
  private pending: Subscription[];
  private readonly stopListening: () => void;

  /** @param o - runtime, streams, clock, universe, queue */
  constructor(private readonly o: MarketSubscriptionsOptions) {
    const book = o.runtime.subscriptionBook;
    this.pending = [...book.list];
    this.stopListening = book.listen((change, s) => {
      if (change === 'added') this.pending.push(s);
      else this.unwire(s);
    });
  }

  /** Starts the streams of the subscriptions made since the last call. */
  sync(): void {
    const pending = this.pending;
    this.pending = [];
    for (const s of pending) this.wire(s);
  }

  /** Stops every stream. */
  dispose(): void {
    this.stopListening();
    for (const feed of this.feeds.values()) feed.subscription.unsubscribe();
    this.feeds.clear();
  }

  /**
   * A subscription ended (`ctx.unsubscribe…`): its strategy gets no more of its items (those
   * already queued included), and its stream stops once no strategy wants it.
   */
  private unwire(s: Subscription): void {
    const waiting = this.pending.indexOf(s);
    if (waiting >= 0) {
      this.pending.splice(waiting, 1);
      return;
    }
    const key = this.keyOf(s);
    const feed = this.feeds.get(key);
    if (feed === undefined) return;
    feed.strategies.delete(s.strategyId);
    if (feed.strategies.size > 0) return;
    feed.subscription.unsubscribe();
    this.feeds.delete(key);
  }

  /** The key of a subscription's stream. */
  private keyOf(s: Subscription): string {
    return `${s.kind}:${s.symbol}:${s.kind === 'bars' ? (s.interval ?? this.o.interval) : ''}`;
  }

  /**
   * Ends the subscriptions of the symbol of a failed poll when the broker does not know it (404
   * `stock-not-found`), telling `onUnknownSymbol` which strategies asked for what; answers whether
   * it did (the error is then said, and needs no warning of its own).
   *
   * @param error - the poll's error
   * @param key - the stream's key (`prices:ZZZZ+0`, `candles:ZZZZ:1m`, …)
   */
  unknownSymbol(error: unknown, key: string): boolean {
    if (!(error instanceof BrokerApiError) || error.code !== 'stock-not-found') return false;
    const symbol = STREAM_KEY.exec(key)?.[1];
    if (symbol === undefined) return false;
    let ended = false;
    for (const [feedKey, feed] of this.feeds) {
      if (feed.symbol !== symbol) continue;
      feed.subscription.unsubscribe();
      this.feeds.delete(feedKey);
      for (const strategyId of feed.strategies) this.refuse(strategyId, feed.kind, symbol);
      ended = true;
    }
    if (ended) this.unknown.add(symbol);
    return ended;
  }

  /** Says once per symbol that some of its trades were missed (before, dropped without a word). */
  private missed(symbol: string, strategies: ReadonlySet<string>): void {
    if (this.missedSaid.has(symbol)) return;
    this.missedSaid.add(symbol);
    const who = [...strategies].join(', ');
    this.o.onTradesMissed?.(
      symbol,
      `trades of ${symbol}: more were printed between two polls than a poll lists (50); some never reached ` +
        `onTrade (strategy ${who}); later gaps of ${symbol} are not said`,
    );
  }

  private refuse(strategyId: string, kind: Subscription['kind'], symbol: string): void {
    this.o.onUnknownSymbol?.(
      `strategy ${strategyId} subscribed to ${symbol} (ctx.${SUBSCRIBE_CALLS[kind]}), which the broker does not know ` +
        '(stock-not-found): its data will not come',
    );
  }

  private wire(s: Subscription): void {
    const interval = s.interval ?? this.o.interval;
    // the universe's bars go to every strategy already
    if (s.kind === 'bars' && interval === this.o.interval && this.o.symbols.includes(s.symbol)) return;
    if (this.unknown.has(s.symbol)) {
      this.refuse(s.strategyId, s.kind, s.symbol);
      return;
    }
    const key = this.keyOf(s);
    const existing = this.feeds.get(key);
    if (existing !== undefined) {
      existing.strategies.add(s.strategyId);
      return;
    }
    const strategies = new Set([s.strategyId]);
    const { streams } = this.o;
    let subscription: RxSubscription;
    switch (s.kind) {
      case 'prices':
        // the first of equal ticks is handed over; each poll of an unchanged price is not
        // polled with the other subscribed prices of its market: one request for all of them
        subscription = streams
          .price$(s.symbol)
          .pipe(
            map((p) => this.tick(p)),
            distinctUntilChanged(sameTick),
          )
          .subscribe((tick) => this.hand(strategies, 'onPrice', tick));
        break;
      case 'orderbook':
        subscription = streams
          .orderbook$(s.symbol)
          .pipe(
            map((book) => this.book(s.symbol, book)),
            distinctUntilChanged(sameBook),
          )
          .subscribe((book) => this.hand(strategies, 'onOrderbook', book));
        break;
      case 'trades':
        subscription = streams.trades$(s.symbol).subscribe((batch) => {
          if (batch.gap) this.missed(s.symbol, strategies);
          // newest first on the wire: handed over oldest first
          const trades = [...batch.trades].sort((a, b) => a.timestamp.toMillis() - b.timestamp.toMillis());
          for (const t of trades) this.hand(strategies, 'onTrade', this.trade(s.symbol, t));
        });
        break;
      case 'bars':
        subscription = streams
          .candles$(s.symbol, interval as CandleInterval)
          .pipe(filter((u) => u.complete))
          .subscribe((u) => {
            if (u.gap !== undefined)
              this.o.onBarsMissed?.(s.symbol, missedBarsLine(s.symbol, interval, u.gap, [...strategies]));
            const bar = candleToBar(u.candle, s.symbol, interval);
            const hand = (b: Bar): void => this.hand(strategies, 'onBar', b);
            if (this.o.holdBar === undefined) hand(bar);
            else this.o.holdBar(bar, hand);
          });
        break;
      default:
        return;
    }
    this.feeds.set(key, { kind: s.kind, symbol: s.symbol, strategies, subscription });
  }

  /** Queues `hook(item)` for each strategy of `strategies`, in the run's order of strategies. */
  private hand(
    strategies: ReadonlySet<string>,
    hook: StrategyHook,
    item: PriceTick | OrderbookSnapshot | MarketTrade | Bar,
  ): void {
    const { runtime, marks } = this.o;
    this.o.enqueue(async () => {
      if (marks !== undefined) {
        if (hook === 'onPrice') {
          const tick = item as PriceTick;
          marks.setAt(tick.symbol, tick.price.toNumber(), tick.tsEvent);
        } else if (hook === 'onBar' && !this.o.symbols.includes(item.symbol)) {
          marks.setAt(item.symbol, (item as Bar).close, (item as Bar).closeTime);
        }
      }
      // the previous session's last bar (a subscription's first, at the open) is no news
      if (hook === 'onBar' && ofEndedSession(item as Bar, this.o.clock.nowMs())) {
        this.sync();
        return;
      }
      for (const host of runtime.hosts) {
        if (!strategies.has(host.strategyId)) continue;
        if (hook === 'onBar' && this.o.handed !== undefined) {
          if (this.o.handed.had(host.strategyId, item as Bar)) continue;
          this.o.handed.note(host.strategyId, item as Bar);
        }
        runtime.call(host, hook, item);
        if (runtime.busy) await runtime.settle();
      }
      this.sync();
    });
  }

  private tick(p: Price): PriceTick {
    return {
      type: 'PriceUpdated',
      symbol: p.symbol,
      price: p.lastPrice,
      tsEvent: p.timestamp.toMillis(),
      tsInit: this.o.clock.nowMs(),
    };
  }

  private book(symbol: string, b: Orderbook): OrderbookSnapshot {
    return {
      type: 'OrderbookUpdated',
      symbol,
      bids: b.bids.map((l) => ({ price: l.price, quantity: l.volume })),
      asks: b.asks.map((l) => ({ price: l.price, quantity: l.volume })),
      tsEvent: b.timestamp.toMillis(),
      tsInit: this.o.clock.nowMs(),
    };
  }

  private trade(symbol: string, t: Trade): MarketTrade {
    return {
      type: 'TradePrinted',
      symbol,
      price: t.price,
      quantity: t.volume,
      tsEvent: t.timestamp.toMillis(),
      tsInit: this.o.clock.nowMs(),
    };
  }
}

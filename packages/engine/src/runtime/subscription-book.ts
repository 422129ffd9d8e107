/**
 * The data subscriptions the strategies of a run made beyond the universe's bars
 * (`ctx.subscribeBars`, `subscribePrices`, `subscribeOrderbook`, `subscribeTrades`) and ended
 * (`ctx.unsubscribe…`). The list holds what is subscribed now; whoever delivers the data (a
 * backtest's bar routes, paper and live's polled streams) is told of each change, in the order made.
 *
 * @module
 */
import type { BarInterval, Logger } from '@hoga/core';
import type { TradingMode } from '@hoga/store';
import type { Universe } from '../strategy/strategy-context.js';
import {
  barIntervalOf,
  lateBarsMessage,
  SUBSCRIBE_CALLS,
  symbolOf,
  UNSUBSCRIBE_CALLS,
} from './intent-input.js';

/** A data subscription a strategy made beyond the universe's bars. */
export interface Subscription {
  readonly strategyId: string;
  readonly kind: 'bars' | 'prices' | 'orderbook' | 'trades';
  readonly symbol: string;
  /** The bars' interval as asked (undefined: the universe's). */
  readonly interval?: BarInterval | undefined;
}

/** Told of a subscription made (`added`) or ended (`removed`). */
export type SubscriptionListener = (change: 'added' | 'removed', subscription: Subscription) => void;

/** The run's subscriptions (see the module documentation). */
export class SubscriptionBook {
  /** What is subscribed now, in the order subscribed. */
  readonly list: Subscription[] = [];
  private readonly listeners: SubscriptionListener[] = [];
  private readonly universeInterval: BarInterval;
  private warnedNoTicks = false;
  /** `strategyId:symbol` of each unsubscribe from the universe's bars said. */
  private readonly saidUniverseBars = new Set<string>();

  /**
   * @param universe - the run's symbols and interval (a bars subscription without one means its)
   * @param mode - the run's mode (a backtest says it delivers bars only)
   * @param log - where its warnings go
   */
  constructor(
    private readonly universe: Universe,
    private readonly mode: TradingMode,
    private readonly log: Logger,
  ) {
    this.universeInterval = universe.interval;
  }

  /**
   * A strategy's `ctx.subscribe…` call: checks the symbol and interval (throws `invalid-request`
   * naming the call), adds the subscription, and says what will not come (a backtest's bars it did
   * not load, `barsLoaded`; its price, book and trade hooks).
   */
  subscribe(
    strategyId: string,
    kind: Subscription['kind'],
    asked: string,
    interval: BarInterval | undefined,
    barsLoaded: ReadonlySet<string> | null,
  ): void {
    // the context's call in the message (before, `subscribe prices`, which does not exist)
    const symbol = symbolOf(asked, SUBSCRIBE_CALLS[kind]);
    if (interval !== undefined) barIntervalOf(interval, symbol);
    const added = this.add({ strategyId, kind, symbol, interval });
    // before, these bars never came, without a word
    if (added && kind === 'bars' && barsLoaded?.has(symbol) === false)
      this.log.warn({ strategyId, symbol }, lateBarsMessage(strategyId, symbol));
    if (kind !== 'bars' && this.mode === 'backtest' && !this.warnedNoTicks) {
      this.warnedNoTicks = true;
      this.log.warn(
        { kind, symbol },
        'a bar backtest delivers bars only: price, order book and trade hooks are not called',
      );
    }
  }

  /**
   * A strategy's `ctx.unsubscribe…` call: ends the subscription (none: nothing happens), and says
   * once per strategy and symbol that the universe's bars cannot be ended.
   */
  unsubscribe(strategyId: string, kind: Subscription['kind'], asked: string, interval?: BarInterval): void {
    const symbol = symbolOf(asked, UNSUBSCRIBE_CALLS[kind]);
    if (interval !== undefined) barIntervalOf(interval, symbol, 'unsubscribeBars');
    if (this.remove({ strategyId, kind, symbol, interval }) || kind !== 'bars') return;
    if ((interval ?? this.universeInterval) !== this.universeInterval) return;
    const key = `${strategyId}:${symbol}`;
    if (!this.universe.symbols.includes(symbol) || this.saidUniverseBars.has(key)) return;
    this.saidUniverseBars.add(key);
    this.log.warn(
      { strategyId, symbol },
      `strategy ${strategyId}: ctx.unsubscribeBars(${symbol}) changes nothing: the universe's bars reach every ` +
        'strategy (ignore them in onBar)',
    );
  }

  /** Tells `listener` of every change from now on; answers the function that stops it. */
  listen(listener: SubscriptionListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** Adds a subscription; answers false (and tells no one) when the strategy has it already. */
  add(subscription: Subscription): boolean {
    if (this.indexOf(subscription) >= 0) return false;
    this.list.push(subscription);
    for (const listener of [...this.listeners]) listener('added', subscription);
    return true;
  }

  /** Ends a subscription (an interval left out or given alike); answers false when there was none. */
  remove(subscription: Subscription): boolean {
    const at = this.indexOf(subscription);
    if (at < 0) return false;
    const [removed] = this.list.splice(at, 1);
    for (const listener of [...this.listeners]) listener('removed', removed as Subscription);
    return true;
  }

  private indexOf(s: Subscription): number {
    const interval = s.interval ?? this.universeInterval;
    return this.list.findIndex(
      (o) =>
        o.strategyId === s.strategyId &&
        o.kind === s.kind &&
        o.symbol === s.symbol &&
        (o.kind !== 'bars' || (o.interval ?? this.universeInterval) === interval),
    );
  }
}

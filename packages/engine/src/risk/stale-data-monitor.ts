/**
 * Moves scopes to REDUCING when the engine's view goes stale, and back when it is fresh again: no
 * successful order-history poll for `staleness.orderPollMs` → the account; no price of a watched
 * symbol for `staleness.priceMs` while it trades → that symbol.
 *
 * @module
 */
import type { Clock } from '@hoga/core';
import type { RiskConfig } from './risk-config.js';
import { TradingState } from './risk-types.js';
import type { TradingStateGateway } from './trading-state-gateway.js';
import { TradingStateSource } from './trading-state-persistence.js';

/** Tells whether a symbol is trading at a time (prices are only expected then). */
export type IsTrading = (symbol: string, nowMs: number) => boolean;

/** Tracks the freshness of order-history polls and prices. */
export class StaleDataMonitor {
  private lastOrderPollMs: number;
  private readonly lastPriceMs = new Map<string, number>();

  /**
   * @param clock - engine clock
   * @param config - thresholds (`staleness`)
   * @param gateway - where states are changed
   * @param isTrading - whether a symbol's market is open (default: always)
   */
  constructor(
    private readonly clock: Clock,
    private readonly config: RiskConfig,
    private readonly gateway: TradingStateGateway,
    private readonly isTrading: IsTrading = () => true,
  ) {
    this.lastOrderPollMs = clock.nowMs();
  }

  /** A successful order-history poll finished. */
  noteOrderPoll(atMs: number = this.clock.nowMs()): void {
    this.lastOrderPollMs = Math.max(this.lastOrderPollMs, atMs);
  }

  /** A price of `symbol` arrived (starts watching the symbol). */
  notePrice(symbol: string, atMs: number = this.clock.nowMs()): void {
    this.lastPriceMs.set(symbol, Math.max(this.lastPriceMs.get(symbol) ?? atMs, atMs));
  }

  /** Applies the staleness rules now (call on a timer and before orders). */
  evaluate(): void {
    const nowMs = this.clock.nowMs();
    const { orderPollMs, priceMs } = this.config.staleness;
    const pollAge = nowMs - this.lastOrderPollMs;
    if (pollAge > orderPollMs) {
      this.gateway.set(
        { kind: 'account' },
        TradingState.REDUCING,
        TradingStateSource.STALE_DATA,
        `no successful order-history poll for ${Math.round(pollAge / 1000)} s (limit ${orderPollMs / 1000} s)`,
      );
    } else {
      this.gateway.liftIf(
        { kind: 'account' },
        TradingStateSource.STALE_DATA,
        'order-history polls succeed again',
      );
    }
    for (const [symbol, lastMs] of this.lastPriceMs) {
      const scope = { kind: 'symbol', symbol } as const;
      const age = nowMs - lastMs;
      if (age > priceMs && this.isTrading(symbol, nowMs)) {
        this.gateway.set(
          scope,
          TradingState.REDUCING,
          TradingStateSource.STALE_DATA,
          `no price of ${symbol} for ${Math.round(age / 1000)} s (limit ${priceMs / 1000} s)`,
        );
      } else if (age <= priceMs) {
        this.gateway.liftIf(scope, TradingStateSource.STALE_DATA, `prices of ${symbol} arrive again`);
      }
    }
  }
}

/**
 * What a strategy's host needs from the runtime ({@link HostServices}): the run's mode, universe,
 * clock and account, and the way of its commands (orders, timers, subscriptions). The runtime
 * implements it; a host test fakes it.
 *
 * @module
 */
import type { BarInterval, ClientOrderId, Clock } from '@hoga/core';
import type { TradingMode } from '@hoga/store';
import type { Portfolio } from '../portfolio/portfolio.js';
import type {
  AccountView,
  DecimalInput,
  OrderRequest,
  TimerSpec,
  Universe,
} from '../strategy/strategy-context.js';
import type { OrderHours } from './market-order-hours.js';
import type { StrategyHost } from './strategy-host.js';

/** What a host needs from the runtime. */
export interface HostServices {
  readonly mode: TradingMode;
  readonly universe: Universe;
  readonly clock: Clock;
  readonly account: AccountView;
  /** Values the strategies' books (`ctx.equity()`, `ctx.unrealizedPnl()`). */
  readonly portfolio: Portfolio;
  /**
   * When the broker takes market orders by its own calendar (paper, live: `CalendarOrderHours`);
   * unset, `ctx.marketOrderAllowed` answers by the broker model's hours (a backtest).
   */
  readonly orderHours?: OrderHours | undefined;
  submit(host: StrategyHost, request: OrderRequest): ClientOrderId;
  modify(
    host: StrategyHost,
    id: ClientOrderId,
    change: { price?: DecimalInput; quantity?: DecimalInput; confirmHighValue?: boolean },
  ): void;
  cancel(host: StrategyHost, id: ClientOrderId): void;
  setTimer(host: StrategyHost, name: string, spec: TimerSpec): void;
  cancelTimer(host: StrategyHost, name: string): boolean;
  subscribe(
    host: StrategyHost,
    kind: 'bars' | 'prices' | 'orderbook' | 'trades',
    symbol: string,
    interval?: BarInterval,
  ): void;
  unsubscribe(
    host: StrategyHost,
    kind: 'bars' | 'prices' | 'orderbook' | 'trades',
    symbol: string,
    interval?: BarInterval,
  ): void;
}

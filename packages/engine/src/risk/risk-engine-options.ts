/**
 * What the risk engine works with: its clock, configuration, trading states, view of the account,
 * and the optional market, funds, marks, cancel sender and stale-data monitor.
 *
 * @module
 */
import type { Clock, Decimal, TradingMode } from '@hoga/core';
import type { CancelOrder, OrderCommand } from '../commands/order-commands.js';
import type { AccountInfoProvider } from './account-info-provider.js';
import type { BrokerMarketView } from './broker-market-view.js';
import type { FundsView, MarketRulesView } from './broker-rules-check.js';
import type { RiskConfig } from './risk-config.js';
import type { RiskVerdict } from './risk-gate.js';
import type { RestoredRiskOrder, RiskView } from './risk-types.js';
import type { StaleDataMonitor } from './stale-data-monitor.js';
import type { TradingStateGateway } from './trading-state-gateway.js';

/** What the risk engine works with. */
export interface RiskEngineOptions {
  readonly clock: Clock;
  /** The run's mode, for the way out of a halt a denial names (live when absent). */
  readonly mode?: TradingMode | undefined;
  readonly config: RiskConfig;
  readonly gateway: TradingStateGateway;
  /** Open orders, positions, PnL (the risk book fed with order events, or an adapter). */
  readonly view: RiskView;
  /** The market for the broker's rules; without it the broker's rules are not run (the venue judges). */
  readonly market?:
    | (MarketRulesView & Partial<Pick<BrokerMarketView, 'prepare' | 'lastPrice' | 'usdKrw'>>)
    | undefined;
  /**
   * Last prices and the exchange rate where no broker gives them (a backtest: its bars' closes and
   * the run's USD/KRW), asked for an order's own symbol only: a market order is valued at its
   * symbol's last price as live values it, not at 0.
   */
  readonly marks?: MarkSource | undefined;
  /** Buying power and sellable quantity for the broker's rules. */
  readonly funds?:
    | (FundsView & Partial<Pick<AccountInfoProvider, 'refresh' | 'reserve' | 'forget'>>)
    | undefined;
  /**
   * The account's open orders as the store lists them now (live): those the view does not know as
   * its own are counted by the broker's rules (see `RiskBook.setOutsideOrders`), read again before
   * every check and refresh. Absent (a backtest, paper, `hoga order`): only the view's own count.
   */
  readonly outsideOrders?: (() => readonly RestoredRiskOrder[]) | undefined;
  /** Sends the kill switch's cancels (the venue's `execute`, or the order manager's). */
  readonly cancel?: ((command: CancelOrder) => void | Promise<void>) | undefined;
  /** Moves scopes to REDUCING on stale data, evaluated before every check. */
  readonly staleness?: StaleDataMonitor | undefined;
  /**
   * The broker's rules where no broker's data judges them (a backtest's, against its bars and its
   * venue): judged at the place live judges the broker's (after the trading states, before the
   * strategy's limits), and when the risk module is disabled too (they are the broker's). Answers
   * undefined when the command passes them.
   */
  readonly brokerRules?: ((command: OrderCommand) => RiskVerdict | undefined) | undefined;
  /**
   * Apply the abuse throttles (default true). They protect the connection to the broker; a
   * backtest, which has none, leaves them out.
   */
  readonly throttles?: boolean;
}

/** Last prices and the rate of a run with no broker (see {@link RiskEngineOptions.marks}). */
export interface MarkSource {
  /** The symbol's last price (native currency), if any yet. */
  lastPrice(symbol: string): Decimal | undefined;
  /** KRW per USD now. */
  usdKrw(): Decimal;
}

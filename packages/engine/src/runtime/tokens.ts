/**
 * Injection tokens for what the engine binds but does not define (core's clock and logger, the
 * store's database) and for a run's settings. The engine's own interfaces carry a same-named
 * `Symbol` token beside them (`ExecutionVenue`, `RiskGate`, `Portfolio`, …).
 *
 * @module
 */
import type { BarInterval, Currency, Decimal, Instrument } from '@hoga/core';
import type { TradingMode } from '@hoga/store';

/** Token of core's `Clock`: the only time source of a run. */
export const ClockToken = Symbol.for('hoga.engine.Clock');
/** Token of the run's root pino `Logger` (components take children). */
export const LoggerToken = Symbol.for('hoga.engine.Logger');
/** Token of the store's `HogaDatabase`. */
export const DatabaseToken = Symbol.for('hoga.engine.Database');

/** What a run is: its mode, id, universe and the account's starting cash. */
export interface RunSettings {
  /** Unique id of this run (backtests: the stored run's id). */
  readonly runId: string;
  readonly mode: TradingMode;
  /** The command line's `--symbols`. */
  readonly symbols: readonly string[];
  /** The command line's `--interval`. */
  readonly interval: BarInterval;
  /** Starting cash of the account, per currency (backtest and paper). */
  readonly cash: Readonly<Partial<Record<Currency, Decimal>>>;
}

/** Token of {@link RunSettings}. */
export const RunSettings = Symbol.for('hoga.engine.RunSettings');

/**
 * The instrument of a symbol as the broker lists it (its real security type: a KR ETF or ETN has
 * its own tick table and no sell tax), or undefined when the run does not know it; the runtime then
 * takes the symbol for a stock (core's `instrumentOf`).
 */
export type InstrumentLookup = (symbol: string) => Instrument | undefined;

/** Token of the run's {@link InstrumentLookup} (optional: unbound, every symbol is a stock). */
export const InstrumentsToken = Symbol.for('hoga.engine.Instruments');

/**
 * Token of the run's KR daily price limits (`PriceLimitsLookup`, strategy-budget.ts): the day's
 * upper limit is what the broker holds a KR market buy at, and so what a strategy's budget counts
 * it at (a backtest: its bars' limits; paper, live: the risk module's market view). Optional:
 * unbound, a market buy is counted at its last price.
 */
export const PriceLimitsToken = Symbol.for('hoga.engine.PriceLimits');

/**
 * Token of the run's `LastPriceLookup` (`strategy-budget.ts`): a symbol's last price as the broker
 * was last read, for a strategy's budget to value a market buy at before the portfolio has a price
 * of it (a buy in `onStart`; paper, live: the risk module's market view). Optional: unbound, only
 * the portfolio's prices.
 */
export const LastPriceToken = Symbol.for('hoga.engine.LastPrice');

/**
 * Token of the run's `OrderHours` (`market-order-hours.ts`): when the broker takes market orders,
 * by the broker's calendar (paper, live: `CalendarOrderHours`). Optional: unbound, the broker
 * model's hours answer (a backtest).
 */
export const OrderHoursToken = Symbol.for('hoga.engine.OrderHours');

/**
 * The mode the engine runs in, and records are written in.
 *
 * @module
 */

/** How the engine was running: on history, on a simulated broker, or on the real one. */
export const TradingMode = { BACKTEST: 'backtest', PAPER: 'paper', LIVE: 'live' } as const;

/** One of the {@link TradingMode} values. */
export type TradingMode = (typeof TradingMode)[keyof typeof TradingMode];

/** The {@link TradingMode} values, for validation of stored rows. */
export const TRADING_MODES: ReadonlySet<string> = new Set(Object.values(TradingMode));

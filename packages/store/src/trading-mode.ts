/**
 * The mode a record was written in: core's {@link TradingMode}, re-exported for the store's
 * repositories (one definition, in `@hoga/core`).
 *
 * @module
 */
export { TRADING_MODES, TradingMode } from '@hoga/core';

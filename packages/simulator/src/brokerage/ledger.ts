/**
 * An account's cash and holdings: the broker model's {@link Ledger} (the same arithmetic the
 * engine's portfolio, paper venue and backtests use).
 *
 * @module
 */
export { type Holding, Ledger, type LedgerEntry } from '@hoga/broker-model';

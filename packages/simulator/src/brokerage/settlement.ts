/**
 * Trading dates, settlement dates (now skipping the exchange holidays too) and DAY-order expiry:
 * they live in `@hoga/broker-model`; re-exported for the simulator's order factory.
 *
 * @module
 */
export { dayOrderExpiry, settlementDate, tradingDate } from '@hoga/broker-model';

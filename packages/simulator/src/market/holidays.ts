/**
 * The exchange holidays the simulator's calendar knows: the one list lives in
 * `@hoga/broker-model` (settlement and backtests read it too).
 *
 * @module
 */
export { CALENDAR_RANGE, KRX_HOLIDAYS, NYSE_HOLIDAYS } from '@hoga/broker-model';

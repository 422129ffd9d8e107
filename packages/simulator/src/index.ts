/**
 * `@hoga/simulator`: a real HTTP server that behaves like the broker's Open API
 * (token, market data, stock info, market info, accounts, orders), with a
 * seeded market, a matching brokerage, rate limits, faults and a control API.
 *
 * @packageDocumentation
 */

export { SimApiError } from './api-error.js';
export type { ControllableMarket, DeclaredCalendarList, SimCounters } from './control/control-api.js';
export { SimulatorControl } from './control/control-api.js';
export type {
  CalendarDeclaration,
  HolidayDeclaration,
  SpecialSessionDeclaration,
} from './market/declared-calendar.js';
export type { ActiveFault, FaultSpec } from './server/faults.js';
export { FaultKind } from './server/faults.js';
export type { RateLimitDecision } from './server/rate-limiter.js';
export type { SimulatorHandle } from './server/serve-simulator.js';
export { SimulatorError } from './server/simulator-error.js';
export type { SimulatorOptions } from './start-simulator.js';
export { startSimulator } from './start-simulator.js';

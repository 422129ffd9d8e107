/**
 * The options of the simulated venue, and the broker's rules it may be given to judge orders by.
 *
 * @module
 */
import type { FillModel, Ledger } from '@hoga/broker-model';
import type { Clock } from '@hoga/core';
import type { OrderCommand } from '../commands/order-commands.js';
import type { OrderBuildOptions } from './order-admission.js';

/**
 * Options of `SimulatedVenue`; how it builds orders (price and instrument sources, which day a
 * DAY order belongs to) is {@link OrderBuildOptions}.
 */
export interface SimulatedVenueOptions<M> extends OrderBuildOptions {
  /** How orders fill against a market view. */
  readonly fillModel: FillModel<M>;
  /** The account's books (starting cash and holdings). */
  readonly ledger: Ledger;
  /** The engine clock (acceptance and event times). */
  readonly clock: Clock;
  /** Prefix of broker order ids and event ids (default `sim`). */
  readonly idPrefix?: string;
}

/**
 * The broker's rules a simulated venue judges a new order, a modify or a cancel by, where the
 * broker would judge them and nothing before the venue does (the risk module disabled, paper and
 * backtest): the broker's refusal (its code and message), else null. A modify or cancel is judged
 * only once the venue found its order working. See `SimulatedVenue.judgeOrdersBy`.
 */
export type VenueOrderRules = (
  command: OrderCommand,
) => { readonly code: string; readonly reason: string } | null;

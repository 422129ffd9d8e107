/**
 * Order commands, in the imperative: what a strategy (or the `hoga order` command) asks the engine
 * to do. Every command passes the risk gate, is written to the store with its full content, and
 * only then reaches the execution venue. Outcomes come back as core's order events.
 *
 * @module
 */
import type { ClientOrderId, Decimal, OrderIntent, OrderType, StrategyId } from '@hoga/core';

interface OrderCommandBase {
  /** Unique id of this command. */
  readonly commandId: string;
  /** The strategy that issued it (`manual` for the CLI). */
  readonly strategyId: StrategyId;
  /** When the command was created, epoch ms (engine clock). */
  readonly tsInit: number;
}

/** Place a new order. */
export interface SubmitOrder extends OrderCommandBase {
  readonly type: 'SubmitOrder';
  readonly intent: OrderIntent;
}

/** Change the price (and, KR only, the quantity) of a working order. */
export interface ModifyOrder extends OrderCommandBase {
  readonly type: 'ModifyOrder';
  /** The logical order (stable across the broker ids modifies produce). */
  readonly clientOrderId: ClientOrderId;
  readonly orderType: OrderType;
  /** New limit price (LIMIT only). */
  readonly price?: Decimal;
  /**
   * New quantity of the unfilled part (KR only): the broker's modify replaces the order's rest with
   * a new order of this quantity (at most the rest).
   */
  readonly quantity?: Decimal;
  readonly confirmHighValue: boolean;
}

/** Cancel a working order. */
export interface CancelOrder extends OrderCommandBase {
  readonly type: 'CancelOrder';
  readonly clientOrderId: ClientOrderId;
}

/** Any order command. */
export type OrderCommand = SubmitOrder | ModifyOrder | CancelOrder;

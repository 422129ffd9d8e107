/**
 * Order commands, in the imperative: what a strategy (or the `hoga order` command) asks the engine
 * to do. Every command passes the risk gate, is written to the store with its full content, and
 * only then reaches the execution venue. Outcomes come back as core's order events.
 *
 * @module
 */
import {
  type ClientOrderId,
  checkPricePresence,
  type Decimal,
  Market,
  marketOfSymbol,
  type OrderIntent,
  type OrderType,
  type StrategyId,
} from '@hoga/core';

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

/**
 * The quantity of a modify: the one given, or for a KR order the unfilled rest (the broker needs a
 * KR modify's quantity, the new order's, at most the rest; a change of the price alone keeps the
 * rest). A US modify carries none unless given (the broker refuses one).
 *
 * @param order - the order as known (its ordered and filled quantity), if it is
 */
export function modifyQuantity(
  given: Decimal | undefined,
  order:
    | { readonly symbol: string; readonly quantity: Decimal | null; readonly filledQuantity: Decimal }
    | undefined,
): Decimal | undefined {
  if (given !== undefined || order === undefined || order.quantity === null) return given;
  return marketOfSymbol(order.symbol) === Market.KR ? order.quantity.minus(order.filledQuantity) : undefined;
}

/**
 * The price of a modify: the one given, or for a LIMIT order its limit now (the broker's modify of
 * a limit order needs a price; a change of the quantity alone keeps it). A MARKET order carries
 * none.
 *
 * @param order - the order as known (its type and limit price), if it is
 */
export function modifyPrice(
  given: Decimal | undefined,
  order: { readonly orderType: OrderType; readonly price: Decimal | null } | undefined,
): Decimal | undefined {
  if (given !== undefined || order === undefined || order.orderType !== 'LIMIT') return given;
  return order.price ?? undefined;
}

/**
 * The refusal of a modify that live's connector makes before sending it (it never reaches the
 * broker): a price given for a MARKET order or none for a LIMIT order (core's
 * `checkPricePresence`), or a quantity of 0 or less, with the broker's code `invalid-request`;
 * null when the modify can be sent. Live refuses such a modify before it is sent and so do paper
 * and backtests with the risk module disabled (the risk module on refuses it in every mode):
 * `OrderModifyRejected` `invalid-request`, `sent: false`, with no `OrderModifyRequested` (before,
 * live told `OrderModifyRequested`, then a rejection coded `InvalidArgumentError` and `sent: true`).
 */
export function unsendableModify(
  command: Pick<ModifyOrder, 'orderType' | 'price' | 'quantity'>,
): { readonly accepted: false; readonly code: string; readonly reason: string } | null {
  const presence = checkPricePresence(command.orderType, command.price ?? null);
  if (!presence.accepted) return { accepted: false, code: presence.code, reason: presence.message };
  if (command.quantity?.lte(0) === true) {
    return {
      accepted: false,
      code: 'invalid-request',
      reason: `quantity: expected a positive quantity, found ${command.quantity.toFixed()}`,
    };
  }
  return null;
}

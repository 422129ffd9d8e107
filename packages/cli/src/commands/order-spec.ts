/**
 * What `hoga order buy|sell` asks for, checked and made an order intent (the risk module's broker
 * rules judge its shape after): the usage errors of its flags.
 *
 * @module
 */
import {
  type ClientOrderId,
  Decimal,
  instrumentOf,
  isOnTick,
  newClientOrderId,
  type OrderIntent,
  roundToTick,
  type StrategyId,
  clientOrderId as toClientOrderId,
} from '@hoga/core';
import type { OrderFlags } from './order.js';

/** What was asked on the command line. */
export type OrderSpec =
  | {
      readonly kind: 'buy' | 'sell';
      readonly symbol: string;
      readonly quantity?: string;
      readonly flags: OrderFlags;
    }
  | { readonly kind: 'modify' | 'cancel'; readonly target: string; readonly flags: OrderFlags };

/** A usage problem: printed, exit 2. */
export class OrderUsageError extends Error {}

/** Builds the intent of a buy or sell as asked (the risk module's broker rules judge its shape). */
export function buildIntent(
  spec: Extract<OrderSpec, { kind: 'buy' | 'sell' }>,
  strategy: StrategyId,
): OrderIntent {
  const { flags } = spec;
  const market = flags.market === true;
  if (flags.limit !== undefined && market)
    throw new OrderUsageError('choose one of --limit PRICE and --market');
  if (flags.amount !== undefined && (flags.limit !== undefined || spec.quantity !== undefined)) {
    throw new OrderUsageError(
      '--amount is a US market order for a dollar amount: give no quantity and no --limit',
    );
  }
  if (flags.amount === undefined && spec.quantity === undefined) {
    throw new OrderUsageError('give a quantity, or --amount USD for a US amount order');
  }
  if (flags.amount === undefined && flags.limit === undefined && !market) {
    throw new OrderUsageError('give --limit PRICE for a limit order or --market for a market order');
  }
  const raw: Record<string, unknown> = {
    clientOrderId: flags.clientOrderId === undefined ? newClientOrderId('cli') : givenId(flags.clientOrderId),
    strategyId: strategy,
    instrument: instrumentOf(spec.symbol.toUpperCase()),
    side: spec.kind === 'buy' ? 'BUY' : 'SELL',
    sizing: flags.amount === undefined ? 'QUANTITY' : 'AMOUNT',
    orderType: flags.limit === undefined ? 'MARKET' : 'LIMIT',
    confirmHighValue: flags.confirmHighValue === true,
  };
  if (flags.amount !== undefined) raw.amount = new Decimal(flags.amount);
  if (spec.quantity !== undefined) raw.quantity = new Decimal(spec.quantity);
  if (flags.limit !== undefined) raw.price = new Decimal(flags.limit);
  if (flags.amount === undefined) raw.timeInForce = 'DAY';
  return Object.freeze(raw) as unknown as OrderIntent;
}

/** `--client-order-id`, checked as core checks a client order id (the broker's pattern). */
function givenId(id: string): ClientOrderId {
  try {
    return toClientOrderId(id);
  } catch {
    throw new OrderUsageError(
      `--client-order-id ${JSON.stringify(id)}: expected 1 to 36 characters of A-Z, a-z, 0-9, _ and -: give such an id, or leave the flag out for a new one`,
    );
  }
}

/**
 * A usage error for a US limit off the broker's grid ($0.01 from $1, $0.0001 below): the broker
 * truncates it and the order would rest at a price other than the one asked (and stored).
 */
export function checkUsLimit(symbol: string, limit: string | undefined): void {
  if (limit === undefined) return;
  const instrument = instrumentOf(symbol.toUpperCase());
  const price = new Decimal(limit);
  if (instrument.market !== 'US' || isOnTick(instrument, price)) return;
  const taken = roundToTick(instrument, price, 'down');
  throw new OrderUsageError(
    `--limit ${limit}: US prices go in cents from $1 (4 decimals below); the broker would truncate it to ${taken.toFixed()}: give a price on that grid`,
  );
}

/**
 * The wire fields of an order intent, read as they are (an intent built without
 * `createOrderIntent`, e.g. by `hoga order`, may break the shape rules: the broker's rules in the
 * risk module judge it, as the broker would).
 *
 * @module
 */
import type { Decimal, OrderIntent, TimeInForce } from '@hoga/core';

/** The create request's sizing and price fields of an intent. */
export interface IntentFields {
  readonly quantity: Decimal | null;
  readonly price: Decimal | null;
  readonly orderAmount: Decimal | null;
  /** Null means `DAY`. */
  readonly timeInForce: TimeInForce | null;
}

/** The sizing and price fields of an intent as they may be present (or not) on the wire. */
export interface RawIntentFields {
  readonly quantity?: Decimal | null;
  readonly price?: Decimal | null;
  readonly amount?: Decimal | null;
  readonly timeInForce?: TimeInForce | null;
}

/** Reads an intent's fields without assuming it passed the shape rules. */
export function intentFields(intent: OrderIntent): IntentFields {
  const raw = intent as unknown as RawIntentFields;
  return {
    quantity: raw.quantity ?? null,
    price: raw.price ?? null,
    orderAmount: raw.amount ?? null,
    timeInForce: raw.timeInForce ?? null,
  };
}

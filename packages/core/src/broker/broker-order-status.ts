/**
 * The statuses the broker shows on its order records (`status` of the order list and detail),
 * grouped as the order-history endpoint groups them: OPEN (in progress) and CLOSED (finished).
 * These are the broker's wire values; hoga's own order lifecycle is {@link OrderState}.
 *
 * @module
 */

/** Order statuses of the broker's order record: the OPEN group first, then CLOSED. */
export const BrokerOrderStatus = {
  PENDING: 'PENDING',
  PENDING_CANCEL: 'PENDING_CANCEL',
  PENDING_REPLACE: 'PENDING_REPLACE',
  PARTIAL_FILLED: 'PARTIAL_FILLED',
  FILLED: 'FILLED',
  CANCELED: 'CANCELED',
  REJECTED: 'REJECTED',
  REPLACED: 'REPLACED',
  CANCEL_REJECTED: 'CANCEL_REJECTED',
  REPLACE_REJECTED: 'REPLACE_REJECTED',
} as const;
/** One of the known {@link BrokerOrderStatus} values. */
export type KnownBrokerOrderStatus = (typeof BrokerOrderStatus)[keyof typeof BrokerOrderStatus];
/** A broker order status as read from the wire: a known value, or an unknown one kept as a string. */
export type BrokerOrderStatus = KnownBrokerOrderStatus | (string & {});

/** Statuses the broker lists under `status=OPEN`; every other known status is listed under `CLOSED`. */
export const OPEN_BROKER_ORDER_STATUSES: ReadonlySet<string> = new Set<KnownBrokerOrderStatus>([
  BrokerOrderStatus.PENDING,
  BrokerOrderStatus.PENDING_CANCEL,
  BrokerOrderStatus.PENDING_REPLACE,
  BrokerOrderStatus.PARTIAL_FILLED,
]);

/** Statuses after which a broker order record never changes again. */
export const TERMINAL_BROKER_ORDER_STATUSES: ReadonlySet<string> = new Set<KnownBrokerOrderStatus>([
  BrokerOrderStatus.FILLED,
  BrokerOrderStatus.CANCELED,
  BrokerOrderStatus.REJECTED,
  BrokerOrderStatus.REPLACED,
  // A rejected cancel or modify is a record of its own; the original order goes back to its state.
  BrokerOrderStatus.CANCEL_REJECTED,
  BrokerOrderStatus.REPLACE_REJECTED,
]);

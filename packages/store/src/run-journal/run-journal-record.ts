/**
 * The records a run's order events travel as, from {@link RunJournalWriter} to
 * {@link RunJournalSink}: flat arrays of strings, numbers and null, each record its code and its
 * values, event types as codes and safe-integer decimals as numbers.
 *
 * The journal's worker thread loads this file as it is, with Node's own type stripping: it imports
 * nothing and uses only erasable TypeScript (no parameter properties, enums or namespaces).
 *
 * @module
 */

/**
 * Event types sent as their index here (a number clones cheaper than a string); a type not listed
 * is sent as its name.
 */
export const RUN_JOURNAL_EVENT_TYPES: readonly string[] = [
  'OrderSubmitted',
  'OrderAccepted',
  'OrderFilled',
  'OrderPartiallyFilled',
  'OrderRejected',
  'OrderDenied',
  'OrderCanceled',
  'OrderExpired',
  'OrderModified',
  'OrderModifyRequested',
  'OrderModifyRejected',
  'OrderCancelRequested',
  'OrderCancelRejected',
];

/**
 * A record's event type: its index in {@link RUN_JOURNAL_EVENT_TYPES}, or its name. A record's
 * decimal: a safe integer as a number (whole won, whole shares: written back as the same digits),
 * or its plain text.
 */
export type RecordedType = number | string;
/** See {@link RecordedType}. */
export type RecordedDecimal = number | string;

/**
 * Record codes: each record is its code followed by its values (types and decimals as above).
 * - `SUBMITTED`: clientOrderId, strategyId, tsEvent, symbol, side, orderType, price, quantity, amount
 * - `INTENT`: the same values as `SUBMITTED`, for an order that was never submitted (denied before
 *   it reached the venue): what it asked for, with no event of its own (its denial follows)
 * - `EVENT`: type, clientOrderId, strategyId, tsEvent, tsInit (any event with nothing more to keep)
 * - `MODIFIED`: clientOrderId, strategyId, tsEvent, tsInit, price, quantity
 * - `FILLED`: type, clientOrderId, strategyId, tsEvent, tsInit, symbol, side, quantity, price,
 *   currency, commission, tax
 * - `REASON`: type, clientOrderId, strategyId, tsEvent, tsInit, reason (rejections, denials, cancels)
 * - `FLUSH`: nothing (the orders still open are journalled as they stand)
 */
export const RunJournalRecord = {
  SUBMITTED: 1,
  EVENT: 2,
  MODIFIED: 3,
  FILLED: 4,
  REASON: 5,
  FLUSH: 6,
  INTENT: 7,
} as const;

/**
 * The order state machine: ONE transition table (data) and one lookup.
 *
 * @module
 */
import { IllegalTransitionError } from '../errors.js';

/** Every state an order can be in. */
export const OrderState = {
  INITIALIZED: 'INITIALIZED',
  DENIED: 'DENIED',
  SUBMITTED: 'SUBMITTED',
  ACCEPTED: 'ACCEPTED',
  REJECTED: 'REJECTED',
  PARTIALLY_FILLED: 'PARTIALLY_FILLED',
  FILLED: 'FILLED',
  PENDING_CANCEL: 'PENDING_CANCEL',
  CANCELED: 'CANCELED',
  PENDING_MODIFY: 'PENDING_MODIFY',
  EXPIRED: 'EXPIRED',
} as const;
/** One of {@link OrderState}. */
export type OrderState = (typeof OrderState)[keyof typeof OrderState];

/** Every order event type (past tense). */
export const OrderEventType = {
  OrderSubmitted: 'OrderSubmitted',
  OrderAccepted: 'OrderAccepted',
  OrderRejected: 'OrderRejected',
  OrderDenied: 'OrderDenied',
  OrderPartiallyFilled: 'OrderPartiallyFilled',
  OrderFilled: 'OrderFilled',
  OrderCancelRequested: 'OrderCancelRequested',
  OrderCanceled: 'OrderCanceled',
  OrderCancelRejected: 'OrderCancelRejected',
  OrderModifyRequested: 'OrderModifyRequested',
  OrderModified: 'OrderModified',
  OrderModifyRejected: 'OrderModifyRejected',
  OrderExpired: 'OrderExpired',
} as const;
/** One of {@link OrderEventType}. */
export type OrderEventType = (typeof OrderEventType)[keyof typeof OrderEventType];

/** All states, in declaration order. */
export const ORDER_STATES: readonly OrderState[] = Object.values(OrderState);
/** All event types, in declaration order. */
export const ORDER_EVENT_TYPES: readonly OrderEventType[] = Object.values(OrderEventType);

/**
 * Target marker: the answer of a pending cancel/modify — the order stays pending when another change
 * of it is still unanswered ({@link TransitionContext.stillPending}), else goes back to the working
 * state it had before: `PARTIALLY_FILLED` when it has fills, else `ACCEPTED`.
 */
export const RESUME = 'RESUME';
/** A table target: a state, or {@link RESUME}. */
export type TransitionTarget = OrderState | typeof RESUME;

const S = OrderState;
const E = OrderEventType;

/**
 * The transition table: `ORDER_TRANSITIONS[state][eventType]` is the next state; a missing entry is
 * an illegal transition. Terminal states (`DENIED`, `REJECTED`, `FILLED`, `CANCELED`, `EXPIRED`)
 * have no rows. `OrderModified` in a working state is an unsolicited change (another channel); a
 * rejected modify or cancel in a working state (one the engine refused before sending it: no
 * request was pending) leaves the order as it was.
 *
 * A change may be requested while another is pending (a second cancel, a second modify, a modify
 * after a cancel): the order stays pending, and a pending cancel outranks a modify (the order is on
 * its way out) — a modify requested or answered while a cancel is pending leaves `PENDING_CANCEL`,
 * a cancel refused while a modify is pending leaves `PENDING_MODIFY`. Only the answer of the pending
 * change leaves the pending state ({@link RESUME}), and then only when no other change of the order
 * is still unanswered: the caller, which counts the changes requested and answered, says so in
 * {@link TransitionContext.stillPending}.
 */
export const ORDER_TRANSITIONS: Readonly<
  Record<OrderState, Readonly<Partial<Record<OrderEventType, TransitionTarget>>>>
> = {
  [S.INITIALIZED]: {
    [E.OrderDenied]: S.DENIED,
    [E.OrderSubmitted]: S.SUBMITTED,
    [E.OrderRejected]: S.REJECTED,
    [E.OrderCanceled]: S.CANCELED,
  },
  [S.SUBMITTED]: {
    [E.OrderAccepted]: S.ACCEPTED,
    [E.OrderRejected]: S.REJECTED,
    [E.OrderPartiallyFilled]: S.PARTIALLY_FILLED,
    [E.OrderFilled]: S.FILLED,
    [E.OrderCancelRequested]: S.PENDING_CANCEL,
    [E.OrderCanceled]: S.CANCELED,
    [E.OrderModifyRequested]: S.PENDING_MODIFY,
    [E.OrderModifyRejected]: S.SUBMITTED,
    [E.OrderCancelRejected]: S.SUBMITTED,
    [E.OrderExpired]: S.EXPIRED,
  },
  [S.ACCEPTED]: {
    [E.OrderRejected]: S.REJECTED,
    [E.OrderPartiallyFilled]: S.PARTIALLY_FILLED,
    [E.OrderFilled]: S.FILLED,
    [E.OrderCancelRequested]: S.PENDING_CANCEL,
    [E.OrderCanceled]: S.CANCELED,
    [E.OrderModifyRequested]: S.PENDING_MODIFY,
    [E.OrderModified]: S.ACCEPTED,
    [E.OrderModifyRejected]: S.ACCEPTED,
    [E.OrderCancelRejected]: S.ACCEPTED,
    [E.OrderExpired]: S.EXPIRED,
  },
  [S.PARTIALLY_FILLED]: {
    [E.OrderPartiallyFilled]: S.PARTIALLY_FILLED,
    [E.OrderFilled]: S.FILLED,
    [E.OrderCancelRequested]: S.PENDING_CANCEL,
    [E.OrderCanceled]: S.CANCELED,
    [E.OrderModifyRequested]: S.PENDING_MODIFY,
    [E.OrderModified]: S.PARTIALLY_FILLED,
    [E.OrderModifyRejected]: S.PARTIALLY_FILLED,
    [E.OrderCancelRejected]: S.PARTIALLY_FILLED,
    [E.OrderExpired]: S.EXPIRED,
  },
  [S.PENDING_CANCEL]: {
    [E.OrderPartiallyFilled]: S.PENDING_CANCEL,
    [E.OrderFilled]: S.FILLED,
    [E.OrderCancelRequested]: S.PENDING_CANCEL,
    [E.OrderCanceled]: S.CANCELED,
    [E.OrderCancelRejected]: RESUME,
    [E.OrderModifyRequested]: S.PENDING_CANCEL,
    [E.OrderModified]: S.PENDING_CANCEL,
    [E.OrderModifyRejected]: S.PENDING_CANCEL,
    [E.OrderExpired]: S.EXPIRED,
  },
  [S.PENDING_MODIFY]: {
    [E.OrderPartiallyFilled]: S.PENDING_MODIFY,
    [E.OrderFilled]: S.FILLED,
    [E.OrderModifyRequested]: S.PENDING_MODIFY,
    [E.OrderModified]: RESUME,
    [E.OrderModifyRejected]: RESUME,
    [E.OrderCancelRequested]: S.PENDING_CANCEL,
    [E.OrderCanceled]: S.CANCELED,
    [E.OrderCancelRejected]: S.PENDING_MODIFY,
    [E.OrderExpired]: S.EXPIRED,
  },
  [S.DENIED]: {},
  [S.REJECTED]: {},
  [S.FILLED]: {},
  [S.CANCELED]: {},
  [S.EXPIRED]: {},
};

/** Context for {@link transitionOrder}. */
export interface TransitionContext {
  /** Whether the order already has fills (decides where {@link RESUME} leads). Default `false`. */
  readonly hasFills?: boolean;
  /**
   * The pending state the order stays in when the event answers one change of it while another is
   * still unanswered (requested, not yet answered): `PENDING_CANCEL` when a cancel is, else
   * `PENDING_MODIFY`. Then {@link RESUME} leads there, not back to working. Default: none.
   */
  readonly stillPending?: typeof S.PENDING_CANCEL | typeof S.PENDING_MODIFY | undefined;
}

/**
 * The next state of an order after an event.
 *
 * @param state - current state
 * @param eventType - the event being applied
 * @param context - whether the order has fills, and whether another change of it is still pending
 *   (only used when a pending change is answered)
 * @throws {@link IllegalTransitionError} naming both the state and the event when the table has no entry
 */
export function transitionOrder(
  state: OrderState,
  eventType: OrderEventType,
  context: TransitionContext = {},
): OrderState {
  const target = ORDER_TRANSITIONS[state]?.[eventType];
  switch (target) {
    case undefined:
      throw new IllegalTransitionError(String(state), String(eventType));
    case RESUME:
      if (context.stillPending !== undefined) return context.stillPending;
      return context.hasFills === true ? S.PARTIALLY_FILLED : S.ACCEPTED;
    default:
      return target;
  }
}

/**
 * Whether a transition is allowed by the table.
 *
 * @param state - current state
 * @param eventType - the event
 */
export function canTransition(state: OrderState, eventType: OrderEventType): boolean {
  return ORDER_TRANSITIONS[state]?.[eventType] !== undefined;
}

/** States that accept no further event. */
export const TERMINAL_ORDER_STATES: ReadonlySet<OrderState> = new Set(
  ORDER_STATES.filter((s) => Object.keys(ORDER_TRANSITIONS[s]).length === 0),
);

/**
 * Whether an order in this state is finished (no further event is allowed).
 *
 * @param state - an order state
 */
export function isTerminalOrderState(state: OrderState): boolean {
  return TERMINAL_ORDER_STATES.has(state);
}

/**
 * Whether an order in this state may still trade (working at the broker or about to be).
 *
 * @param state - an order state
 */
export function isOpenOrderState(state: OrderState): boolean {
  return !isTerminalOrderState(state) && state !== S.INITIALIZED;
}

import { describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../errors.js';
import {
  canTransition,
  isOpenOrderState,
  isTerminalOrderState,
  ORDER_EVENT_TYPES,
  ORDER_STATES,
  ORDER_TRANSITIONS,
  type OrderEventType,
  type OrderState,
  transitionOrder,
} from './order-state.js';

/**
 * The allowed transitions, written out independently of the implementation's table:
 * `state event -> next` (`next` for a RESUME row is given as `ACCEPTED|PARTIALLY_FILLED`,
 * without fills | with fills). Every pair not listed must be illegal.
 */
const ALLOWED = `
INITIALIZED OrderDenied -> DENIED
INITIALIZED OrderSubmitted -> SUBMITTED
INITIALIZED OrderRejected -> REJECTED
INITIALIZED OrderCanceled -> CANCELED
SUBMITTED OrderAccepted -> ACCEPTED
SUBMITTED OrderRejected -> REJECTED
SUBMITTED OrderPartiallyFilled -> PARTIALLY_FILLED
SUBMITTED OrderFilled -> FILLED
SUBMITTED OrderCancelRequested -> PENDING_CANCEL
SUBMITTED OrderCanceled -> CANCELED
SUBMITTED OrderModifyRequested -> PENDING_MODIFY
SUBMITTED OrderModifyRejected -> SUBMITTED
SUBMITTED OrderCancelRejected -> SUBMITTED
SUBMITTED OrderExpired -> EXPIRED
ACCEPTED OrderRejected -> REJECTED
ACCEPTED OrderPartiallyFilled -> PARTIALLY_FILLED
ACCEPTED OrderFilled -> FILLED
ACCEPTED OrderCancelRequested -> PENDING_CANCEL
ACCEPTED OrderCanceled -> CANCELED
ACCEPTED OrderModifyRequested -> PENDING_MODIFY
ACCEPTED OrderModified -> ACCEPTED
ACCEPTED OrderModifyRejected -> ACCEPTED
ACCEPTED OrderCancelRejected -> ACCEPTED
ACCEPTED OrderExpired -> EXPIRED
PARTIALLY_FILLED OrderPartiallyFilled -> PARTIALLY_FILLED
PARTIALLY_FILLED OrderFilled -> FILLED
PARTIALLY_FILLED OrderCancelRequested -> PENDING_CANCEL
PARTIALLY_FILLED OrderCanceled -> CANCELED
PARTIALLY_FILLED OrderModifyRequested -> PENDING_MODIFY
PARTIALLY_FILLED OrderModified -> PARTIALLY_FILLED
PARTIALLY_FILLED OrderModifyRejected -> PARTIALLY_FILLED
PARTIALLY_FILLED OrderCancelRejected -> PARTIALLY_FILLED
PARTIALLY_FILLED OrderExpired -> EXPIRED
PENDING_CANCEL OrderPartiallyFilled -> PENDING_CANCEL
PENDING_CANCEL OrderFilled -> FILLED
PENDING_CANCEL OrderCancelRequested -> PENDING_CANCEL
PENDING_CANCEL OrderCanceled -> CANCELED
PENDING_CANCEL OrderCancelRejected -> ACCEPTED|PARTIALLY_FILLED
PENDING_CANCEL OrderModifyRequested -> PENDING_CANCEL
PENDING_CANCEL OrderModified -> PENDING_CANCEL
PENDING_CANCEL OrderModifyRejected -> PENDING_CANCEL
PENDING_CANCEL OrderExpired -> EXPIRED
PENDING_MODIFY OrderPartiallyFilled -> PENDING_MODIFY
PENDING_MODIFY OrderFilled -> FILLED
PENDING_MODIFY OrderModifyRequested -> PENDING_MODIFY
PENDING_MODIFY OrderModified -> ACCEPTED|PARTIALLY_FILLED
PENDING_MODIFY OrderModifyRejected -> ACCEPTED|PARTIALLY_FILLED
PENDING_MODIFY OrderCancelRequested -> PENDING_CANCEL
PENDING_MODIFY OrderCanceled -> CANCELED
PENDING_MODIFY OrderCancelRejected -> PENDING_MODIFY
PENDING_MODIFY OrderExpired -> EXPIRED
`;

const allowed = new Map<string, { withoutFills: string; withFills: string }>();
for (const line of ALLOWED.trim().split('\n')) {
  const [state, event, , next] = line.split(' ');
  const [withoutFills, withFills = withoutFills] = next!.split('|');
  allowed.set(`${state} ${event}`, { withoutFills: withoutFills!, withFills: withFills! });
}

const crossProduct: Array<[OrderState, OrderEventType]> = ORDER_STATES.flatMap((s) =>
  ORDER_EVENT_TYPES.map((e): [OrderState, OrderEventType] => [s, e]),
);

describe('transitionOrder', () => {
  it('covers 11 states × 13 event types', () => {
    expect(ORDER_STATES).toHaveLength(11);
    expect(ORDER_EVENT_TYPES).toHaveLength(13);
    expect(crossProduct).toHaveLength(143);
  });

  const allowedPairs = crossProduct.filter(([s, e]) => allowed.has(`${s} ${e}`));
  const forbiddenPairs = crossProduct.filter(([s, e]) => !allowed.has(`${s} ${e}`));

  it('has exactly the listed transitions in its table', () => {
    const tableRows = ORDER_STATES.flatMap((s) => Object.keys(ORDER_TRANSITIONS[s]).map((e) => `${s} ${e}`));
    expect(tableRows.sort()).toEqual([...allowed.keys()].sort());
  });

  it.each(allowedPairs)('moves %s on %s to the listed state', (state, event) => {
    const expected = allowed.get(`${state} ${event}`)!;
    expect(transitionOrder(state, event)).toBe(expected.withoutFills);
    expect(transitionOrder(state, event, { hasFills: true })).toBe(expected.withFills);
    expect(canTransition(state, event)).toBe(true);
  });

  it.each(forbiddenPairs)('throws IllegalTransitionError naming %s and %s', (state, event) => {
    let caught: unknown;
    try {
      transitionOrder(state, event);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(IllegalTransitionError);
    const error = caught as IllegalTransitionError;
    expect(error.code).toBe('illegal-transition');
    expect(error.state).toBe(state);
    expect(error.event).toBe(event);
    expect(error.message).toContain(state);
    expect(error.message).toContain(event);
    expect(canTransition(state, event)).toBe(false);
  });
});

describe('transitionOrder while another change is pending', () => {
  // the answer of one change leaves the order pending while another change of it is unanswered
  it.each([
    ['PENDING_CANCEL', 'OrderCancelRejected', 'PENDING_CANCEL'],
    ['PENDING_CANCEL', 'OrderCancelRejected', 'PENDING_MODIFY'],
    ['PENDING_MODIFY', 'OrderModified', 'PENDING_MODIFY'],
    ['PENDING_MODIFY', 'OrderModifyRejected', 'PENDING_MODIFY'],
  ] as const)('%s on %s with %s still pending stays %s', (state, event, stillPending) => {
    expect(transitionOrder(state, event, { stillPending })).toBe(stillPending);
    expect(transitionOrder(state, event, { hasFills: true, stillPending })).toBe(stillPending);
  });

  it('ends the order whatever is still pending', () => {
    for (const stillPending of ['PENDING_CANCEL', 'PENDING_MODIFY'] as const) {
      expect(transitionOrder('PENDING_CANCEL', 'OrderCanceled', { stillPending })).toBe('CANCELED');
      expect(transitionOrder('PENDING_MODIFY', 'OrderFilled', { stillPending })).toBe('FILLED');
    }
  });
});

describe('isTerminalOrderState', () => {
  it.each(ORDER_STATES.map((s) => [s] as const))(
    '%s is terminal exactly when it allows no event',
    (state) => {
      const anyAllowed = ORDER_EVENT_TYPES.some((e) => allowed.has(`${state} ${e}`));
      expect(isTerminalOrderState(state)).toBe(!anyAllowed);
    },
  );

  it('names DENIED, REJECTED, FILLED, CANCELED and EXPIRED as terminal', () => {
    expect(ORDER_STATES.filter(isTerminalOrderState).sort()).toEqual(
      ['CANCELED', 'DENIED', 'EXPIRED', 'FILLED', 'REJECTED'].sort(),
    );
  });
});

describe('isOpenOrderState', () => {
  it.each([
    ['INITIALIZED', false],
    ['SUBMITTED', true],
    ['ACCEPTED', true],
    ['PARTIALLY_FILLED', true],
    ['PENDING_CANCEL', true],
    ['PENDING_MODIFY', true],
    ['FILLED', false],
    ['CANCELED', false],
  ] as const)('%s is %s', (state, expected) => {
    expect(isOpenOrderState(state)).toBe(expected);
  });
});

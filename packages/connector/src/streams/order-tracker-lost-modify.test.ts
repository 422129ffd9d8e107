import { Decimal, type OrderEvent, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '../schemas/orders.js';
import { orderRecord } from './order-record.test-helper.js';
import { externalClientOrderId, OrderTracker } from './order-tracker.js';

const HOLD_MS = 1000;
/** The records' `orderedAt` (10:00 KST): the modify was sent then. */
const SENT_AT = Date.parse('2026-11-23T10:00:00+09:00');

/** Type, client order id and, for a modify, `replacement<-original price quantity`. */
function summary(events: readonly OrderEvent[]): string[] {
  return events.map((e) =>
    e.type === 'OrderModified'
      ? `${e.type} ${e.clientOrderId} ${e.brokerOrderId}<-${e.previousBrokerOrderId} ${e.price?.toFixed()} ${e.quantity?.toFixed()}`
      : `${e.type} ${e.clientOrderId}`,
  );
}

/** The original `O` (a buy of 5 at 100), and `R`, the buy of 2 at 110 its modify made. */
const original = (status: string): OrderRecord => orderRecord('O', { status });
const replacement: OrderRecord = {
  ...orderRecord('R', { status: 'PENDING', quantity: '2' }),
  price: new Decimal(110),
};

/** A tracker that knows `O`, listed `R` while the modify was in flight, then heard its answer was lost. */
function lostWhileHeld(): OrderTracker {
  const t = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'), { holdMs: HOLD_MS });
  t.expectCreated('O', 'mine');
  t.observe(original('PENDING'));
  expect(t.holdUnknown(replacement, [7], 0)).toBe(true);
  const request = { orderType: 'LIMIT' as const, price: new Decimal(110), quantity: new Decimal(2) };
  const order = original('REPLACED');
  t.expectUnanswered(
    { type: 'modify-unanswered', originalOrderId: 'O', request, sentAtMs: SENT_AT, order },
    0,
  );
  return t;
}

describe('OrderTracker and a modify whose answer was lost', () => {
  it('keeps holding an order with its terms once the modify ended (told during a poll), then links it', () => {
    const t = lostWhileHeld();
    // the modify is no longer in flight: before, the order was released as placed elsewhere here
    expect(t.holdUnknown(replacement, [], 0)).toBe(true);
    expect(t.holdReplaced(original('REPLACED'), [], 0)).toBe(true);
    t.linkUnanswered([replacement]);
    expect(t.heldOrderIds()).toEqual([]);
    expect(t.holdUnknown(replacement, [], 0)).toBe(false);
    expect(t.holdReplaced(original('REPLACED'), [], 0)).toBe(false);
    const events = [...t.observe(original('REPLACED'), replacement), ...t.observe(replacement)];
    expect(summary(events)).toEqual(['OrderModified mine R<-O 110 2']);
    expect(t.sizes().held).toBe(0);
  });

  it('takes the order for one placed elsewhere once the replacement was looked for holdMs', () => {
    const t = lostWhileHeld();
    expect(t.holdUnknown(replacement, [], HOLD_MS)).toBe(false);
    expect(t.holdReplaced(original('REPLACED'), [], HOLD_MS)).toBe(false);
    expect(summary(t.observe(replacement))).toEqual([`OrderAccepted ${externalClientOrderId('R')}`]);
  });
});

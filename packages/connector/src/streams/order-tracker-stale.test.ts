/**
 * A report older than one already taken in (the spec says nothing of the order in which the
 * broker's reads are answered: a detail read served from a lagging replica, a listing answered
 * after a newer detail read) never lowers an order's known filled quantity nor takes an ended order
 * back: before, it was taken for the newest, and the next report emitted the same fill (or end)
 * twice. Unit level: the simulator always serves its latest state, so it cannot serve such a read.
 */
import { type OrderEvent, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { orderRecord } from './order-record.test-helper.js';
import { OrderTracker } from './order-tracker.js';

function summary(events: readonly OrderEvent[]): string[] {
  return events.map((e) =>
    e.type === 'OrderPartiallyFilled' || e.type === 'OrderFilled'
      ? `${e.type} ${e.fill.quantity.toFixed()} cum ${e.fill.cumulativeQuantity.toFixed()}`
      : e.type,
  );
}

describe('OrderTracker with a report older than the last one', () => {
  it.each([
    {
      label: 'a smaller filled quantity after a partial fill: the fill is emitted once',
      reports: [
        orderRecord('A', { status: 'PARTIAL_FILLED', filled: '3' }),
        orderRecord('A', { status: 'PARTIAL_FILLED', filled: '1' }),
        orderRecord('A', { status: 'PARTIAL_FILLED', filled: '3' }),
        orderRecord('A', { status: 'FILLED', filled: '5' }),
      ],
      // before: [], ['OrderPartiallyFilled 2 cum 3'], ...
      expected: [['OrderAccepted', 'OrderPartiallyFilled 3 cum 3'], [], [], ['OrderFilled 2 cum 5']],
    },
    {
      label: 'a working report after the order filled: no second fill, no second end',
      reports: [
        orderRecord('A', { status: 'FILLED', filled: '5' }),
        orderRecord('A', { status: 'PARTIAL_FILLED', filled: '3' }),
        orderRecord('A', { status: 'FILLED', filled: '5' }),
      ],
      expected: [['OrderAccepted', 'OrderFilled 5 cum 5'], [], []],
    },
    {
      label: 'a working report after a cancel with nothing filled: the order stays canceled once',
      reports: [
        orderRecord('A', { status: 'PENDING' }),
        orderRecord('A', { status: 'CANCELED' }),
        orderRecord('A', { status: 'PENDING' }),
        orderRecord('A', { status: 'CANCELED' }),
      ],
      expected: [['OrderAccepted'], ['OrderCanceled'], [], []],
    },
  ])('$label', ({ reports, expected }) => {
    const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
    tracker.expectCreated('A', 'mine');
    expect(reports.map((r) => summary(tracker.observe(r)))).toEqual(expected);
  });

  it('does not read an ended order again after an older report of it', () => {
    const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
    tracker.expectCreated('A', 'mine');
    tracker.observe(orderRecord('A', { status: 'FILLED', filled: '5' }));
    tracker.observe(orderRecord('A', { status: 'PARTIAL_FILLED', filled: '3' }));
    expect(tracker.liveOrderIds()).toEqual([]);
  });
});

import { type OrderEvent, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '../schemas/orders.js';
import { orderRecord } from './order-record.test-helper.js';
import { DEFAULT_ENDED_ORDER_RETAIN_MS, OrderTracker } from './order-tracker.js';

/** An order report: status, quantity, filled quantity and filled amount (commission 0.01 %). */
function report(
  orderId: string,
  status: string,
  quantity: string,
  filled = '0',
  amount: string | null = null,
): OrderRecord {
  return orderRecord(orderId, { status, quantity, filled, filledAmount: amount, commissionRate: '0.0001' });
}

/** Compact view of events: type, and for fills quantity@price. */
function summary(events: readonly OrderEvent[]): string[] {
  return events.map((e) => {
    if (e.type === 'OrderPartiallyFilled' || e.type === 'OrderFilled') {
      return `${e.type} ${e.fill.quantity.toFixed()}@${e.fill.price.toFixed()} cum ${e.fill.cumulativeQuantity.toFixed()}`;
    }
    if (e.type === 'OrderModified') return `${e.type} ${e.previousBrokerOrderId}->${e.brokerOrderId}`;
    return e.type;
  });
}

describe('OrderTracker', () => {
  describe('.observe', () => {
    it.each([
      {
        label: 'accepted, then two fills with prices from the change of the filled amount',
        reports: [
          report('A', 'PENDING', '5'),
          report('A', 'PARTIAL_FILLED', '5', '3', '300'),
          report('A', 'FILLED', '5', '5', '505'),
        ],
        expected: [['OrderAccepted'], ['OrderPartiallyFilled 3@100 cum 3'], ['OrderFilled 2@102.5 cum 5']],
      },
      {
        label: 'an order filled entirely between two polls',
        reports: [report('A', 'FILLED', '5', '5', '500')],
        expected: [['OrderAccepted', 'OrderFilled 5@100 cum 5']],
      },
      {
        label: 'the same report twice emits nothing the second time',
        reports: [
          report('A', 'PARTIAL_FILLED', '5', '1', '100'),
          report('A', 'PARTIAL_FILLED', '5', '1', '100'),
        ],
        expected: [['OrderAccepted', 'OrderPartiallyFilled 1@100 cum 1'], []],
      },
      {
        label: 'a partial fill then a cancel keeping the filled part',
        reports: [report('A', 'PENDING', '5'), report('A', 'CANCELED', '5', '2', '198')],
        expected: [['OrderAccepted'], ['OrderPartiallyFilled 2@99 cum 2', 'OrderCanceled']],
      },
      {
        label: 'a rejection',
        reports: [report('A', 'PENDING', '5'), report('A', 'REJECTED', '5')],
        expected: [['OrderAccepted'], ['OrderRejected']],
      },
    ])('$label', ({ reports, expected }) => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.expectCreated('A', 'my-order-1');
      const events = reports.map((r) => tracker.observe(r));
      expect(events.map(summary)).toEqual(expected);
      for (const e of events.flat()) expect(e.clientOrderId).toBe('my-order-1');
    });

    it('follows a modify: the original REPLACED, the replacement continuing the cumulative quantity', () => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.expectCreated('A', 'chain');
      tracker.observe(report('A', 'PARTIAL_FILLED', '5', '2', '200'));
      tracker.expectLinked('B', 'A', 'replacement');
      const replaced = tracker.observe(report('A', 'REPLACED', '5', '2', '200'));
      const replacement = tracker.observe(report('B', 'FILLED', '3', '3', '330'));
      expect(summary(replaced)).toEqual(['OrderModified A->B']);
      expect(summary(replacement)).toEqual(['OrderFilled 3@110 cum 5']);
      expect(replacement[0]!.clientOrderId).toBe('chain');
    });

    it('reports a cancel the broker rejected on the cancel order', () => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.expectCreated('A', 'c1');
      tracker.observe(report('A', 'PENDING', '5'));
      tracker.expectLinked('X', 'A', 'cancel');
      expect(summary(tracker.observe(report('X', 'CANCEL_REJECTED', '5')))).toEqual(['OrderCancelRejected']);
    });
  });

  describe('.chainOf', () => {
    it('reads a chain modified twice between two polls oldest first, so its fills add up in order', () => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.expectCreated('A', 'chain');
      tracker.expectLinked('B', 'A', 'replacement');
      tracker.expectLinked('C', 'B', 'replacement');
      // none read yet: from wherever the poll begins, the whole chain, A first
      for (const id of ['A', 'B', 'C']) expect(tracker.chainOf(id)).toEqual(['A', 'B', 'C']);
      const reports = [
        report('A', 'REPLACED', '5', '2', '200'),
        report('B', 'REPLACED', '3', '1', '110'),
        report('C', 'PARTIAL_FILLED', '2', '1', '120'),
      ];
      const events = reports.flatMap((r, i) => tracker.observe(r, reports[i + 1] ?? null));
      expect(summary(events)).toEqual([
        'OrderAccepted',
        'OrderPartiallyFilled 2@100 cum 2',
        'OrderModified A->B',
        'OrderPartiallyFilled 1@110 cum 3',
        'OrderModified B->C',
        'OrderPartiallyFilled 1@120 cum 4',
      ]);
      // A and B ended: C is read alone
      expect(tracker.chainOf('C')).toEqual(['C']);
    });

    it('stops at an original that ended and goes on through replacements never read', () => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.expectCreated('A', 'chain');
      tracker.observe(report('A', 'PENDING', '5'));
      tracker.expectLinked('B', 'A', 'replacement');
      tracker.observe(report('A', 'REPLACED', '5'), report('B', 'PENDING', '5'));
      tracker.expectLinked('C', 'B', 'replacement');
      tracker.expectLinked('D', 'C', 'replacement');
      expect(tracker.chainOf('B')).toEqual(['B', 'C', 'D']);
      expect(tracker.chainOf('D')).toEqual(['B', 'C', 'D']);
      tracker.observe(report('B', 'PENDING', '5'));
      // B works (read): C, never read, comes with it; D too
      expect(tracker.chainOf('B')).toEqual(['B', 'C', 'D']);
      tracker.observe(report('C', 'PENDING', '5'));
      expect(tracker.chainOf('B')).toEqual(['B']);
    });
  });

  describe('.baseline', () => {
    it('emits nothing for the past of orders open at start, then their later changes', () => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.baseline(report('OLD', 'PARTIAL_FILLED', '4', '1', '100'));
      expect(summary(tracker.observe(report('OLD', 'FILLED', '4', '4', '430')))).toEqual([
        'OrderFilled 3@110 cum 4',
      ]);
    });
  });

  describe('.changed', () => {
    it.each([
      { label: 'an unknown order', next: report('N', 'PENDING', '5'), expected: true },
      { label: 'the same row', next: report('A', 'PENDING', '5'), expected: false },
      {
        label: 'a new filled quantity',
        next: report('A', 'PARTIAL_FILLED', '5', '1', '100'),
        expected: true,
      },
      { label: 'a new status', next: report('A', 'PENDING_CANCEL', '5'), expected: true },
      { label: 'a new quantity', next: report('A', 'PENDING', '4'), expected: true },
    ])('is $expected for $label', ({ next, expected }) => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.observe(report('A', 'PENDING', '5'));
      expect(tracker.changed(next)).toBe(expected);
    });
  });

  describe('.liveOrderIds', () => {
    it('lists orders to read until they reach a final state, and prune forgets them a day later', () => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.expectCreated('A', null);
      tracker.expectCreated('B', null);
      expect(tracker.liveOrderIds()).toEqual(['A', 'B']);
      tracker.observe(report('A', 'FILLED', '1', '1', '100'));
      expect(tracker.liveOrderIds()).toEqual(['B']);
      const seenEnded = Date.parse('2026-11-23T10:00:05+09:00');
      tracker.prune(seenEnded);
      tracker.prune(seenEnded + DEFAULT_ENDED_ORDER_RETAIN_MS - 1);
      // a late report of it within the day is not news
      expect(tracker.changed(report('A', 'PENDING', '1'))).toBe(true);
      expect(tracker.observe(report('A', 'FILLED', '1', '1', '100'))).toEqual([]);
      tracker.prune(seenEnded + DEFAULT_ENDED_ORDER_RETAIN_MS);
      expect(tracker.has('A')).toBe(false);
      expect(tracker.has('B')).toBe(true);
    });

    it("reads a cancel's record while its original works, and forgets an unread one with its original", () => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.expectCreated('A', 'c1');
      tracker.observe(report('A', 'PENDING', '5'));
      tracker.expectLinked('X', 'A', 'cancel');
      // the cancel's outcome is not known yet: its record may say the broker rejected it
      expect(tracker.liveOrderIds()).toEqual(['A', 'X']);
      expect(summary(tracker.observe(report('A', 'CANCELED', '5')))).toEqual(['OrderCanceled']);
      expect(tracker.liveOrderIds()).toEqual([]);
      const seenEnded = Date.parse('2026-11-23T10:00:05+09:00');
      tracker.prune(seenEnded);
      expect(tracker.has('X')).toBe(true);
      tracker.prune(seenEnded + DEFAULT_ENDED_ORDER_RETAIN_MS);
      expect(tracker.sizes().orders).toBe(0);
    });
  });

  describe('.notFound', () => {
    it('forgets a cancel quietly and an order it tracked as dropped, naming its client id', () => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.expectCreated('A', 'c1');
      tracker.observe(report('A', 'PENDING', '5'));
      tracker.expectLinked('X', 'A', 'cancel');
      expect(tracker.notFound('X')).toEqual({ kind: 'cancel' });
      expect(tracker.liveOrderIds()).toEqual(['A']);
      expect(tracker.has('X')).toBe(false);
      expect(tracker.notFound('A')).toEqual({ kind: 'dropped', clientOrderId: 'c1' });
      expect(tracker.liveOrderIds()).toEqual([]);
      expect(tracker.notFound('A')).toEqual({ kind: 'unknown' });
    });

    it('drops an order never read only at its third 404 in a row (its record may lag its create)', () => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.expectCreated('A', 'c1');
      for (let i = 0; i < 2; i++) {
        expect(tracker.notFound('A')).toEqual({ kind: 'unknown' });
        tracker.readFailed('A');
      }
      expect(tracker.notFound('A')).toEqual({ kind: 'dropped', clientOrderId: 'c1' });
      expect(tracker.has('A')).toBe(false);
    });
  });

  describe('.readDue', () => {
    it('backs off an order whose reads fail: skips 0, 1, 3, 7 polls, and reads every poll again after a report', () => {
      const tracker = new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'));
      tracker.expectCreated('A', 'c1');
      const readsIn = (polls: number): number => {
        let reads = 0;
        for (let i = 0; i < polls; i++) {
          if (!tracker.readDue('A')) continue;
          reads++;
          tracker.readFailed('A');
        }
        return reads;
      };
      // polls 1, 2, 4, 8 and 16 of 16
      expect(readsIn(16)).toBe(5);
      tracker.observe(report('A', 'PENDING', '5'));
      expect(tracker.readDue('A')).toBe(true);
      expect(tracker.readDue('A')).toBe(true);
    });
  });
});

import { type OrderEvent, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '../schemas/orders.js';
import { orderRecord } from './order-record.test-helper.js';
import { externalClientOrderId, OrderTracker } from './order-tracker.js';

/** A KR buy order of 5 at 100: status and filled quantity (each share at 100). */
function report(orderId: string, status: string, filled = '0'): OrderRecord {
  return orderRecord(orderId, { status, filled });
}

/** Type, client order id and, for fills, the fill's own quantity. */
function summary(events: readonly OrderEvent[]): string[] {
  return events.map((e) =>
    e.type === 'OrderPartiallyFilled' || e.type === 'OrderFilled'
      ? `${e.type} ${e.fill.quantity.toFixed()} ${e.clientOrderId}`
      : `${e.type} ${e.clientOrderId}`,
  );
}

const HOLD_MS = 1000;
const EXT_A = externalClientOrderId('A');

function tracker(): OrderTracker {
  return new OrderTracker(new VirtualClock('2026-11-23T10:00:00+09:00'), { holdMs: HOLD_MS });
}

describe('OrderTracker', () => {
  describe('.holdUnknown', () => {
    it('does not hold an unknown order while no command is in flight: it was placed elsewhere', () => {
      const t = tracker();
      expect(t.holdUnknown(report('A', 'PENDING'), [], 0)).toBe(false);
      expect(summary(t.observe(report('A', 'PENDING')))).toEqual([`OrderAccepted ${EXT_A}`]);
    });

    it("holds an order listed before its create answered, then gives every event the caller's id, each fill once", () => {
      const t = tracker();
      const seen = report('A', 'PARTIAL_FILLED', '3');
      expect(t.holdUnknown(seen, [7], 0)).toBe(true);
      expect(t.heldOrderIds()).toEqual(['A']);
      expect(t.holdUnknown(seen, [7], 400)).toBe(true);
      t.expectCreated('A', 'mine');
      expect(t.heldOrderIds()).toEqual([]);
      expect(t.holdUnknown(seen, [], 500)).toBe(false);
      expect(summary(t.observe(seen))).toEqual(['OrderAccepted mine', 'OrderPartiallyFilled 3 mine']);
      expect(summary(t.observe(report('A', 'FILLED', '5')))).toEqual(['OrderFilled 2 mine']);
    });

    it.each([
      {
        label: 'once every command in flight at first sight ended without claiming it',
        inFlightLater: [8],
        atMs: 100,
      },
      { label: 'after holdMs while a command never answers', inFlightLater: [7], atMs: HOLD_MS },
    ])('takes it for an order placed elsewhere $label', ({ inFlightLater, atMs }) => {
      const t = tracker();
      const seen = report('A', 'PARTIAL_FILLED', '1');
      expect(t.holdUnknown(seen, [7], 0)).toBe(true);
      expect(t.holdUnknown(seen, [7], atMs - 1)).toBe(true);
      expect(t.holdUnknown(seen, inFlightLater, atMs)).toBe(false);
      expect(t.heldOrderIds()).toEqual([]);
      expect(summary(t.observe(seen))).toEqual([`OrderAccepted ${EXT_A}`, `OrderPartiallyFilled 1 ${EXT_A}`]);
      // A create answering late names the order: its events keep the id they started with.
      t.expectCreated('A', 'late');
      expect(summary(t.observe(report('A', 'FILLED', '5')))).toEqual([`OrderFilled 4 ${EXT_A}`]);
    });

    it('keeps an order listed by the first poll as baseline when no command claimed it', () => {
      const t = tracker();
      expect(t.holdUnknown(report('A', 'PARTIAL_FILLED', '1'), [7], 0, true)).toBe(true);
      const now = report('A', 'PARTIAL_FILLED', '2');
      expect(t.holdUnknown(now, [], 100)).toBe(false);
      // Only what changed since it was first seen: the fill of 1 made meanwhile, no acceptance.
      expect(t.changed(now)).toBe(true);
      expect(summary(t.observe(now))).toEqual([`OrderPartiallyFilled 1 ${EXT_A}`]);
    });

    it('decides a held order that left the list, which is then read as a live order', () => {
      const t = tracker();
      expect(t.holdUnknown(report('A', 'PENDING'), [7], 0)).toBe(true);
      expect(t.holdUnknown('A', [7], 10)).toBe(true);
      expect(t.holdUnknown('A', [], 20)).toBe(false);
      expect(t.liveOrderIds()).toEqual(['A']);
      expect(summary(t.observe(report('A', 'FILLED', '5')))).toEqual([
        `OrderAccepted ${EXT_A}`,
        `OrderFilled 5 ${EXT_A}`,
      ]);
    });

    it('gives a replacement listed before its modify answered the original order id', () => {
      const t = tracker();
      t.expectCreated('A', 'chain');
      t.observe(report('A', 'PARTIAL_FILLED', '2'));
      expect(t.holdUnknown(report('B', 'PENDING'), [9], 0)).toBe(true);
      t.expectLinked('B', 'A', 'replacement');
      expect(t.holdUnknown(report('B', 'PENDING'), [], 10)).toBe(false);
      expect(summary(t.observe(report('B', 'PARTIAL_FILLED', '1')))).toEqual([
        'OrderPartiallyFilled 1 chain',
      ]);
    });
  });

  describe('.holdReplaced', () => {
    it('holds a REPLACED report until the modify names the replacement, which OrderModified then names', () => {
      const t = tracker();
      t.expectCreated('A', 'chain');
      t.observe(report('A', 'PENDING'));
      expect(t.holdReplaced(report('A', 'REPLACED'), [9], 0)).toBe(true);
      expect(t.sizes().held).toBe(1);
      t.expectLinked('B', 'A', 'replacement');
      t.observe(report('B', 'PENDING'));
      expect(t.holdReplaced(report('A', 'REPLACED'), [9], 10)).toBe(false);
      expect(t.sizes().held).toBe(0);
      const [modified] = t.observe(report('A', 'REPLACED'));
      expect(modified).toMatchObject({
        type: 'OrderModified',
        brokerOrderId: 'B',
        previousBrokerOrderId: 'A',
      });
    });

    it.each([
      { label: 'no command is in flight', inFlightLater: [], atMs: 0 },
      { label: 'the commands in flight at first sight ended unanswered', inFlightLater: [10], atMs: 100 },
      { label: 'holdMs passed', inFlightLater: [9], atMs: HOLD_MS },
    ])('takes a REPLACED report in when $label', ({ inFlightLater, atMs }) => {
      const t = tracker();
      t.expectCreated('A', 'chain');
      t.observe(report('A', 'PENDING'));
      if (atMs > 0) expect(t.holdReplaced(report('A', 'REPLACED'), [9], 0)).toBe(true);
      expect(t.holdReplaced(report('A', 'REPLACED'), inFlightLater, atMs)).toBe(false);
      expect(t.sizes().held).toBe(0);
    });
  });
});

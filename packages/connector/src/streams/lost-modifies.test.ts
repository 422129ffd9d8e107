import { Decimal } from '@hoga/core';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { ModifyOrderRequest, OrderRecord } from '../schemas/orders.js';
import { LOST_MODIFY_SKEW_MS, LostModifies } from './lost-modifies.js';
import { orderRecord } from './order-record.test-helper.js';

const HOLD_MS = 1000;
/** When the modify was sent: the broker's `orderedAt` of the records (10:00 KST). */
const SENT_AT = DateTime.fromISO('2026-11-23T10:00:00+09:00').toMillis();

/** A KR buy of 5 at 100 (`orderRecord`), `filled` of it filled, at another price or time if given. */
function order(
  orderId: string,
  status: string,
  change: { filled?: string; quantity?: string; price?: string; orderedAtMs?: number } = {},
): OrderRecord {
  const base = orderRecord(orderId, {
    status,
    ...(change.filled === undefined ? {} : { filled: change.filled }),
    ...(change.quantity === undefined ? {} : { quantity: change.quantity }),
  });
  return {
    ...base,
    ...(change.price === undefined ? {} : { price: new Decimal(change.price) }),
    ...(change.orderedAtMs === undefined ? {} : { orderedAt: DateTime.fromMillis(change.orderedAtMs) }),
  };
}

/** Looks for the replacement of `O` (a buy of 5 at 100, `filled` filled) modified by `request`. */
function lostOf(request: ModifyOrderRequest, filled = '0'): LostModifies {
  const lost = new LostModifies(HOLD_MS);
  const original = order('O', 'REPLACED', { filled });
  lost.add(
    { type: 'modify-unanswered', originalOrderId: 'O', request, sentAtMs: SENT_AT, order: original },
    0,
  );
  return lost;
}

const KR_MODIFY: ModifyOrderRequest = {
  orderType: 'LIMIT',
  price: new Decimal(110),
  quantity: new Decimal(2),
};

describe('LostModifies', () => {
  it("finds the one order with the modify's terms, placed since it was sent", () => {
    const lost = lostOf(KR_MODIFY);
    const candidates = [
      order('early', 'PENDING', {
        price: '110',
        quantity: '2',
        orderedAtMs: SENT_AT - LOST_MODIFY_SKEW_MS - 1,
      }),
      order('other-price', 'PENDING', { price: '105', quantity: '2' }),
      order('other-quantity', 'PENDING', { price: '110', quantity: '3' }),
      order('R', 'FILLED', { price: '110', quantity: '2', filled: '2' }),
    ];
    expect(lost.found(candidates)).toEqual([['R', 'O']]);
  });

  it('takes none when two orders have the terms (one may be placed elsewhere)', () => {
    const lost = lostOf(KR_MODIFY);
    const twin = (id: string) => order(id, 'PENDING', { price: '110', quantity: '2' });
    expect(lost.found([twin('R1'), twin('R2')])).toEqual([]);
  });

  it('takes none for an order that fits two lost modifies', () => {
    const lost = lostOf(KR_MODIFY);
    const other = order('O2', 'REPLACED');
    lost.add(
      {
        type: 'modify-unanswered',
        originalOrderId: 'O2',
        request: KR_MODIFY,
        sentAtMs: SENT_AT,
        order: other,
      },
      0,
    );
    expect(lost.found([order('R', 'PENDING', { price: '110', quantity: '2' })])).toEqual([]);
  });

  it("expects a modify without quantity (US) to keep the original's unfilled quantity", () => {
    const lost = lostOf({ orderType: 'LIMIT', price: new Decimal(110) }, '2');
    const at110 = (id: string, quantity: string) => order(id, 'PENDING', { price: '110', quantity });
    expect(lost.found([at110('whole', '5'), at110('R', '3')])).toEqual([['R', 'O']]);
  });

  it('looks for at most holdMs', () => {
    const lost = lostOf(KR_MODIFY);
    expect(lost.awaited('O', HOLD_MS - 1)).toBe(true);
    lost.expire(HOLD_MS);
    expect([lost.awaited('O', HOLD_MS), lost.size]).toEqual([false, 0]);
  });
});

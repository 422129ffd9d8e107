/**
 * The risk book's status of an order with a change pending while another is requested or answered:
 * it stays pending until the pending change's own answer. Before, the refusal of a second cancel
 * (the gate's own `already-processing`, unsent, or the broker's) made the order `PENDING` again
 * though the first cancel was still on its way, and the gate let a third cancel through.
 */
import {
  clientOrderId,
  createOrderIntent,
  Decimal,
  instrumentOf,
  type OrderEvent,
  strategyId,
} from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { RiskBook } from './risk-book.js';
import { T0 } from './risk-fixture.test-helper.js';

const id = clientOrderId('o1');
const base = { clientOrderId: id, strategyId: strategyId('s1'), tsEvent: T0, tsInit: T0 };
let seq = 0;

/** A book with one resting limit buy of 2 005930 at 60,000, accepted. */
function bookWithOrder(): RiskBook {
  const book = new RiskBook();
  const intent = createOrderIntent({
    clientOrderId: id,
    strategyId: strategyId('s1'),
    instrument: instrumentOf('005930'),
    side: 'BUY',
    sizing: 'QUANTITY',
    orderType: 'LIMIT',
    quantity: new Decimal(2),
    price: new Decimal(60_000),
  });
  book.onEvent({ type: 'OrderSubmitted', eventId: 's', ...base, intent });
  book.onEvent({ type: 'OrderAccepted', eventId: 'a', ...base, brokerOrderId: 'b1' as never });
  return book;
}

/** Applies events given by their type (a refusal: `type sent` or `type unsent`). */
function apply(book: RiskBook, ...events: string[]): void {
  for (const e of events) {
    const [type, sent] = e.split(' ') as [OrderEvent['type'], string | undefined];
    seq += 1;
    const event = {
      type,
      eventId: `e${seq}`,
      ...base,
      brokerOrderId: 'b1',
      ...(sent === undefined ? {} : { code: 'already-processing', reason: 'r', sent: sent === 'sent' }),
    } as unknown as OrderEvent;
    book.onEvent(event);
  }
}

describe('risk book: an order with a change pending', () => {
  it.each([
    // a second cancel refused unsent (by the gate) or by the broker: the first is still pending
    [['OrderCancelRequested', 'OrderCancelRejected unsent'], 'PENDING_CANCEL'],
    [['OrderCancelRequested', 'OrderCancelRequested', 'OrderCancelRejected sent'], 'PENDING_CANCEL'],
    // the first cancel's own refusal after the second's: working again
    [
      [
        'OrderCancelRequested',
        'OrderCancelRequested',
        'OrderCancelRejected sent',
        'OrderCancelRejected sent',
      ],
      'PENDING',
    ],
    // a modify requested or refused while a cancel is pending: the cancel still is
    [['OrderCancelRequested', 'OrderModifyRequested', 'OrderModifyRejected sent'], 'PENDING_CANCEL'],
    [['OrderCancelRequested', 'OrderModifyRejected unsent'], 'PENDING_CANCEL'],
    // a second modify: pending until both are answered
    [['OrderModifyRequested', 'OrderModifyRequested', 'OrderModified'], 'PENDING_REPLACE'],
    [
      ['OrderModifyRequested', 'OrderModifyRequested', 'OrderModified', 'OrderModifyRejected sent'],
      'PENDING',
    ],
    // a cancel refused while a modify is pending: the modify still is
    [['OrderModifyRequested', 'OrderCancelRejected unsent'], 'PENDING_REPLACE'],
    // one change, answered: working again (as before)
    [['OrderCancelRequested', 'OrderCancelRejected sent'], 'PENDING'],
  ])('%j leaves it %s', (events, status) => {
    const book = bookWithOrder();
    apply(book, ...events);
    expect(book.order(id)?.status).toBe(status);
    expect(book.openOrders()).toHaveLength(1);
  });

  it('ends the order CANCELED however many changes were pending', () => {
    const book = bookWithOrder();
    apply(book, 'OrderCancelRequested', 'OrderCancelRequested', 'OrderCanceled', 'OrderCancelRejected sent');
    expect(book.order(id)?.status).toBe('CANCELED');
    expect(book.openOrders()).toEqual([]);
  });
});

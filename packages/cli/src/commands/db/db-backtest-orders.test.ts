import type { OrderSummary } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import { backtestOrderOf } from './db-backtest-orders.js';

function summary(o: Partial<OrderSummary>): OrderSummary {
  return {
    clientOrderId: 'bt0123456789ab-1',
    strategyId: 's',
    symbol: '005930',
    side: 'BUY',
    orderType: 'LIMIT',
    price: '70000',
    quantity: '10',
    amount: null,
    last: 'OrderAccepted',
    events: [
      ['OrderSubmitted', 1_000],
      ['OrderAccepted', 1_000],
    ],
    fills: [],
    reason: null,
    ...o,
  };
}

describe(backtestOrderOf, () => {
  it('takes the state from the last event, the fills for the filled quantity and their average price', () => {
    const filled = backtestOrderOf(
      summary({
        last: 'OrderFilled',
        fills: [
          [2_000, '4', '70000', '42', '0'],
          [3_000, '6', '69900', '62', '0'],
        ],
      }),
    );
    expect([filled.state, filled.filledQuantity.toFixed(), filled.averageFillPrice?.toFixed()]).toEqual([
      'FILLED',
      '10',
      '69940',
    ]);
    expect(filled.createdAt).toBe(1_000);
    const denied = backtestOrderOf(
      summary({ last: 'OrderDenied', events: [['OrderDenied', 5]], reason: 'x: y' }),
    );
    expect([denied.state, denied.reason, denied.averageFillPrice]).toEqual(['DENIED', 'x: y', null]);
  });

  it('shows an order still open at the end of its run as it stood: accepted, partly filled or submitted', () => {
    expect(backtestOrderOf(summary({})).state).toBe('ACCEPTED');
    expect(backtestOrderOf(summary({ fills: [[2_000, '4', '70000', '42', '0']] })).state).toBe(
      'PARTIALLY_FILLED',
    );
    expect(backtestOrderOf(summary({ last: 'OrderSubmitted', events: [['OrderSubmitted', 1]] })).state).toBe(
      'SUBMITTED',
    );
    // a modify refused leaves the order as it was
    expect(backtestOrderOf(summary({ last: 'OrderModifyRejected' })).state).toBe('ACCEPTED');
  });
});

import { BrokerOrderStatus } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { endedOrderCode } from './order-manager-options.js';
import { NOT_FOUND_STATUS } from './order-manager-store.js';

describe('endedOrderCode: the code of a change found refused because its order ended', () => {
  it("is the broker's 409 code for a filled, canceled, rejected or replaced order (its error table)", () => {
    const ended = [
      BrokerOrderStatus.FILLED,
      BrokerOrderStatus.CANCELED,
      BrokerOrderStatus.REJECTED,
      BrokerOrderStatus.REPLACED,
    ];
    expect(ended.map(endedOrderCode)).toEqual([
      'already-filled',
      'already-canceled',
      'already-rejected',
      'already-modified',
    ]);
  });

  it('is order-closed for any other ended status, and for one the broker no longer has', () => {
    const others = [
      BrokerOrderStatus.CANCEL_REJECTED,
      BrokerOrderStatus.REPLACE_REJECTED,
      NOT_FOUND_STATUS,
      'SOMETHING_NEW',
      'constructor',
    ];
    expect(others.map(endedOrderCode)).toEqual(others.map(() => 'order-closed'));
  });
});

import { BrokerOrderStatus } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { endedOrderCode } from './order-manager-options.js';
import { NOT_FOUND_STATUS } from './order-manager-store.js';

describe('endedOrderCode: the code of a change found refused because its order ended', () => {
  it("is the broker's 409 code for a filled, canceled or rejected order (its error table)", () => {
    expect(
      [BrokerOrderStatus.FILLED, BrokerOrderStatus.CANCELED, BrokerOrderStatus.REJECTED].map(endedOrderCode),
    ).toEqual(['already-filled', 'already-canceled', 'already-rejected']);
  });

  it('is order-closed for any other ended status, and for one the broker no longer has', () => {
    const others = [
      BrokerOrderStatus.REPLACED,
      BrokerOrderStatus.CANCEL_REJECTED,
      BrokerOrderStatus.REPLACE_REJECTED,
      NOT_FOUND_STATUS,
      'SOMETHING_NEW',
      'constructor',
    ];
    expect(others.map(endedOrderCode)).toEqual(others.map(() => 'order-closed'));
  });
});

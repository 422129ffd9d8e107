import { describe, expect, it } from 'vitest';
import {
  BrokerOrderStatus,
  OPEN_BROKER_ORDER_STATUSES,
  TERMINAL_BROKER_ORDER_STATUSES,
} from './broker-order-status.js';

describe('BrokerOrderStatus', () => {
  const open = ['PENDING', 'PENDING_CANCEL', 'PENDING_REPLACE', 'PARTIAL_FILLED'];
  it.each(Object.values(BrokerOrderStatus))(
    'puts %s in exactly one of the OPEN and terminal groups',
    (status) => {
      expect(OPEN_BROKER_ORDER_STATUSES.has(status)).toBe(open.includes(status));
      expect(TERMINAL_BROKER_ORDER_STATUSES.has(status)).toBe(!open.includes(status));
    },
  );

  it('knows nothing of an unknown status', () => {
    expect(OPEN_BROKER_ORDER_STATUSES.has('SOMETHING_NEW')).toBe(false);
    expect(TERMINAL_BROKER_ORDER_STATUSES.has('SOMETHING_NEW')).toBe(false);
  });
});

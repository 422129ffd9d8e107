/**
 * Rows the `hoga db` tests store in a real database file before reading it with the commands.
 * Test code only.
 */
import { Decimal } from '@hoga/core';

/** An order intent as the store records it: a DAY limit buy of 10 × 005930 at 72,100 KRW. */
export function limitBuyIntent(
  clientOrderId: string,
  mode: 'live' | 'paper' = 'live',
  createdAt = 1_764_000_000_000,
) {
  return {
    clientOrderId,
    strategyId: 'sma',
    mode,
    symbol: '005930',
    market: 'KR' as const,
    currency: 'KRW' as const,
    side: 'BUY' as const,
    orderType: 'LIMIT' as const,
    timeInForce: 'DAY' as const,
    price: new Decimal('72100'),
    quantity: new Decimal('10'),
    amount: null,
    createdAt,
  };
}

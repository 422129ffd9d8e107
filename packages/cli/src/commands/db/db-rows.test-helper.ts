/**
 * Rows the `hoga db` tests store in a real database file before reading it with the commands.
 * Test code only.
 */
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';

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

/**
 * A writer on `file` holding a write transaction open: one order (`committed-1`) committed
 * before it, one `strategy_state` row (strategy `s`, key `open`) written inside it, not committed.
 * The caller commits (`COMMIT`) or lets {@link releaseWriter} roll back.
 */
export function writerHoldingTransaction(file: string): HogaDatabase {
  const writer = HogaDatabase.open(file);
  writer.orders.recordIntent(limitBuyIntent('committed-1'));
  writer.connection.exec('BEGIN IMMEDIATE');
  writer.connection
    .prepare("INSERT INTO strategy_state (strategy_id, key, value, updated_at) VALUES ('s', 'open', '1', 1)")
    .run();
  return writer;
}

/** Rolls back what `writer` still holds open, and closes it. */
export function releaseWriter(writer: HogaDatabase): void {
  if (writer.connection.inTransaction) writer.connection.exec('ROLLBACK');
  writer.close();
}

/**
 * Child process of `crash-recovery.int.test.ts`: writes numbered batches until killed. A batch is
 * an order intent committed durably (synchronous=FULL), then one normal transaction with its
 * journal entries, its fills and its FILLED state; after each batch the batch number is written to stdout (synchronously) — so every number printed is a
 * committed batch — and `begin <n>` before it starts, so a kill inside a batch can be recognised.
 *
 * Usage: tsx batch-writer.ts <file> <journal entries per batch> <fills per batch>
 */
import { writeSync } from 'node:fs';
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '../../src/hoga-database.js';
import { sampleOrder } from '../support.js';

const [file, journalText, fillsText] = process.argv.slice(2);
if (file === undefined || journalText === undefined || fillsText === undefined) {
  throw new Error('usage: batch-writer.ts <file> <journal entries per batch> <fills per batch>');
}
const JOURNAL_PER_BATCH = Number(journalText);
const FILLS_PER_BATCH = Number(fillsText);
const db = HogaDatabase.open(file);
let batch =
  (db.connection.prepare('SELECT coalesce(max(created_at), 0) FROM orders').pluck().get() as number) + 1;
writeSync(1, 'ready\n');
for (;;) {
  const n = batch;
  writeSync(1, `begin ${n}\n`);
  // the intent alone, durably (synchronous=FULL), as before an order request
  const order = db.orders.recordIntent(
    sampleOrder(`batch-${n}`, {
      strategyId: 'crash',
      mode: 'live',
      quantity: new Decimal(FILLS_PER_BATCH),
      createdAt: n,
    }),
  );
  // then its outcome in one normal (synchronous=NORMAL) transaction: journal, fills, state
  db.transaction(() => {
    db.journal.appendMany(
      Array.from({ length: JOURNAL_PER_BATCH }, (_, i) => ({
        type: 'Tick',
        tsEvent: n,
        tsInit: i,
        mode: 'live' as const,
        clientOrderId: `batch-${n}`,
        payload: { batch: n, i, price: new Decimal('72100.5') },
      })),
    );
    db.fills.recordMany(
      Array.from({ length: FILLS_PER_BATCH }, (_, i) => ({
        orderId: order.id,
        brokerOrderId: `B-${n}`,
        symbol: '005930',
        side: 'BUY' as const,
        quantity: new Decimal(1),
        price: new Decimal('72100'),
        commission: new Decimal('10.815'),
        commissionCurrency: 'KRW' as const,
        filledAt: n,
        cumulativeQuantity: new Decimal(i + 1),
      })),
    );
    db.orders.updateState(`batch-${n}`, {
      state: 'FILLED',
      updatedAt: n,
      filledQuantity: new Decimal(FILLS_PER_BATCH),
      averageFillPrice: new Decimal('72100'),
    });
  });
  writeSync(1, `${n}\n`);
  batch++;
}

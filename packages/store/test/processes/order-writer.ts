/**
 * Child process of `two-processes.int.test.ts`: writes order intents (each followed by its broker
 * id) and, between orders, takes the shared token lease to bump a counter and fetch the shared
 * token. Prints one JSON line when done.
 *
 * Usage: tsx order-writer.ts <file> <orders> <tokenKey>
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '../../src/hoga-database.js';
import { SqliteTokenCache } from '../../src/token/sqlite-token-cache.js';
import { sampleOrder } from '../support.js';
import { bumpUnderLease, getOrIssueToken } from './token-dance.js';

const [file, countText, tokenKey] = process.argv.slice(2);
if (file === undefined || countText === undefined || tokenKey === undefined) {
  throw new Error('usage: order-writer.ts <file> <orders> <tokenKey>');
}
const db = HogaDatabase.open(file);
const tokens = new SqliteTokenCache(db, { pollIntervalMs: 2 });
const seenTokens = new Set<string>();
const count = Number(countText);
for (let k = 0; k < count; k++) {
  const clientOrderId = `w-${k}`;
  db.orders.recordIntent(
    sampleOrder(clientOrderId, {
      strategyId: 'writer',
      quantity: new Decimal(k + 1),
      createdAt: db.clock.nowMs(),
    }),
  );
  db.orders.linkBrokerOrderId(clientOrderId, `B-${k}`, 'create', db.clock.nowMs());
  if (k % 5 === 0) {
    await bumpUnderLease(db, tokens, tokenKey);
    seenTokens.add(await getOrIssueToken(db, tokens, tokenKey, 'writer'));
  }
  await sleep(0);
}
db.close();
process.stdout.write(`${JSON.stringify({ orders: count, tokens: [...seenTokens] })}\n`);

/**
 * What a connector does with the shared token cache, reduced to the store's part: under the lease,
 * reuse the cached token or issue (here: invent) a new one. Also a lease-guarded counter that loses
 * increments if two processes ever hold the lease at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { HogaDatabase } from '../../src/hoga-database.js';
import type { SqliteTokenCache } from '../../src/token/sqlite-token-cache.js';

/** Returns the cached token, issuing one (and counting the issue) when there is none. */
export async function getOrIssueToken(
  db: HogaDatabase,
  tokens: SqliteTokenCache,
  key: string,
  who: string,
): Promise<string> {
  const release = await tokens.lock(key, 10_000);
  try {
    const cached = await tokens.read(key);
    if (cached !== null) return cached.accessToken;
    const accessToken = `token-of-${who}-${process.pid}`;
    const now = db.clock.nowMs();
    await tokens.write(key, { accessToken, tokenType: 'Bearer', expiresAt: now + 86_400_000, issuedAt: now });
    db.strategyState.set(
      'test',
      'issued',
      ((db.strategyState.get('test', 'issued') as number | undefined) ?? 0) + 1,
    );
    return accessToken;
  } finally {
    await release();
  }
}

/** Read-modify-write of a counter with a pause in between, guarded only by the lease. */
export async function bumpUnderLease(db: HogaDatabase, tokens: SqliteTokenCache, key: string): Promise<void> {
  const release = await tokens.lock(`${key}#counter`, 10_000);
  try {
    const value = (db.strategyState.get('test', 'counter') as number | undefined) ?? 0;
    await sleep(1);
    db.strategyState.set('test', 'counter', value + 1);
  } finally {
    await release();
  }
}

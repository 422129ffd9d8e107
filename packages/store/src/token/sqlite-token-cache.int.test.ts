import type { CachedToken } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp, T0 } from '../../test/support.js';
import { HogaDatabase } from '../hoga-database.js';
import { SqliteTokenCache } from './sqlite-token-cache.js';

let db: HogaDatabase;
let file: string;
let cleanup: () => void;
beforeEach(() => {
  ({ db, file, cleanup } = openTemp());
});
afterEach(() => cleanup());

const KEY = 'http://127.0.0.1:18080|sim-client';
const token: CachedToken = {
  accessToken: 'tok-1',
  tokenType: 'Bearer',
  expiresAt: T0 + 86_400_000,
  issuedAt: T0,
};

describe('SqliteTokenCache', () => {
  describe('.read', () => {
    it('returns null for an unknown key, then what was written, then null after delete', async () => {
      const cache = new SqliteTokenCache(db);
      expect(await cache.read(KEY)).toBeNull();
      await cache.write(KEY, token);
      await cache.write(KEY, { ...token, accessToken: 'tok-2' });
      expect(await cache.read(KEY)).toEqual({ ...token, accessToken: 'tok-2' });
      await cache.delete(KEY);
      await cache.delete(KEY);
      expect(await cache.read(KEY)).toBeNull();
    });

    it('keeps the credential fingerprint with the token, and none when the token has none', async () => {
      const cache = new SqliteTokenCache(db);
      await cache.write(KEY, { ...token, credentialFingerprint: 'scrypt$16384$8$1$c2FsdA$aGFzaA' });
      expect(await cache.read(KEY)).toEqual({
        ...token,
        credentialFingerprint: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
      });
      await cache.write(KEY, token);
      expect(await cache.read(KEY)).toEqual(token);
    });

    it('works on a file from before migration 6 (opened unmigrated), where no entry has a fingerprint', async () => {
      db.connection.exec('ALTER TABLE token_cache DROP COLUMN credential_fingerprint');
      const cache = new SqliteTokenCache(db);
      await cache.write(KEY, { ...token, credentialFingerprint: 'scrypt$16384$8$1$c2FsdA$aGFzaA' });
      expect(await cache.read(KEY)).toEqual(token);
    });

    it('sees a token written through another connection to the same file', async () => {
      const other = HogaDatabase.open(file);
      try {
        await new SqliteTokenCache(other).write(KEY, token);
        expect(await new SqliteTokenCache(db).read(KEY)).toEqual(token);
      } finally {
        other.close();
      }
    });
  });

  describe('.lock', () => {
    it('makes a second holder wait until the first releases', async () => {
      // Both connections read the same clock: a live clock would see the virtual-time lease as long expired.
      const other = HogaDatabase.open(file, { clock: db.clock });
      try {
        const a = new SqliteTokenCache(db, { pollIntervalMs: 5 });
        const b = new SqliteTokenCache(other, { pollIntervalMs: 5 });
        const order: string[] = [];
        const releaseA = await a.lock(KEY, 60_000);
        const waiting = b.lock(KEY, 60_000).then((release) => {
          order.push('b acquired');
          return release;
        });
        await new Promise((r) => setTimeout(r, 50));
        order.push('a releases');
        await releaseA();
        await (await waiting)();
        expect(order).toEqual(['a releases', 'b acquired']);
      } finally {
        other.close();
      }
    });

    it('lets another holder take over a lease whose ttl has passed', async () => {
      const cache = new SqliteTokenCache(db, { pollIntervalMs: 1 });
      const { clock } = { clock: db.clock as import('@hoga/core').VirtualClock };
      const stale = await cache.lock(KEY, 1_000);
      clock.advance(1_001);
      const fresh = await cache.lock(KEY, 1_000);
      await stale();
      expect(db.connection.prepare('SELECT count(*) FROM token_leases').pluck().get()).toBe(1);
      await fresh();
      expect(db.connection.prepare('SELECT count(*) FROM token_leases').pluck().get()).toBe(0);
    });

    it('throws lock-timeout when the lease stays taken longer than lockTimeoutMs', async () => {
      const live = HogaDatabase.open(file.replace('hoga.sqlite', 'live.sqlite'));
      try {
        const cache = new SqliteTokenCache(live, { pollIntervalMs: 5, lockTimeoutMs: 50 });
        await cache.lock(KEY, 60_000);
        await expect(cache.lock(KEY, 60_000)).rejects.toMatchObject({ code: 'lock-timeout' });
      } finally {
        live.close();
      }
    });
  });
});

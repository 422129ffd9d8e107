import { type CachedToken, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { credentialFingerprint, fingerprintMatches } from './credential-fingerprint.js';
import { MemoryTokenCache } from './memory-token-cache.js';
import { TokenManager } from './token-manager.js';

const HOUR = 3_600_000;
/** Tokens issued by every fake issuer of this file, so that each token is unique. */
let everIssued = 0;

/** A manager whose issuer hands out unique tokens `t<n>` valid for one hour, counting its issues. */
function setup(cache = new MemoryTokenCache(), clock = new VirtualClock('2026-11-23T10:00:00+09:00')) {
  let issued = 0;
  const manager = new TokenManager({
    key: 'http://broker|client',
    cache,
    clock,
    renewBeforeMs: 5 * 60_000,
    lockTtlMs: 10_000,
    credentials: { clientId: 'client', clientSecret: 'secret' },
    issue: async (): Promise<CachedToken> => {
      issued++;
      everIssued++;
      const accessToken = `t${everIssued}`;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return {
        accessToken,
        tokenType: 'Bearer',
        issuedAt: clock.nowMs(),
        expiresAt: clock.nowMs() + HOUR,
      };
    },
  });
  return { manager, cache, clock, issued: () => issued };
}

describe('TokenManager', () => {
  describe('.token', () => {
    it('issues once for many concurrent callers (single flight)', async () => {
      const { manager, issued } = setup();
      const tokens = await Promise.all(Array.from({ length: 20 }, () => manager.token()));
      expect(new Set(tokens.map((t) => t.accessToken)).size).toBe(1);
      expect(issued()).toBe(1);
    });

    it('renews before expiry, not after every call', async () => {
      const { manager, clock, issued } = setup();
      const first = await manager.token();
      clock.advance(HOUR - 6 * 60_000);
      expect((await manager.token()).accessToken).toBe(first.accessToken);
      clock.advance(2 * 60_000);
      expect((await manager.token()).accessToken).not.toBe(first.accessToken);
      expect(issued()).toBe(2);
    });

    it('adopts a valid token another process left in the shared cache', async () => {
      const cache = new MemoryTokenCache();
      const clock = new VirtualClock('2026-11-23T10:00:00+09:00');
      await cache.write('http://broker|client', {
        accessToken: 'shared',
        tokenType: 'Bearer',
        issuedAt: clock.nowMs(),
        expiresAt: clock.nowMs() + HOUR,
        // The other process had the same credentials.
        credentialFingerprint: await credentialFingerprint({ clientId: 'client', clientSecret: 'secret' }),
      });
      const { manager, issued } = setup(cache, clock);
      expect((await manager.token()).accessToken).toBe('shared');
      expect(issued()).toBe(0);
    });

    it.each([
      { entry: 'made from another secret', secret: 'another-secret' as string | null },
      { entry: 'without a fingerprint', secret: null },
    ])('issues its own token instead of adopting a cached one $entry', async ({ secret }) => {
      const cache = new MemoryTokenCache();
      const clock = new VirtualClock('2026-11-23T10:00:00+09:00');
      await cache.write('http://broker|client', {
        accessToken: 'not-proven',
        tokenType: 'Bearer',
        issuedAt: clock.nowMs(),
        expiresAt: clock.nowMs() + HOUR,
        ...(secret === null
          ? {}
          : {
              credentialFingerprint: await credentialFingerprint({
                clientId: 'client',
                clientSecret: secret,
              }),
            }),
      });
      const { manager, issued } = setup(cache, clock);
      const token = await manager.token();
      expect(token.accessToken).not.toBe('not-proven');
      expect(issued()).toBe(1);
      // The issued token replaces the cached one, with a fingerprint of these credentials.
      const cached = await cache.read('http://broker|client');
      expect(cached?.accessToken).toBe(token.accessToken);
      expect(
        await fingerprintMatches(cached?.credentialFingerprint, {
          clientId: 'client',
          clientSecret: 'secret',
        }),
      ).toBe(true);
      expect(cached?.credentialFingerprint).not.toContain('secret');
    });

    it('leaves the cache alone when the issue fails (wrong credentials)', async () => {
      const cache = new MemoryTokenCache();
      const clock = new VirtualClock('2026-11-23T10:00:00+09:00');
      const right = setup(cache, clock);
      const first = await right.manager.token();
      const wrong = new TokenManager({
        key: 'http://broker|client',
        cache,
        clock,
        renewBeforeMs: 5 * 60_000,
        lockTtlMs: 10_000,
        credentials: { clientId: 'client', clientSecret: 'wrong' },
        issue: async () => {
          throw new Error('invalid_client');
        },
      });
      await expect(wrong.token()).rejects.toThrow('invalid_client');
      expect((await cache.read('http://broker|client'))?.accessToken).toBe(first.accessToken);
    });
  });

  describe('.rejected', () => {
    it('re-reads the cache first when another manager already replaced the token', async () => {
      const cache = new MemoryTokenCache();
      const clock = new VirtualClock('2026-11-23T10:00:00+09:00');
      const a = setup(cache, clock);
      const b = setup(cache, clock);
      const first = await a.manager.token();
      expect((await b.manager.token()).accessToken).toBe(first.accessToken);
      const renewed = await a.manager.rejected(first.accessToken);
      const adopted = await b.manager.rejected(first.accessToken);
      expect(adopted.accessToken).toBe(renewed.accessToken);
      expect(a.issued() + b.issued()).toBe(2);
    });

    it('does not hand back the refused token when a cache read was already running', async () => {
      const cache = new MemoryTokenCache();
      const clock = new VirtualClock('2026-11-23T10:00:00+09:00');
      const a = setup(cache, clock);
      const first = await a.manager.token();
      const b = setup(cache, clock);
      const reading = b.manager.token();
      const afterRefusal = b.manager.rejected(first.accessToken);
      expect((await reading).accessToken).toBe(first.accessToken);
      expect((await afterRefusal).accessToken).not.toBe(first.accessToken);
      expect(b.issued()).toBe(1);
    });

    it('issues a new token when the cache holds the rejected one', async () => {
      const { manager, issued } = setup();
      const first = await manager.token();
      expect((await manager.rejected(first.accessToken)).accessToken).not.toBe(first.accessToken);
      expect(issued()).toBe(2);
    });
  });

  describe('the remembered account', () => {
    const KEY = 'http://broker|client';

    it('is written on the entry the cache holds, never putting back an older token', async () => {
      const cache = new MemoryTokenCache();
      const clock = new VirtualClock('2026-11-23T10:00:00+09:00');
      const a = setup(cache, clock);
      const b = setup(cache, clock);
      await a.manager.token();
      // another process replaces the token (its own issue) before this one remembers the account
      const newer = await b.manager.rejected((await cache.read(KEY))!.accessToken);
      await a.manager.rememberAccount(7);
      expect(await cache.read(KEY)).toMatchObject({ accessToken: newer.accessToken, accountSeq: 7 });
      expect((await a.manager.token()).accountSeq).toBe(7);
    });

    it('outlives its token, and is forgotten only when it is the one refused', async () => {
      const { manager, cache, clock } = setup();
      await manager.token();
      await manager.rememberAccount(3);
      clock.advance(HOUR);
      const renewed = await manager.token();
      expect(renewed).toMatchObject({ accountSeq: 3 });
      await manager.forgetAccount(4);
      expect(await cache.read(KEY)).toMatchObject({ accessToken: renewed.accessToken, accountSeq: 3 });
      await manager.forgetAccount(3);
      expect((await cache.read(KEY))?.accountSeq).toBeUndefined();
      expect((await manager.token()).accountSeq).toBeUndefined();
    });
  });
});

/**
 * One token cache over several: every process on a client id meets in each of them, whichever
 * subset it was given.
 *
 * @module
 */
import type { CachedToken, TokenCache } from '@hoga/core';

/**
 * A {@link TokenCache} that writes to every cache it holds and reads the most recently issued
 * entry among them (the broker keeps one valid token per client, so the newest is the live one).
 * Its lock takes each cache's lock in the order given and releases them in reverse, so processes
 * that share the first cache are serialized by it: put the cache every process uses first.
 *
 * The CLI uses it to join the user's token file and a hoga database (`--db`): a command with the
 * database and one without share one token. Of entries issued at the same instant the first
 * cache's wins: the SQLite cache keeps no remembered account (`accountSeq`), the file does.
 *
 * @example
 * ```ts
 * const cache = new MirroredTokenCache([new FileTokenCache(tokenFile), new SqliteTokenCache(db)]);
 * const client = new BrokerClient({ config, tokenCache: cache });
 * ```
 */
export class MirroredTokenCache implements TokenCache {
  private readonly caches: readonly TokenCache[];

  /** @param caches - at least one cache; the first one's lock is taken first */
  constructor(caches: readonly TokenCache[]) {
    if (caches.length === 0) throw new RangeError('MirroredTokenCache needs at least one cache, found none');
    this.caches = [...caches];
  }

  /** @inheritdoc */
  async read(key: string): Promise<CachedToken | null> {
    const found = await Promise.all(this.caches.map((cache) => cache.read(key)));
    let newest: CachedToken | null = null;
    for (const token of found) {
      if (token !== null && (newest === null || token.issuedAt > newest.issuedAt)) newest = token;
    }
    return newest;
  }

  /** @inheritdoc */
  async write(key: string, token: CachedToken): Promise<void> {
    await Promise.all(this.caches.map((cache) => cache.write(key, token)));
  }

  /** @inheritdoc */
  async delete(key: string): Promise<void> {
    await Promise.all(this.caches.map((cache) => cache.delete(key)));
  }

  /** @inheritdoc */
  async lock(key: string, ttlMs: number): Promise<() => Promise<void>> {
    const releases: (() => Promise<void>)[] = [];
    const releaseAll = async (): Promise<void> => {
      for (const release of releases.splice(0).reverse()) await release();
    };
    try {
      for (const cache of this.caches) releases.push(await cache.lock(key, ttlMs));
    } catch (error) {
      await releaseAll();
      throw error;
    }
    return releaseAll;
  }
}

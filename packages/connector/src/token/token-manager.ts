/**
 * One access token per client, shared by every caller and every process: issued with client
 * credentials, renewed before expiry, single-flight, and on `token-revoked` / `expired-token`
 * re-read from the shared cache before a new one is issued under the cache's cross-process lease.
 *
 * @module
 */
import type { CachedToken, Clock, TokenCache } from '@hoga/core';

/** Issues a new token at the broker (the `POST /oauth2/token` call). */
export type TokenIssuer = (signal?: AbortSignal) => Promise<CachedToken>;

/** Options of {@link TokenManager}. */
export interface TokenManagerOptions {
  /** Cache key, `${baseUrl}|${clientId}`. */
  readonly key: string;
  readonly cache: TokenCache;
  readonly issue: TokenIssuer;
  readonly clock: Clock;
  /** Renew this long before expiry. */
  readonly renewBeforeMs: number;
  /** Lease time on the shared cache while issuing. */
  readonly lockTtlMs: number;
}

/** Hands out the current access token; see the module description. */
export class TokenManager {
  private current: CachedToken | null = null;
  private pending: Promise<CachedToken> | null = null;
  private issuedHere = 0;

  /** @param options - cache, issuer, clock and timings */
  constructor(private readonly options: TokenManagerOptions) {}

  /** Number of tokens this manager has issued itself (not read from the cache). */
  get issuedCount(): number {
    return this.issuedHere;
  }

  /**
   * A token valid for at least the renewal margin. Concurrent callers share one refresh.
   *
   * @param signal - aborts waiting (the shared refresh itself goes on)
   */
  async token(signal?: AbortSignal): Promise<CachedToken> {
    if (this.current !== null && this.fresh(this.current)) return this.current;
    return this.refresh(null, signal);
  }

  /**
   * Called after a 401 `token-revoked`, `expired-token` or `invalid-token` for `rejected`: adopts a
   * newer token from the shared cache if another process issued one, else issues a new one.
   *
   * @param rejected - the access token the broker refused
   * @param signal - aborts waiting
   */
  async rejected(rejected: string, signal?: AbortSignal): Promise<CachedToken> {
    if (this.current !== null && this.current.accessToken !== rejected && this.fresh(this.current)) {
      return this.current;
    }
    return this.refresh(rejected, signal);
  }

  /** Forgets the in-memory token (the cache is left alone). */
  reset(): void {
    this.current = null;
  }

  private fresh(token: CachedToken): boolean {
    return token.expiresAt - this.options.renewBeforeMs > this.options.clock.nowMs();
  }

  private usable(token: CachedToken | null, rejected: string | null): token is CachedToken {
    return token !== null && token.accessToken !== rejected && this.fresh(token);
  }

  private refresh(rejected: string | null, signal?: AbortSignal): Promise<CachedToken> {
    if (this.pending === null) {
      this.pending = this.load(rejected).finally(() => {
        this.pending = null;
      });
    } else if (rejected !== null) {
      // A refresh is already under way; if it settles on the refused token, load again.
      const running = this.pending;
      this.pending = running
        .then((token) => (token.accessToken === rejected ? this.load(rejected) : token))
        .finally(() => {
          this.pending = null;
        });
    }
    const shared = this.pending;
    if (signal === undefined) return shared;
    return new Promise<CachedToken>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason ?? new Error('aborted'));
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      shared.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  private async load(rejected: string | null): Promise<CachedToken> {
    const { cache, key } = this.options;
    const cached = await cache.read(key);
    if (this.usable(cached, rejected)) return this.adopt(cached);
    const release = await cache.lock(key, this.options.lockTtlMs);
    try {
      // Another process may have issued while we waited for the lease.
      const again = await cache.read(key);
      if (this.usable(again, rejected)) return this.adopt(again);
      const issued = await this.options.issue();
      this.issuedHere++;
      await cache.write(key, issued);
      return this.adopt(issued);
    } finally {
      await release();
    }
  }

  private adopt(token: CachedToken): CachedToken {
    this.current = token;
    return token;
  }
}

/**
 * One access token per client, shared by every caller and every process: issued with client
 * credentials, renewed before expiry, single-flight, and on `token-revoked` / `expired-token`
 * re-read from the shared cache before a new one is issued under the cache's cross-process lease.
 *
 * A cached token is adopted only by a caller whose credentials match the entry's fingerprint
 * (see {@link credentialFingerprint}); any other caller proves its credentials by issuing a token
 * (a wrong secret fails there with `invalid_client`), which then replaces the cached one for every
 * process.
 *
 * @module
 */
import type { CachedToken, Clock, TokenCache } from '@hoga/core';
import {
  credentialFingerprint,
  fingerprintMatches,
  type TokenCredentials,
} from './credential-fingerprint.js';

function withoutAccount(token: CachedToken): CachedToken {
  const { accountSeq: _, ...rest } = token;
  return rest;
}

/** Issues a new token at the broker (the `POST /oauth2/token` call). */
export type TokenIssuer = (signal?: AbortSignal) => Promise<CachedToken>;

/** Options of {@link TokenManager}. */
export interface TokenManagerOptions {
  /** Cache key, `${baseUrl}|${clientId}`. */
  readonly key: string;
  readonly cache: TokenCache;
  readonly issue: TokenIssuer;
  /** The credentials `issue` uses: cached tokens are adopted only when their fingerprint matches. */
  readonly credentials: TokenCredentials;
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
  /** Fingerprints already checked against our credentials (a new one per issued token). */
  private readonly checked = new Map<string, boolean>();

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

  /**
   * Remembers the account resolved for this client beside the shared token, for every process on
   * the key. Done under the cache's lease, on the entry the cache holds then (which may be a newer
   * token of another process: it is never replaced by ours).
   *
   * @param accountSeq - the account the broker listed first
   */
  async rememberAccount(accountSeq: number): Promise<void> {
    if (this.current !== null) this.current = { ...this.current, accountSeq };
    await this.changeEntry((entry) => (entry.accountSeq === accountSeq ? null : { ...entry, accountSeq }));
  }

  /**
   * Forgets a remembered account the broker refused (`account-not-found`), here and in the shared
   * cache; another account remembered meanwhile is kept.
   *
   * @param accountSeq - the refused account
   */
  async forgetAccount(accountSeq: number): Promise<void> {
    if (this.current?.accountSeq === accountSeq) this.current = withoutAccount(this.current);
    await this.changeEntry((entry) => (entry.accountSeq === accountSeq ? withoutAccount(entry) : null));
  }

  private async changeEntry(change: (entry: CachedToken) => CachedToken | null): Promise<void> {
    const { cache, key } = this.options;
    const release = await cache.lock(key, this.options.lockTtlMs);
    try {
      const entry = await cache.read(key);
      const changed = entry === null ? null : change(entry);
      if (changed !== null) await cache.write(key, changed);
    } finally {
      await release();
    }
  }

  /** Forgets the in-memory token (the cache is left alone). */
  reset(): void {
    this.current = null;
  }

  /**
   * Still usable until `renewBeforeMs` before its expiry, or half its lifetime before it when that
   * is shorter: a token living less than `renewBeforeMs` (the broker's choice) would otherwise be
   * stale from its issue on, and every call would issue a new one, revoking the last.
   */
  private fresh(token: CachedToken): boolean {
    const lifetime = Math.max(0, token.expiresAt - token.issuedAt);
    const margin = Math.min(this.options.renewBeforeMs, lifetime / 2);
    return token.expiresAt - margin > this.options.clock.nowMs();
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
    if (this.usable(cached, rejected) && (await this.ours(cached))) return this.adopt(cached);
    const release = await cache.lock(key, this.options.lockTtlMs);
    try {
      // Another process may have issued while we waited for the lease.
      const again = await cache.read(key);
      if (this.usable(again, rejected) && (await this.ours(again))) return this.adopt(again);
      // Issuing proves the credentials (or throws invalid_client, leaving the cache alone).
      const [issued, credentialFingerprintText] = await Promise.all([
        this.options.issue(),
        credentialFingerprint(this.options.credentials),
      ]);
      this.issuedHere++;
      // the client's remembered account outlives its token (the broker's accounts are the client's)
      const stamped: CachedToken = {
        ...issued,
        credentialFingerprint: credentialFingerprintText,
        ...(again?.accountSeq === undefined ? {} : { accountSeq: again.accountSeq }),
      };
      this.remember(credentialFingerprintText, true);
      await cache.write(key, stamped);
      return this.adopt(stamped);
    } finally {
      await release();
    }
  }

  /** Whether the entry's fingerprint was made from our credentials. */
  private async ours(token: CachedToken): Promise<boolean> {
    const fingerprint = token.credentialFingerprint;
    if (fingerprint === undefined) return false;
    const known = this.checked.get(fingerprint);
    if (known !== undefined) return known;
    const matches = await fingerprintMatches(fingerprint, this.options.credentials);
    this.remember(fingerprint, matches);
    return matches;
  }

  private remember(fingerprint: string, matches: boolean): void {
    if (this.checked.size >= 32) this.checked.clear();
    this.checked.set(fingerprint, matches);
  }

  private adopt(token: CachedToken): CachedToken {
    this.current = token;
    return token;
  }
}

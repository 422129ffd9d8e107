/**
 * The shared access-token cache contract. The broker allows one valid token per client, so every
 * process must share one: the connector ships in-memory and file implementations, the store a
 * SQLite one.
 *
 * @module
 */

/** An access token with its lifetime. */
export interface CachedToken {
  /** The bearer token. Secret: never log it. */
  readonly accessToken: string;
  /** Token type from the issuer, normally `Bearer`. */
  readonly tokenType: string;
  /** Expiry, epoch ms. */
  readonly expiresAt: number;
  /** Issue time, epoch ms. */
  readonly issuedAt: number;
  /**
   * A salted hash of the credentials that issued the token (never the secret itself): a caller
   * whose credentials do not match it must prove them by issuing a token of its own. Absent in
   * entries written before fingerprints existed, which therefore match no one.
   */
  readonly credentialFingerprint?: string | undefined;
  /**
   * The account a client without a configured one uses: the first `accountSeq` the broker listed
   * for this client, remembered beside the token so that every process on the key does not ask the
   * broker again (its ACCOUNT group allows one request a second). Not a secret; carried over when
   * a new token replaces this one, and dropped when the broker answers `account-not-found` for it.
   */
  readonly accountSeq?: number | undefined;
}

/**
 * Storage for access tokens shared between processes.
 * Keys are `${baseUrl}|${clientId}` (see {@link tokenCacheKey}).
 */
export interface TokenCache {
  /** The cached token for `key`, or `null` when none is stored. */
  read(key: string): Promise<CachedToken | null>;
  /** Stores (replaces) the token for `key`. */
  write(key: string, token: CachedToken): Promise<void>;
  /** Removes the token for `key` (no error when absent). */
  delete(key: string): Promise<void>;
  /**
   * Takes a cross-process exclusive lease on `key`, waiting until it is free. A lease not released
   * within `ttlMs` may be taken over by another process.
   *
   * @returns the release function
   */
  lock(key: string, ttlMs: number): Promise<() => Promise<void>>;
}

/**
 * The cache key for a broker base URL and client id.
 *
 * @param baseUrl - broker base URL
 * @param clientId - OAuth client id
 */
export function tokenCacheKey(baseUrl: string, clientId: string): string {
  return `${baseUrl}|${clientId}`;
}

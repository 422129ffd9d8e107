/**
 * The connector's access-token cache in the hoga database, shared by every process using the file.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CachedToken, Clock, TokenCache } from '@hoga/core';
import type Database from 'better-sqlite3';
import type { HogaDatabase } from '../hoga-database.js';
import { StoreError, StoreErrorCode } from '../store-error.js';

/** Options of {@link SqliteTokenCache}. */
export interface SqliteTokenCacheOptions {
  /** Pause between attempts to take a busy lease (default 20 ms). */
  readonly pollIntervalMs?: number | undefined;
  /** Give up waiting for a lease after this long (default 30 s) with `lock-timeout`. */
  readonly lockTimeoutMs?: number | undefined;
}

/**
 * {@link TokenCache} on the `token_cache` and `token_leases` tables (the credential fingerprint of
 * an entry in `credential_fingerprint`, migration 6). Writes are single statements
 * (atomic); the lease is a row with an owner and an expiry, taken inside `BEGIN IMMEDIATE` so two
 * processes never both take it. The database file is mode 0600 because it holds tokens.
 *
 * @example
 * ```ts
 * const db = HogaDatabase.open('./data/hoga.sqlite');
 * const tokens = new SqliteTokenCache(db);
 * const release = await tokens.lock(key, 10_000);
 * try { (await tokens.read(key)) ?? (await tokens.write(key, await issue())); } finally { await release(); }
 * ```
 */
export class SqliteTokenCache implements TokenCache {
  private readonly selectToken: Database.Statement;
  private readonly upsertToken: (key: string, token: CachedToken) => void;
  private readonly deleteToken: Database.Statement;
  private readonly selectLease: Database.Statement;
  private readonly upsertLease: Database.Statement;
  private readonly deleteLease: Database.Statement;
  private readonly tryAcquire: (key: string, owner: string, ttlMs: number) => boolean;
  private readonly clock: Clock;
  private readonly pollIntervalMs: number;
  private readonly lockTimeoutMs: number;

  /**
   * @param database - an open hoga database (not closed by the cache)
   * @param options - polling and timeout of {@link SqliteTokenCache.lock}
   */
  constructor(database: HogaDatabase, options: SqliteTokenCacheOptions = {}) {
    const db = database.connection;
    this.clock = database.clock;
    this.pollIntervalMs = options.pollIntervalMs ?? 20;
    this.lockTimeoutMs = options.lockTimeoutMs ?? 30_000;
    // A file opened without migrating (a broker command's `--db`) may predate migration 6: its
    // entries then carry no fingerprint and so prove no one's credentials.
    const fingerprinted = (
      db.prepare("SELECT name FROM pragma_table_info('token_cache')").pluck().all() as string[]
    ).includes('credential_fingerprint');
    this.selectToken = db.prepare(
      `SELECT access_token, token_type, expires_at, issued_at,
         ${fingerprinted ? 'credential_fingerprint' : 'NULL AS credential_fingerprint'}
       FROM token_cache WHERE key = ?`,
    );
    const upsert = fingerprinted
      ? `INSERT INTO token_cache (key, access_token, token_type, expires_at, issued_at, credential_fingerprint)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET access_token = excluded.access_token, token_type = excluded.token_type,
           expires_at = excluded.expires_at, issued_at = excluded.issued_at,
           credential_fingerprint = excluded.credential_fingerprint`
      : `INSERT INTO token_cache (key, access_token, token_type, expires_at, issued_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET access_token = excluded.access_token, token_type = excluded.token_type,
           expires_at = excluded.expires_at, issued_at = excluded.issued_at`;
    const upsertStatement = db.prepare(upsert);
    this.upsertToken = (key, token) => {
      const values = [key, token.accessToken, token.tokenType, token.expiresAt, token.issuedAt];
      upsertStatement.run(...values, ...(fingerprinted ? [token.credentialFingerprint ?? null] : []));
    };
    this.deleteToken = db.prepare('DELETE FROM token_cache WHERE key = ?');
    this.selectLease = db.prepare('SELECT owner, expires_at FROM token_leases WHERE key = ?');
    this.upsertLease = db.prepare(
      `INSERT INTO token_leases (key, owner, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at`,
    );
    this.deleteLease = db.prepare('DELETE FROM token_leases WHERE key = ? AND owner = ?');
    const acquire = db.transaction((key: string, owner: string, ttlMs: number): boolean => {
      const now = this.clock.nowMs();
      const lease = this.selectLease.get(key) as { owner: string; expires_at: number } | undefined;
      if (lease !== undefined && lease.expires_at > now) return false;
      this.upsertLease.run(key, owner, now + ttlMs);
      return true;
    });
    this.tryAcquire = (key, owner, ttlMs) => acquire.immediate(key, owner, ttlMs);
  }

  /** @inheritdoc */
  async read(key: string): Promise<CachedToken | null> {
    const row = this.selectToken.get(key) as
      | {
          access_token: string;
          token_type: string;
          expires_at: number;
          issued_at: number;
          credential_fingerprint: string | null;
        }
      | undefined;
    if (row === undefined) return null;
    return {
      accessToken: row.access_token,
      tokenType: row.token_type,
      expiresAt: row.expires_at,
      issuedAt: row.issued_at,
      ...(row.credential_fingerprint === null ? {} : { credentialFingerprint: row.credential_fingerprint }),
    };
  }

  /** @inheritdoc */
  async write(key: string, token: CachedToken): Promise<void> {
    this.upsertToken(key, token);
  }

  /** @inheritdoc */
  async delete(key: string): Promise<void> {
    this.deleteToken.run(key);
  }

  /**
   * Takes the lease on `key`, polling every `pollIntervalMs` while another holder's unexpired lease
   * stands. The release function deletes the lease only if it is still ours.
   *
   * @throws {@link StoreError} `lock-timeout` after `lockTimeoutMs`
   */
  async lock(key: string, ttlMs: number): Promise<() => Promise<void>> {
    const owner = `${process.pid}:${randomUUID()}`;
    const deadline = this.clock.nowMs() + this.lockTimeoutMs;
    while (!this.tryAcquire(key, owner, ttlMs)) {
      if (this.clock.nowMs() >= deadline) {
        throw new StoreError(
          StoreErrorCode.LOCK_TIMEOUT,
          `token lease for ${key.split('|')[0] ?? 'the broker'} still held by another process after ${this.lockTimeoutMs} ms`,
        );
      }
      await sleep(this.pollIntervalMs);
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.deleteLease.run(key, owner);
    };
  }
}

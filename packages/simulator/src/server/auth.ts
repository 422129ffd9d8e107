import { randomBytes } from 'node:crypto';
import type { Clock } from '@hoga/core';
import { SimApiError } from '../api-error.js';

/** A client allowed to request tokens. */
export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** A freshly issued access token. */
export interface IssuedToken {
  readonly accessToken: string;
  readonly tokenType: 'Bearer';
  /** Lifetime in (simulated) seconds. */
  readonly expiresIn: number;
}

/** An OAuth 2.0 error of the token endpoint (`{error, error_description}` on the wire). */
export class OAuthError extends Error {
  constructor(
    /** HTTP status: 400 or 401. */
    readonly status: number,
    /** OAuth 2.0 error code: `invalid_request`, `unsupported_grant_type`, `invalid_client`. */
    readonly error: string,
    /** Human-readable text. */
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** Options of {@link TokenAuthority}. */
export interface TokenAuthorityOptions {
  readonly clients: readonly ClientCredentials[];
  /** Token lifetime in simulated seconds. */
  readonly ttlSeconds: number;
  /** Expiry is measured on this (simulated) clock. */
  readonly clock: Clock;
}

interface TokenRecord {
  readonly clientId: string;
  readonly expiresAtMs: number;
  revoked: boolean;
}

/** An `Authorization` value that looks like a bearer credential: `Bearer <token68>`. */
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

/**
 * Issues and checks access tokens: one valid token per client (a new issue
 * revokes the previous one), expiry on the simulated clock, explicit revocation.
 */
export class TokenAuthority {
  private readonly clients: ReadonlyMap<string, string>;
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly current = new Map<string, string>();
  private issued = 0;

  constructor(private readonly options: TokenAuthorityOptions) {
    this.clients = new Map(options.clients.map((c) => [c.clientId, c.clientSecret]));
  }

  /** Number of tokens issued since start. */
  get tokensIssued(): number {
    return this.issued;
  }

  /** Issues a token for the client, revoking its previous one; throws {@link OAuthError} 401 on bad credentials. */
  issue(clientId: string, clientSecret: string): IssuedToken {
    const expected = this.clients.get(clientId);
    if (expected === undefined) throw new OAuthError(401, 'invalid_client', 'Unknown client_id.');
    if (expected !== clientSecret) throw new OAuthError(401, 'invalid_client', 'Wrong client_secret.');
    this.revoke(clientId);
    const accessToken = randomBytes(32).toString('base64url');
    this.tokens.set(accessToken, {
      clientId,
      expiresAtMs: this.options.clock.nowMs() + this.options.ttlSeconds * 1000,
      revoked: false,
    });
    this.current.set(clientId, accessToken);
    this.issued++;
    return { accessToken, tokenType: 'Bearer', expiresIn: this.options.ttlSeconds };
  }

  /**
   * Checks an `Authorization` header and returns the client id it belongs to.
   * Throws {@link SimApiError} 401 `edge-blocked` (missing), `invalid-token`
   * (malformed or unknown), `token-revoked` (replaced or revoked) or `expired-token`.
   */
  authenticate(authorization: string | undefined): string {
    if (authorization === undefined || authorization === '') {
      throw new SimApiError(401, 'edge-blocked', 'The Authorization header is missing.');
    }
    const token = BEARER.exec(authorization)?.[1];
    if (token === undefined) {
      throw new SimApiError(401, 'invalid-token', 'The Authorization header is not "Bearer <token>".');
    }
    const record = this.tokens.get(token);
    if (record === undefined) throw new SimApiError(401, 'invalid-token', 'The access token is not valid.');
    if (record.revoked) {
      throw new SimApiError(401, 'token-revoked', 'The access token was replaced by a newer one.');
    }
    if (this.options.clock.nowMs() >= record.expiresAtMs) {
      throw new SimApiError(401, 'expired-token', 'The access token has expired.');
    }
    return record.clientId;
  }

  /** Revokes the current token of one client, or of every client; returns how many were revoked. */
  revoke(clientId?: string): number {
    let count = 0;
    for (const [client, token] of this.current) {
      if (clientId !== undefined && client !== clientId) continue;
      const record = this.tokens.get(token);
      if (record !== undefined && !record.revoked) {
        record.revoked = true;
        count++;
      }
      this.current.delete(client);
    }
    return count;
  }
}

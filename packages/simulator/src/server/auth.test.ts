import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { OAuthError, TokenAuthority } from './auth.js';

function authority(): { tokens: TokenAuthority; clock: VirtualClock } {
  const clock = new VirtualClock('2026-11-23T10:00:00+09:00');
  const tokens = new TokenAuthority({
    clients: [{ clientId: 'c', clientSecret: 's' }],
    ttlSeconds: 60,
    clock,
  });
  return { tokens, clock };
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof SimApiError) return `${error.status} ${error.code}`;
    if (error instanceof OAuthError) return `${error.status} ${error.error}`;
    throw error;
  }
  return 'ok';
}

describe('TokenAuthority', () => {
  describe('.issue', () => {
    it('issues an opaque bearer token with the configured lifetime', () => {
      const { tokens } = authority();
      const token = tokens.issue('c', 's');
      expect(token.tokenType).toBe('Bearer');
      expect(token.expiresIn).toBe(60);
      expect(token.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(tokens.tokensIssued).toBe(1);
    });

    it.each([
      ['x', 's'],
      ['c', 'wrong'],
    ])('refuses client %s with secret %s as 401 invalid_client', (id, secret) => {
      expect(codeOf(() => authority().tokens.issue(id, secret))).toBe('401 invalid_client');
    });
  });

  describe('.authenticate', () => {
    it('returns the client of a valid token', () => {
      const { tokens } = authority();
      const { accessToken } = tokens.issue('c', 's');
      expect(tokens.authenticate(`Bearer ${accessToken}`)).toBe('c');
    });

    it.each([
      [undefined, '401 edge-blocked'],
      ['', '401 edge-blocked'],
      ['Basic abc', '401 invalid-token'],
      ['Bearer', '401 invalid-token'],
      ['Bearer not-issued', '401 invalid-token'],
    ])('answers %j with %s', (header, expected) => {
      const { tokens } = authority();
      tokens.issue('c', 's');
      expect(codeOf(() => tokens.authenticate(header))).toBe(expected);
    });

    it('rejects the previous token as token-revoked once a new one is issued', () => {
      const { tokens } = authority();
      const first = tokens.issue('c', 's').accessToken;
      const second = tokens.issue('c', 's').accessToken;
      expect(codeOf(() => tokens.authenticate(`Bearer ${first}`))).toBe('401 token-revoked');
      expect(tokens.authenticate(`Bearer ${second}`)).toBe('c');
    });

    it('rejects a token as expired-token once its lifetime has passed on the clock', () => {
      const { tokens, clock } = authority();
      const { accessToken } = tokens.issue('c', 's');
      clock.advance(59_999);
      expect(tokens.authenticate(`Bearer ${accessToken}`)).toBe('c');
      clock.advance(1);
      expect(codeOf(() => tokens.authenticate(`Bearer ${accessToken}`))).toBe('401 expired-token');
    });
  });

  describe('.revoke', () => {
    it('revokes the current token of a client', () => {
      const { tokens } = authority();
      const { accessToken } = tokens.issue('c', 's');
      expect(tokens.revoke('c')).toBe(1);
      expect(tokens.revoke('c')).toBe(0);
      expect(codeOf(() => tokens.authenticate(`Bearer ${accessToken}`))).toBe('401 token-revoked');
    });
  });
});

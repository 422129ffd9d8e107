/**
 * Migration 6: the token cache records a salted fingerprint of the credentials that issued each
 * token (never the secret), so that a caller with other credentials cannot adopt it.
 *
 * @module
 */

/** The DDL of migration 6. Entries written before it have no fingerprint and match no one. */
export const MIGRATION_006_TOKEN_FINGERPRINT_SQL = `
  ALTER TABLE token_cache ADD COLUMN credential_fingerprint TEXT;
`;

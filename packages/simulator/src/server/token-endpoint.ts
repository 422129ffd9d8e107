import { SimApiError } from '../api-error.js';
import { OAuthError, type TokenAuthority } from './auth.js';

/** The OAuth 2.0 answer of the token endpoint. */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
}

/** Values the edge lets through: printable ASCII, at most 256 characters. */
const EDGE_SAFE = /^[\x21-\x7e]{1,256}$/;

function single(form: URLSearchParams, name: string): string | undefined {
  const values = form.getAll(name);
  if (values.length > 1) throw new OAuthError(400, 'invalid_request', `Parameter ${name} is repeated.`);
  const value = values[0];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Handles `POST /oauth2/token`. `form` is the parsed body, or null when the
 * body was not `application/x-www-form-urlencoded`.
 *
 * Errors: 400 `invalid_request` (missing, repeated or non-form parameters),
 * 400 `unsupported_grant_type`, 401 `invalid_client` (as {@link OAuthError}),
 * and 403 `edge-blocked` (as `SimApiError`) for credential values the edge
 * refuses (control characters, non-ASCII, longer than 256 characters).
 */
export function handleTokenRequest(form: URLSearchParams | null, tokens: TokenAuthority): TokenResponse {
  if (form === null) {
    throw new OAuthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
  }
  const grantType = single(form, 'grant_type');
  const clientId = single(form, 'client_id');
  const clientSecret = single(form, 'client_secret');
  if (grantType === undefined)
    throw new OAuthError(400, 'invalid_request', 'Parameter grant_type is missing.');
  if (grantType !== 'client_credentials') {
    throw new OAuthError(400, 'unsupported_grant_type', 'Only client_credentials grant type is supported.');
  }
  if (clientId === undefined) throw new OAuthError(400, 'invalid_request', 'Parameter client_id is missing.');
  if (clientSecret === undefined) {
    throw new OAuthError(400, 'invalid_request', 'Parameter client_secret is missing.');
  }
  if (!EDGE_SAFE.test(clientId) || !EDGE_SAFE.test(clientSecret)) {
    throw new SimApiError(403, 'edge-blocked', 'The request was blocked: malformed credential values.');
  }
  const issued = tokens.issue(clientId, clientSecret);
  return { access_token: issued.accessToken, token_type: issued.tokenType, expires_in: issued.expiresIn };
}

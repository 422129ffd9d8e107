/**
 * Turns a non-2xx answer into the matching {@link BrokerApiError} subclass.
 *
 * @module
 */
import {
  AuthenticationError,
  type BrokerApiError,
  type BrokerApiErrorInit,
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  RateLimitError,
  RequestValidationError,
  ServerError,
} from '../errors.js';
import type { HttpResponse } from './http-transport.js';

/** Headers that identify a request when the envelope carries no `requestId`, in order of preference. */
const REQUEST_ID_HEADERS = ['x-request-id', 'cf-ray', 'referenceid', 'x-amz-cf-id'] as const;

/** 500 codes worth repeating. */
const RETRYABLE_SERVER_CODES = new Set(['internal-error', 'maintenance']);

/**
 * The request id of a response: the envelope's `error.requestId`, else the first of the
 * `X-Request-Id`, `cf-ray`, `referenceId`, `x-amz-cf-id` headers.
 *
 * @param headers - response headers (lower-case names)
 * @param envelopeId - `error.requestId` from the body, if any
 */
export function requestIdOf(
  headers: Readonly<Record<string, string | undefined>>,
  envelopeId?: unknown,
): string | null {
  if (typeof envelopeId === 'string' && envelopeId !== '') return envelopeId;
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers[name];
    if (value !== undefined && value !== '') return value;
  }
  return null;
}

/**
 * The longest `Retry-After` obeyed: the limits are per second, so a longer wait (a date far ahead
 * from a misconfigured edge) is no rate limit; beyond 24.8 days it would not even fit a Node timer,
 * which then fires at once, over and over.
 */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * Parses `Retry-After` (seconds, or an HTTP date) into milliseconds, at most
 * {@link MAX_RETRY_AFTER_MS}.
 *
 * @param value - header value
 * @param nowMs - current time for the HTTP-date form
 * @returns the wait in ms, or null when absent or unreadable
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, date - nowMs));
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/**
 * The message of an answer that is no JSON: a gateway's or proxy's HTML error page is named by its
 * title (its markup, several lines of it, said nothing to a user); other text is kept, on one line.
 */
function plainMessage(status: number, text: string): string {
  if (text.trim() === '') return `HTTP ${status} without a body`;
  const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
  if (title !== undefined || /<(!doctype html|html)\b/i.test(text)) {
    const named = title === undefined || oneLine(title) === '' ? '' : ` "${oneLine(title).slice(0, 80)}"`;
    return `an HTML page${named} instead of the broker's JSON (a proxy or gateway in between answered)`;
  }
  // other markup (an XML error of a storage or gateway service): its text without the tags
  return oneLine(text.replace(/<[^>]*>/g, ' ')).slice(0, 200);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The text with every occurrence of each secret, as sent (plain, or URL- or form-encoded), replaced
 * by `<secret>`.
 *
 * @param text - an answer's body
 * @param secrets - the client secret, the access token: what the request carried
 */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret === '') continue;
    const forms = new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
    ]);
    for (const form of forms) out = out.split(form).join('<secret>');
  }
  return out;
}

/**
 * Builds the typed error for a non-2xx response. Understands the `{ error: {...} }` envelope and
 * the OAuth 2.0 `{ error, error_description }` form of the token endpoint; anything else becomes
 * an error with code `http-<status>`.
 *
 * @param endpoint - endpoint name for the message
 * @param response - the HTTP answer
 * @param nowMs - current time (for `Retry-After` dates)
 * @param secrets - values the request carried that the error must never repeat (the client secret
 *   and the access token: an edge or gateway refusing a request may quote the form or the
 *   Authorization header it blocked)
 */
export function errorFromResponse(
  endpoint: string,
  response: HttpResponse,
  nowMs: number,
  secrets: readonly string[] = [],
): BrokerApiError {
  const text = withoutSecrets(response.body, secrets);
  const body = asRecord(parseJson(text));
  const envelope = asRecord(body?.error);
  let code = `http-${response.status}`;
  let message = plainMessage(response.status, text);
  let data: Record<string, unknown> | null = null;
  let envelopeId: unknown;
  if (envelope !== null) {
    if (typeof envelope.code === 'string') code = envelope.code;
    if (typeof envelope.message === 'string') message = envelope.message;
    data = asRecord(envelope.data);
    envelopeId = envelope.requestId;
  } else if (typeof body?.error === 'string') {
    code = body.error;
    message = typeof body.error_description === 'string' ? body.error_description : code;
  }
  const init: BrokerApiErrorInit = {
    endpoint,
    status: response.status,
    code,
    message,
    requestId: requestIdOf(response.headers, envelopeId),
    data,
  };
  const status = response.status;
  if (status === 429)
    return new RateLimitError(init, parseRetryAfter(response.headers['retry-after'], nowMs));
  if (status === 401 || status === 403) return new AuthenticationError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 409) return new ConflictError({ ...init, retryable: code === 'request-in-progress' });
  if (status === 422) return new BusinessRuleError(init);
  if (status >= 500) {
    const retryable = RETRYABLE_SERVER_CODES.has(code) || status === 502 || status === 503 || status === 504;
    return new ServerError({ ...init, retryable });
  }
  return new RequestValidationError(init);
}

import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { RateLimitDecision } from './rate-limiter.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends a JSON text with status and headers (no-op when the socket is already gone). */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: OutgoingHttpHeaders,
): void {
  if (res.destroyed || res.headersSent) return;
  headers['content-type'] = JSON_TYPE;
  headers['content-length'] = Buffer.byteLength(text);
  res.writeHead(status, headers);
  res.end(text);
}

/** Sends `{"error": {requestId, code, message, data?}}`. */
export function sendApiError(
  res: ServerResponse,
  status: number,
  error: { code: string; message: string; data?: Readonly<Record<string, unknown>> | undefined },
  requestId: string,
  headers: OutgoingHttpHeaders,
): void {
  const body: Record<string, unknown> = { requestId, code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  sendJsonText(res, status, JSON.stringify({ error: body }), headers);
}

/** Adds the `X-RateLimit-*` headers (and `Retry-After` on a refusal). */
export function addRateLimitHeaders(headers: OutgoingHttpHeaders, decision: RateLimitDecision): void {
  headers['x-ratelimit-limit'] = String(decision.limit);
  headers['x-ratelimit-remaining'] = String(decision.remaining);
  headers['x-ratelimit-reset'] = String(decision.resetSeconds);
  if (decision.retryAfterSeconds !== null) headers['retry-after'] = String(decision.retryAfterSeconds);
}

/** The `WWW-Authenticate` challenge of a 401 on the broker API. */
export function bearerChallenge(code: string, message: string): string {
  if (code === 'edge-blocked') return 'Bearer realm="openapi"';
  const description = message.replace(/["\\]/g, '');
  return `Bearer realm="openapi", error="invalid_token", error_description="${description}"`;
}

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
  const body = Buffer.from(text, 'utf8');
  headers['content-type'] = JSON_TYPE;
  headers['content-length'] = body.length;
  res.writeHead(status, headers);
  res.end(body);
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

const itemText = new WeakMap<object, string>();

/**
 * `{"result": ...}` as text. With `reuseItems`, each object of a top-level
 * array is serialized once and its text reused while the backend hands out
 * the same (unchanged, never mutated) object again: the prices endpoint
 * returns cached per-symbol objects, so a 200-symbol answer is mostly joins.
 */
export function resultText(result: unknown, reuseItems: boolean): string {
  if (!reuseItems || !Array.isArray(result)) return JSON.stringify({ result });
  let text = '{"result":[';
  for (let i = 0; i < result.length; i++) {
    const item: unknown = result[i];
    let part: string | undefined;
    if (item !== null && typeof item === 'object') {
      part = itemText.get(item);
      if (part === undefined) {
        part = JSON.stringify(item);
        itemText.set(item, part);
      }
    } else {
      part = JSON.stringify(item) ?? 'null';
    }
    text += i === 0 ? part : `,${part}`;
  }
  return `${text}]}`;
}

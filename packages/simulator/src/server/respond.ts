import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { RateLimitDecision } from './rate-limiter.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends a JSON text (or its UTF-8 bytes) with status and headers (no-op when the socket is already gone). */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string | Buffer,
  headers: OutgoingHttpHeaders,
): void {
  if (res.destroyed || res.headersSent) return;
  const body = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
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
const wholeBody = new WeakMap<object, Buffer>();

/**
 * `{"result": ...}` as UTF-8 bytes. With `reuse`, the backend promises that
 * the objects it returns are cached and never mutated (the prices endpoint
 * hands out the same array while no price changed, and the same per-symbol
 * objects): the bytes of a whole array answer, and the text of each item, are
 * then serialized once and reused for as long as the backend returns the same
 * object.
 */
export function resultBody(result: unknown, reuse: boolean): Buffer {
  if (!reuse || !Array.isArray(result)) return Buffer.from(JSON.stringify({ result }), 'utf8');
  let body = wholeBody.get(result);
  if (body === undefined) {
    body = Buffer.from(resultText(result, true), 'utf8');
    wholeBody.set(result, body);
  }
  return body;
}

/** `{"result": ...}` as text, reusing the text of each array item when `reuseItems` (see {@link resultBody}). */
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

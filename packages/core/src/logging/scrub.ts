/**
 * Deep redaction of log records: pino's `redact` paths reach fixed depths, so every record (and
 * every child logger's bindings) is also copied through {@link scrubLogValue}, which hides secret
 * keys at any depth, in arrays and in errors, and bearer tokens or form secrets inside strings.
 *
 * @module
 */
import { stdSerializers } from 'pino';

/** What a hidden value is replaced by. */
export const CENSOR = '[redacted]';

/**
 * Endings of key names (lower case, without `_` and `-`) whose values are secrets wherever they
 * appear: `clientSecret`, `access_token`, `HOGA_CLIENT_SECRET`, `x-auth-token`, `apiKey`, … (a
 * `HOGA_TOKEN_FILE` or `tokenType` is no secret: it does not end so).
 */
const SECRET_KEY = /(token|secret|password|passwd|authorization|cookie|apikey)$/;

const MAX_DEPTH = 10;

/** What stands for an object more than {@link MAX_DEPTH} levels down. */
const TOO_DEEP = '[too deep]';

function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.toLowerCase().replace(/[-_]/g, ''));
}

/** A name ending as a secret key's does (`client_secret`, `HOGA_CLIENT_SECRET`, `x-api-key`). */
const SECRET_NAME = '[A-Za-z0-9_-]*?(?:token|secret|password|passwd|api_?key)';

/** `NAME=value` of a form or a `.env` text; the value runs to `&`, a quote, a space or a `;`. */
const SECRET_ASSIGNMENT = new RegExp(String.raw`\b(${SECRET_NAME})=[^&\s"';]+`, 'gi');

/** `"NAME": "value"` of a JSON text (a body, a serialized record). */
const SECRET_JSON_MEMBER = new RegExp(String.raw`("${SECRET_NAME}"\s*:\s*)"(?:[^"\\]|\\.)*"`, 'gi');

/** A string with bearer tokens and `access_token=` / `HOGA_CLIENT_SECRET=` / JSON values hidden. */
function scrubString(value: string): string {
  if (!/bearer|secret|token|password|passwd|api_?key/i.test(value)) return value;
  return value
    .replace(/\b(Bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi, `$1 ${CENSOR}`)
    .replace(SECRET_ASSIGNMENT, `$1=${CENSOR}`)
    .replace(SECRET_JSON_MEMBER, `$1"${CENSOR}"`);
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of `value` safe to log: errors serialized as pino does (type, message, stack, own
 * properties), then every secret key's value and every bearer token in a string replaced by
 * {@link CENSOR}. Objects with a `toJSON` (Decimal, Date) are kept as they are, other classes'
 * objects copied as JSON writes them (their own fields), anything deeper than 10 levels written as
 * `[too deep]`; the input is never changed.
 *
 * @param value - a log record, a binding or any value in one
 */
export function scrubLogValue(value: unknown): unknown {
  return scrub(value, 0, new WeakSet());
}

function scrub(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return scrubString(value);
  if (typeof value !== 'object' || value === null) return value;
  // deeper than the copy goes: not written at all (pino would write it, secrets and all)
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  try {
    // pino's error serializer gives an object of its own prototype: copied like a plain one.
    if (value instanceof Error) return copyEntries(stdSerializers.err(value), depth, seen);
    if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1, seen));
    // A value with a toJSON of its own (Decimal, Date, DateTime, a BrokerClient) is written as it
    // says; another class's object as JSON writes it, its own fields, which are copied.
    if (isPlainObject(value) || typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
      return copyEntries(value, depth, seen);
    }
    return value;
  } finally {
    seen.delete(value);
  }
}

function copyEntries(value: object, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = item !== undefined && isSecretKey(key) ? CENSOR : scrub(item, depth + 1, seen);
  }
  return copy;
}

/**
 * The `err` serializer: pino's, then scrubbed. A value already scrubbed (a plain object) is kept.
 *
 * @param value - what was logged under `err`
 */
export function scrubErrorSerializer(value: unknown): unknown {
  return value instanceof Error ? scrubLogValue(value) : value;
}

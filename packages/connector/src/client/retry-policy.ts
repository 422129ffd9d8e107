/**
 * When and how long to wait before repeating a request.
 *
 * @module
 */
import type { SchedulerLike } from 'rxjs';
import { ConflictError, NetworkError, NetworkFailure, RateLimitError, ServerError } from '../errors.js';

/** How a request may be repeated. */
export const RetryMode = {
  /** Reads: repeat on 429, 500 `internal-error` / `maintenance`, gateway errors and network errors. */
  IDEMPOTENT: 'idempotent',
  /** Order creation with a `clientOrderId`: as idempotent, plus 409 `request-in-progress`, inside its window. */
  KEYED_CREATE: 'keyed-create',
  /** Anything else that changes state: repeat only a 429 (the broker refused it before processing). */
  UNSAFE: 'unsafe',
} as const;
/** One of {@link RetryMode}. */
export type RetryMode = (typeof RetryMode)[keyof typeof RetryMode];

/**
 * Whether `error` may be repeated under `mode`.
 *
 * @param mode - how the request may be repeated
 * @param error - the failure
 */
export function isRetryable(mode: RetryMode, error: unknown): boolean {
  if (error instanceof RateLimitError) return true;
  if (mode === RetryMode.UNSAFE) return false;
  if (error instanceof NetworkError) return error.failure !== NetworkFailure.ABORTED && !isTlsMismatch(error);
  if (error instanceof ServerError) return error.retryable;
  if (error instanceof ConflictError)
    return mode === RetryMode.KEYED_CREATE && error.code === 'request-in-progress';
  return false;
}

/** Socket error codes meaning nothing listens at the address, or the name does not resolve. */
const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

function causeCode(error: unknown): string {
  if (!(error instanceof NetworkError)) return '';
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * Whether a failure means the broker's address is unreachable: the connection was refused or the
 * host name does not resolve.
 *
 * @param error - the failure
 */
export function isUnreachable(error: unknown): boolean {
  return UNREACHABLE_CODES.has(causeCode(error));
}

/**
 * Whether a failure is a TLS handshake that cannot succeed by repeating it: an `https://` address
 * served by a plain HTTP server, or a certificate the client refuses.
 *
 * @param error - the failure
 */
export function isTlsMismatch(error: unknown): boolean {
  const code = causeCode(error);
  return (
    code === 'EPROTO' ||
    code.startsWith('ERR_SSL') ||
    code.startsWith('ERR_TLS') ||
    code.includes('CERT') ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'SELF_SIGNED_CERT_IN_CHAIN'
  );
}

/** Back-off settings. */
export interface BackoffOptions {
  /** First step (the spec: 1 s). */
  readonly baseMs: number;
  /** Largest step. */
  readonly maxMs: number;
  /** Random source in [0, 1) for the jitter (injectable for tests). */
  readonly random?: () => number;
}

/**
 * The wait before retry number `attempt` (0 for the first retry): exponential steps
 * (`base`, `2·base`, `4·base`, ...) capped at `maxMs`, never shorter than a 429's `Retry-After`,
 * plus up to 20 % jitter.
 *
 * @param attempt - 0-based retry number
 * @param error - the failure being retried
 * @param options - steps and jitter
 */
export function backoffDelay(attempt: number, error: unknown, options: BackoffOptions): number {
  const step = Math.min(options.maxMs, options.baseMs * 2 ** attempt);
  const jitter = (options.random ?? Math.random)() * step * 0.2;
  const retryAfter = error instanceof RateLimitError ? (error.retryAfterMs ?? 0) : 0;
  if (attempt === 0 && retryAfter > 0) return retryAfter + jitter;
  return Math.max(step, retryAfter) + jitter;
}

/**
 * Waits `ms` on a scheduler, abortable.
 *
 * @param scheduler - timer source
 * @param ms - delay
 * @param signal - aborts the wait
 * @param endpoint - endpoint name for the abort error
 */
export function sleep(
  scheduler: SchedulerLike,
  ms: number,
  signal: AbortSignal | undefined,
  endpoint: string,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new NetworkError(endpoint, NetworkFailure.ABORTED, 'aborted while backing off'));
      return;
    }
    const onAbort = (): void => {
      sub.unsubscribe();
      reject(new NetworkError(endpoint, NetworkFailure.ABORTED, 'aborted while backing off'));
    };
    const sub = scheduler.schedule(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

import { describe, expect, it } from 'vitest';
import { ConflictError, NetworkError, RateLimitError, ServerError } from '../errors.js';
import { backoffDelay, isRetryable, RetryMode } from './retry-policy.js';

const init = { endpoint: 'e', status: 0, message: 'm', requestId: null };
const rateLimited = new RateLimitError({ ...init, status: 429, code: 'rate-limit-exceeded' }, 1000);
const internal = new ServerError({ ...init, status: 500, code: 'internal-error', retryable: true });
const timeout = new NetworkError('e', 'timeout', 'slow');
const aborted = new NetworkError('e', 'aborted', 'by caller');
const inProgress = new ConflictError({ ...init, status: 409, code: 'request-in-progress', retryable: true });

describe('isRetryable', () => {
  it.each([
    { mode: RetryMode.IDEMPOTENT, error: rateLimited, expected: true },
    { mode: RetryMode.IDEMPOTENT, error: internal, expected: true },
    { mode: RetryMode.IDEMPOTENT, error: timeout, expected: true },
    { mode: RetryMode.IDEMPOTENT, error: aborted, expected: false },
    { mode: RetryMode.IDEMPOTENT, error: inProgress, expected: false },
    { mode: RetryMode.KEYED_CREATE, error: inProgress, expected: true },
    { mode: RetryMode.KEYED_CREATE, error: timeout, expected: true },
    { mode: RetryMode.UNSAFE, error: rateLimited, expected: true },
    { mode: RetryMode.UNSAFE, error: internal, expected: false },
    { mode: RetryMode.UNSAFE, error: timeout, expected: false },
    { mode: RetryMode.IDEMPOTENT, error: new Error('bug'), expected: false },
  ])('$mode with $error.code → $expected', ({ mode, error, expected }) => {
    expect(isRetryable(mode, error)).toBe(expected);
  });
});

describe('backoffDelay', () => {
  const options = { baseMs: 1000, maxMs: 8000, random: () => 0 };

  it.each([
    { attempt: 0, expected: 1000 },
    { attempt: 1, expected: 2000 },
    { attempt: 2, expected: 4000 },
    { attempt: 3, expected: 8000 },
    { attempt: 6, expected: 8000 },
  ])('doubles from 1 s and caps (attempt $attempt → $expected ms)', ({ attempt, expected }) => {
    expect(backoffDelay(attempt, internal, options)).toBe(expected);
  });

  it('waits Retry-After first after a 429', () => {
    const long = new RateLimitError({ ...init, status: 429, code: 'rate-limit-exceeded' }, 3000);
    expect(backoffDelay(0, long, options)).toBe(3000);
    expect(backoffDelay(1, long, options)).toBe(3000);
    expect(backoffDelay(2, long, options)).toBe(4000);
  });

  it('adds up to 20 % jitter', () => {
    expect(backoffDelay(1, internal, { ...options, random: () => 0.999 })).toBeCloseTo(2000 * 1.1998, 0);
  });
});

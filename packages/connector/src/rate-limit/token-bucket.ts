/**
 * The state of one rate-limit group's token bucket and its arithmetic: refilling at the group's
 * rate up to its capacity (not before a 429's wait ends), and the safety margin kept behind the
 * server, grown by 429s and halving back every minute. The {@link RateLimiter} owns the buckets,
 * their queues and timers.
 *
 * @module
 */
import type { Subscription } from 'rxjs';
import type { RatePermit } from './rate-limiter.js';

/**
 * The client keeps at least this much refill time behind the server: clocks are read in whole ms
 * and requests reach the server with jitter (network, the server's own event loop). It delays only
 * the first request after the bucket ran dry (and the last request of a full burst); the steady
 * rate stays the full limit.
 */
export const SAFETY_MS = 50;
/** The margin grown after 429s never exceeds this. */
export const MAX_SAFETY_MS = 800;
/** The margin grown after a 429 halves back towards {@link SAFETY_MS} every this long. */
const SAFETY_HALF_LIFE_MS = 60_000;

/** A request waiting for a slot of a group. */
export interface Waiter {
  readonly priority: number;
  readonly seq: number;
  readonly resolve: (permit: RatePermit) => void;
  readonly reject: (error: unknown) => void;
  readonly cleanup: () => void;
}

/** One group's bucket, queue and timer. */
export interface Bucket {
  /** Tokens the server is thought to hold after every request that left, as of `lastRefill`. */
  tokens: number;
  lastRefill: number;
  /** Granted, not yet answered nor released: each holds a token. */
  pending: number;
  /** Margin above {@link SAFETY_MS} grown by 429s, as of `grownAt`. */
  extraSafetyMs: number;
  grownAt: number;
  /** Limit announced by `X-RateLimit-Limit` outside the peak window, if any. */
  serverLimit: number | null;
  /** Limit announced inside the peak window, if any. */
  serverPeakLimit: number | null;
  /** No request before this time (after a 429). */
  blockedUntil: number;
  queue: Waiter[];
  timer: Subscription | null;
  sent: number;
}

/**
 * A full bucket, as of `nowMs`.
 *
 * @param capacity - the group's burst capacity
 * @param nowMs - scheduler time
 */
export function newBucket(capacity: number, nowMs: number): Bucket {
  return {
    tokens: capacity,
    lastRefill: nowMs,
    pending: 0,
    extraSafetyMs: 0,
    grownAt: nowMs,
    serverLimit: null,
    serverPeakLimit: null,
    blockedUntil: 0,
    queue: [],
    timer: null,
    sent: 0,
  };
}

/**
 * The refill time kept behind the server at `nowMs`: {@link SAFETY_MS}, plus what 429s added,
 * halving every minute.
 *
 * @param bucket - the group's bucket
 * @param nowMs - scheduler time
 */
export function safetyMs(bucket: Bucket, nowMs: number): number {
  const age = Math.max(0, nowMs - bucket.grownAt);
  return SAFETY_MS + bucket.extraSafetyMs * 2 ** (-age / SAFETY_HALF_LIFE_MS);
}

/**
 * Adds the tokens earned since the last refill (none while a 429's wait lasts), capped at the
 * capacity.
 *
 * @param bucket - the group's bucket
 * @param nowMs - scheduler time
 * @param capacity - the group's burst capacity
 * @param ratePerMs - tokens earned per ms
 */
export function refillBucket(bucket: Bucket, nowMs: number, capacity: number, ratePerMs: number): void {
  const from = Math.max(bucket.lastRefill, Math.min(nowMs, bucket.blockedUntil));
  if (nowMs > from) bucket.tokens = Math.min(capacity, bucket.tokens + (nowMs - from) * ratePerMs);
  bucket.tokens = Math.min(bucket.tokens, capacity);
  bucket.lastRefill = nowMs;
}

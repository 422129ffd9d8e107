/**
 * The per-client token buckets behind the spec's rate-limit groups (the table itself is core's
 * `RATE_LIMITS`).
 * @module
 */
import { type GroupLimit, RATE_LIMITS, type RateLimitGroup } from '@hoga/core';

/** The outcome of one request against a bucket, with the values of the `X-RateLimit-*` headers. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  /** `X-RateLimit-Limit`: the current per-second limit (= burst capacity). */
  readonly limit: number;
  /** `X-RateLimit-Remaining`: whole tokens left after this request; 0 on a refusal. */
  readonly remaining: number;
  /** `X-RateLimit-Reset`: whole seconds (rounded up) until one more token is refilled; 0 when full. */
  readonly resetSeconds: number;
  /** `Retry-After` for a refusal (whole seconds, at least 1); null when allowed. */
  readonly retryAfterSeconds: number | null;
}

/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** When false every request is allowed; headers still show the nominal limit. Default true. */
  readonly enabled?: boolean;
  /** Monotonic wall time in milliseconds; buckets refill in real time. Default `performance.now()`. */
  readonly nowMs?: () => number;
  /** Limits per group; default {@link RATE_LIMITS}. */
  readonly limits?: Readonly<Record<RateLimitGroup, GroupLimit>>;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * Token buckets per client and group. Capacity and refill rate both equal the
 * group's current per-second limit; in the peak window the lower limit caps
 * the bucket. The caller says whether the peak window applies (it is decided
 * on the simulated clock, while refill runs on wall time).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly enabled: boolean;
  private readonly nowMs: () => number;
  private readonly limits: Readonly<Record<RateLimitGroup, GroupLimit>>;

  constructor(options: RateLimiterOptions = {}) {
    this.enabled = options.enabled ?? true;
    this.nowMs = options.nowMs ?? (() => performance.now());
    this.limits = options.limits ?? RATE_LIMITS;
  }

  /** The per-second limit of `group` now, given whether the peak window applies. */
  limitOf(group: RateLimitGroup, peak: boolean): number {
    const entry = this.limits[group];
    return peak && entry.peakPerSecond !== null ? entry.peakPerSecond : entry.perSecond;
  }

  /** Takes one token from the bucket of `clientKey` and `group`, or refuses. */
  take(clientKey: string, group: RateLimitGroup, peak: boolean): RateLimitDecision {
    const limit = this.limitOf(group, peak);
    if (!this.enabled) {
      return { allowed: true, limit, remaining: limit, resetSeconds: 0, retryAfterSeconds: null };
    }
    const bucket = this.refill(`${clientKey}\u0000${group}`, limit);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, limit, ...this.status(bucket, limit), retryAfterSeconds: null };
    }
    const wait = Math.max(1, Math.ceil((1 - bucket.tokens) / limit));
    return { allowed: false, limit, remaining: 0, resetSeconds: wait, retryAfterSeconds: wait };
  }

  /**
   * A refusal as a burst fault reports it: the bucket is reported empty
   * without touching it.
   */
  refuse(group: RateLimitGroup, peak: boolean): RateLimitDecision {
    const limit = this.limitOf(group, peak);
    return { allowed: false, limit, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 };
  }

  /** Forgets every bucket (all start full again). */
  reset(): void {
    this.buckets.clear();
  }

  private refill(key: string, limit: number): Bucket {
    const now = this.nowMs();
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: limit, updatedMs: now };
      this.buckets.set(key, bucket);
      return bucket;
    }
    const elapsedSeconds = Math.max(0, now - bucket.updatedMs) / 1000;
    bucket.tokens = Math.min(limit, bucket.tokens + elapsedSeconds * limit);
    bucket.updatedMs = now;
    return bucket;
  }

  private status(bucket: Bucket, limit: number): { remaining: number; resetSeconds: number } {
    const remaining = Math.floor(bucket.tokens);
    const resetSeconds = bucket.tokens >= limit ? 0 : Math.ceil((1 - (bucket.tokens % 1)) / limit);
    return { remaining, resetSeconds };
  }
}

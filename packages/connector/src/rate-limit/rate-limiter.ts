/**
 * Client-side rate limiting: a token bucket per group with the spec's limits (lower ones in the
 * 09:00–09:10 KST peak window), corrected by the `X-RateLimit-*` headers and paused by 429s, and a
 * priority queue per group so that cancels and creates go ahead of polling.
 *
 * The bucket models the server's, which counts a request when it arrives: somewhere between the
 * moment it left and the moment its answer came back. A granted request holds its token from its
 * turn until its answer ({@link RatePermit.answered}), so nothing is granted on its account while
 * it may still be on its way, and its token is spent at the answer: the latest instant the server
 * can have counted it, which leaves the bucket (capped like the server's) with the fewest tokens
 * any arrival time could give. A burst that reaches the server late, behind a busy event loop or
 * network, so never makes the next request leave into an empty bucket.
 *
 * @module
 */
import { type Clock, type GroupLimit, isPeakWindow, RATE_LIMITS, type RateLimitGroup } from '@hoga/core';
import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';
import { NetworkError, NetworkFailure } from '../errors.js';
import type { RateShare } from './process-rate-share.js';
import type { RequestPriority } from './rate-limit-groups.js';
import {
  type Bucket,
  MAX_SAFETY_MS,
  newBucket,
  refillBucket,
  SAFETY_MS,
  safetyMs,
  type Waiter,
} from './token-bucket.js';

/** A request that left this long ago without an answer is taken to have reached the server. */
const MAX_IN_FLIGHT_MS = 1_000;

/**
 * A granted request slot. Call {@link RatePermit.depart} right before the request is written and
 * {@link RatePermit.answered} when its answer (or its failure) comes back, or
 * {@link RatePermit.release} when it will not be sent; the slot is held until `answered` or
 * `release`.
 */
export interface RatePermit {
  /** The request leaves now (the slot stays held until its answer). */
  depart(): void;
  /** The answer (or a failure after leaving) came back: the token is spent at this instant. */
  answered(): void;
  /**
   * The request will not be sent (failed or aborted before leaving): the slot is given back. After
   * {@link RatePermit.depart} it counts as {@link RatePermit.answered}. Later calls do nothing.
   */
  release(): void;
  /**
   * The server refused this request with a 429: the group waits `retryAfterMs` (or one token's
   * time) and, since the bucket let it go, its safety margin grows (it shrinks back over minutes).
   *
   * @param retryAfterMs - the `Retry-After` wait, or null
   */
  refused(retryAfterMs: number | null): void;
}

/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Domain clock, for the KST peak window. */
  readonly clock: Clock;
  /** Timers and elapsed time (default `asyncScheduler`; a `TestScheduler` in tests). */
  readonly scheduler?: SchedulerLike;
  /** Limits per group (default: the spec's table). */
  readonly limits?: Partial<Record<RateLimitGroup, GroupLimit>>;
  /** Fraction of each limit to use (default 1). */
  readonly utilization?: number;
  /** Adopt the limits announced by `X-RateLimit-Limit` (default true). */
  readonly followServerLimits?: boolean;
  /**
   * This process's share of the client's limits, when other processes of the client use them too
   * (`ProcessRateShare`): the buckets refill at that fraction of each limit and hold that fraction
   * of its burst, at least one request. Default: the whole limits.
   */
  readonly share?: RateShare;
}

/** Per-group token buckets with priority queues. */
export class RateLimiter {
  private readonly buckets = new Map<RateLimitGroup, Bucket>();
  private readonly scheduler: SchedulerLike;
  private readonly limits: Readonly<Record<RateLimitGroup, GroupLimit>>;
  private readonly utilization: number;
  private seq = 0;
  /** This process's share of the limits as last read (see {@link RateLimiterOptions.share}). */
  private fraction = 1;
  private peakSecond = Number.NaN;
  private peak = false;

  /** @param options - clock, scheduler, limits */
  constructor(private readonly options: RateLimiterOptions) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.limits = { ...RATE_LIMITS, ...options.limits };
    this.utilization = options.utilization ?? 1;
  }

  /**
   * The requests per second currently allowed for a group: the server's announced limit when
   * known, else the table's, lowered to the peak limit inside 09:00–09:10 KST.
   *
   * @param group - rate-limit group
   */
  limitOf(group: RateLimitGroup): number {
    const table = this.limits[group];
    const bucket = this.buckets.get(group);
    if (this.inPeak(group)) return bucket?.serverPeakLimit ?? table.peakPerSecond ?? table.perSecond;
    return bucket?.serverLimit ?? table.perSecond;
  }

  /**
   * The requests a second this process may send in a group now: {@link limitOf} at the configured
   * utilization, of this process's share of the client's limits.
   *
   * @param group - rate-limit group
   */
  rateOf(group: RateLimitGroup): number {
    this.syncShare();
    return this.limitOf(group) * this.utilization * this.fraction;
  }

  /**
   * Waits for a token of `group` and spends it at once (the request leaves as soon as this
   * resolves). A caller with work to do between its turn and sending, or that can tell when the
   * answer came, uses {@link reserve}.
   *
   * @param group - rate-limit group
   * @param priority - queue priority
   * @param signal - aborts the wait (rejects with a `network-aborted` error)
   * @param endpoint - endpoint name for the abort error
   */
  async acquire(
    group: RateLimitGroup,
    priority: RequestPriority,
    signal?: AbortSignal,
    endpoint: string = group,
  ): Promise<void> {
    (await this.reserve(group, priority, signal, endpoint)).answered();
  }

  /**
   * Waits for a slot of `group`. Waiters of a lower `priority` number go first; equal priorities
   * are served in arrival order. The slot's token is spent when the permit departs.
   *
   * @param group - rate-limit group
   * @param priority - queue priority
   * @param signal - aborts the wait (rejects with a `network-aborted` error)
   * @param endpoint - endpoint name for the abort error
   */
  reserve(
    group: RateLimitGroup,
    priority: RequestPriority,
    signal?: AbortSignal,
    endpoint: string = group,
  ): Promise<RatePermit> {
    if (signal?.aborted) {
      return Promise.reject(
        new NetworkError(endpoint, NetworkFailure.ABORTED, 'aborted while waiting for a rate-limit token'),
      );
    }
    // a request is asked for: this process counts among the client's from now on (idempotent; a
    // refill's timer, a header or a 429 drains the queue without one)
    this.options.share?.join();
    const bucket = this.bucket(group);
    return new Promise<RatePermit>((resolve, reject) => {
      const onAbort = (): void => {
        bucket.queue = bucket.queue.filter((w) => w !== waiter);
        reject(
          new NetworkError(endpoint, NetworkFailure.ABORTED, 'aborted while waiting for a rate-limit token'),
        );
        this.drain(group);
      };
      const waiter: Waiter = {
        priority,
        seq: this.seq++,
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const at = bucket.queue.findIndex((w) => w.priority > priority);
      if (at === -1) bucket.queue.push(waiter);
      else bucket.queue.splice(at, 0, waiter);
      this.drain(group);
    });
  }

  /**
   * Corrects a group's bucket from a response's headers: `X-RateLimit-Limit` becomes the limit
   * (inside or outside the peak window; a value below 1 is ignored) and `X-RateLimit-Remaining` caps the local tokens.
   *
   * @param group - rate-limit group
   * @param headers - response headers (lower-case names)
   */
  observe(group: RateLimitGroup, headers: Readonly<Record<string, string | undefined>>): void {
    const bucket = this.bucket(group);
    this.refill(group, bucket);
    const limit = Number(headers['x-ratelimit-limit']);
    const follow = this.options.followServerLimits ?? true;
    // below one request a second the header is no limit a bucket can follow (a burst capacity that
    // never holds a whole request): 1e-9 stopped the group for 31 years, on a timer that overflowed
    if (follow && headers['x-ratelimit-limit'] !== undefined && Number.isFinite(limit) && limit >= 1) {
      // A limit seen inside the peak window says nothing about the limit outside it.
      if (!this.inPeak(group)) bucket.serverLimit = limit;
      else bucket.serverPeakLimit = limit;
    }
    const remaining = Number(headers['x-ratelimit-remaining']);
    if (headers['x-ratelimit-remaining'] !== undefined && Number.isFinite(remaining) && remaining >= 0) {
      // The header is the server's whole tokens (rounded down) after that request: the server has
      // fewer than remaining + 1. Later sends are already taken from the local bucket.
      bucket.tokens = Math.min(bucket.tokens, remaining + 1 + this.margin(group));
    }
    this.drain(group);
  }

  /**
   * Stops a group after a 429 until `retryAfterMs` has passed, emptying its bucket.
   *
   * @param group - rate-limit group
   * @param retryAfterMs - the `Retry-After` wait, or null for one token's time
   */
  penalize(group: RateLimitGroup, retryAfterMs: number | null): void {
    const bucket = this.bucket(group);
    const now = this.scheduler.now();
    this.refill(group, bucket);
    const wait = retryAfterMs ?? 1 / this.ratePerMs(group);
    bucket.tokens = 0;
    bucket.lastRefill = now;
    bucket.blockedUntil = Math.max(bucket.blockedUntil, now + wait);
    this.drain(group);
  }

  /**
   * The refill time currently kept behind the server for a group, in ms: {@link SAFETY_MS}, plus
   * what 429s added, halving every minute.
   *
   * @param group - rate-limit group
   */
  safetyMarginMs(group: RateLimitGroup): number {
    const bucket = this.buckets.get(group);
    return bucket === undefined ? SAFETY_MS : this.safetyMs(bucket);
  }

  /** Number of tokens granted per group since creation (for figures). */
  grantedCounts(): Readonly<Partial<Record<RateLimitGroup, number>>> {
    const out: Partial<Record<RateLimitGroup, number>> = {};
    for (const [group, bucket] of this.buckets) out[group] = bucket.sent;
    return out;
  }

  /** Number of requests waiting for a token in a group. */
  queueLength(group: RateLimitGroup): number {
    return this.buckets.get(group)?.queue.length ?? 0;
  }

  /** Cancels every timer and rejects every waiter (on shutdown). */
  dispose(): void {
    for (const [group, bucket] of this.buckets) {
      bucket.timer?.unsubscribe();
      bucket.timer = null;
      for (const waiter of bucket.queue.splice(0)) {
        waiter.cleanup();
        waiter.reject(new NetworkError(group, NetworkFailure.ABORTED, 'rate limiter disposed'));
      }
    }
  }

  /**
   * Burst capacity: the limit, or this process's share of it (at least one request). (Not more: a
   * bucket fuller than the server's would spend the safety margin on the first burst.)
   */
  private capacity(group: RateLimitGroup): number {
    return this.fraction === 1 ? this.limitOf(group) : Math.max(1, this.limitOf(group) * this.fraction);
  }

  /**
   * Reads this process's share of the limits again. When it shrank (another process of the client
   * started), every bucket is emptied: the broker's buckets may hold nothing the others left, and
   * a newcomer's burst into them, or the others' next requests at their old pace, would meet 429s;
   * emptied, each process waits for its refill at its share of the rate first.
   */
  private syncShare(): void {
    const share = this.options.share;
    if (share === undefined) return;
    const fraction = share.fraction();
    if (fraction < this.fraction) {
      const now = this.scheduler.now();
      for (const [group, bucket] of this.buckets) {
        this.refill(group, bucket);
        bucket.tokens = Math.min(bucket.tokens, 0);
        bucket.lastRefill = now;
      }
    }
    this.fraction = fraction;
  }

  /** The safety margin in tokens. */
  private margin(group: RateLimitGroup): number {
    return this.safetyMs(this.bucket(group)) * this.ratePerMs(group);
  }

  private safetyMs(bucket: Bucket): number {
    return safetyMs(bucket, this.scheduler.now());
  }

  /** The permit handed to a granted waiter (see {@link RatePermit}). */
  private permit(group: RateLimitGroup, bucket: Bucket): RatePermit {
    let held = true;
    let departed = false;
    let arrivalTimer: Subscription | null = null;
    const settle = (spend: boolean): void => {
      if (!held) return;
      held = false;
      arrivalTimer?.unsubscribe();
      this.refill(group, bucket);
      bucket.pending--;
      if (spend) bucket.tokens -= 1;
      this.drain(group);
    };
    return {
      depart: () => {
        if (!held || departed) return;
        departed = true;
        // A request not answered within MAX_IN_FLIGHT_MS has reached the server by then (a slow
        // handler, a long read): its token is spent, so that hung requests do not block the group.
        arrivalTimer = this.scheduler.schedule(() => settle(true), MAX_IN_FLIGHT_MS);
      },
      answered: () => settle(true),
      release: () => settle(departed),
      refused: (retryAfterMs) => {
        settle(true);
        const doubled = Math.min(MAX_SAFETY_MS, 2 * this.safetyMs(bucket));
        bucket.extraSafetyMs = doubled - SAFETY_MS;
        bucket.grownAt = this.scheduler.now();
        this.penalize(group, retryAfterMs);
      },
    };
  }

  private inPeak(group: RateLimitGroup): boolean {
    if (this.limits[group].peakPerSecond === null) return false;
    // Reading the clock as a KST DateTime is costly; the answer changes at most once a second.
    const second = Math.floor(this.options.clock.nowMs() / 1000);
    if (second !== this.peakSecond) {
      this.peakSecond = second;
      this.peak = isPeakWindow(this.options.clock.now());
    }
    return this.peak;
  }

  private ratePerMs(group: RateLimitGroup): number {
    return (this.limitOf(group) * this.utilization * this.fraction) / 1000;
  }

  private bucket(group: RateLimitGroup): Bucket {
    let bucket = this.buckets.get(group);
    if (bucket === undefined) {
      bucket = newBucket(this.capacity(group), this.scheduler.now());
      this.buckets.set(group, bucket);
    }
    return bucket;
  }

  private refill(group: RateLimitGroup, bucket: Bucket): void {
    refillBucket(bucket, this.scheduler.now(), this.capacity(group), this.ratePerMs(group));
  }

  private drain(group: RateLimitGroup): void {
    this.syncShare();
    const bucket = this.bucket(group);
    this.refill(group, bucket);
    const now = this.scheduler.now();
    const capacity = this.capacity(group);
    // A token must be whole plus the safety margin (see SAFETY_MS), over what granted requests
    // that have not left yet will spend.
    const needed = Math.min(1 + this.margin(group), capacity);
    while (
      bucket.queue.length > 0 &&
      now >= bucket.blockedUntil &&
      bucket.tokens - bucket.pending >= needed - 1e-9
    ) {
      const waiter = bucket.queue.shift()!;
      bucket.pending++;
      bucket.sent++;
      waiter.cleanup();
      waiter.resolve(this.permit(group, bucket));
    }
    bucket.timer?.unsubscribe();
    bucket.timer = null;
    if (bucket.queue.length === 0) return;
    const blocked = Math.max(0, bucket.blockedUntil - now);
    // Refill alone cannot free a token held by a request that has not left: its departure drains.
    const byRefill = capacity - bucket.pending >= needed - 1e-9;
    if (blocked === 0 && !byRefill) return;
    const untilToken = byRefill
      ? Math.max(0, (needed - (bucket.tokens - bucket.pending)) / this.ratePerMs(group))
      : 0;
    const delay = Math.max(blocked, untilToken, 1);
    bucket.timer = this.scheduler.schedule(() => {
      bucket.timer = null;
      this.drain(group);
    }, Math.ceil(delay));
  }
}

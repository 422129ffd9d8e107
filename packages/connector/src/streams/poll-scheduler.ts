/**
 * Shares each rate-limit group's request budget fairly among all polling subscriptions: jobs of a
 * group take turns (the one polled longest ago goes next), dispatched at the group's rate, so 40 orderbook subscriptions on
 * a 10-per-second group are each refreshed about every 4 s. Jobs tied to a market are skipped
 * while that market is closed, unless asked otherwise; a closed market is looked at again at its
 * next open when the market hours know it (converted to real time at the clock's speed, and worked
 * out again whenever the clock's speed or time is changed), and every 30 real seconds at the
 * latest. A look judges the market closed and finds its next open at one reading of the clock, and
 * counts the wait from the clock read again after: a look that stalled (a loaded machine) until
 * the open passed looks again at once (before, the open was asked for after the stall, the next
 * one was found, the regular session's an hour later, and the market was looked at again only 30
 * real s later). No timer, no clock listener and no request is left once the last subscription ends.
 *
 * @module
 */
import type { Market, RateLimitGroup } from '@hoga/core';
import {
  asyncScheduler,
  from,
  Observable,
  type ObservableInput,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';

/** How soon a job whose market's hours are not known yet looks again. */
const UNKNOWN_RECHECK_MS = 100;
/** How soon (real ms) at the latest a job of a closed market looks again, by default. */
const CLOSED_RECHECK_MS = 30_000;

/** The clock a market's hours are judged on, as the poll scheduler reads it (core's clocks fit). */
export interface PollClock {
  /** The current instant, epoch ms. */
  nowMs(): number;
  /** Clock ms per real ms (a scaled clock's speed; taken as 1 when absent). */
  getSpeed?(): number;
  /** Calls `listener` after the clock's speed or time was changed by hand; returns its removal. */
  onChange?(listener: () => void): () => void;
}

/** One polling job. */
export interface PollJobSpec<T> {
  /** The group whose budget the job spends. */
  readonly group: RateLimitGroup;
  /** Name for error reports, e.g. `orderbook:005930`. */
  readonly key: string;
  /** One poll; the signal aborts it when the last subscriber leaves. */
  readonly fetch: (signal: AbortSignal) => ObservableInput<T>;
  /** Least time between two polls of this job (default 0: as often as its fair share allows). */
  readonly minIntervalMs?: number;
  /**
   * Least time between two polls of this job on the scheduler's `clock` (ms of its time, waited at
   * its speed): for what the broker refreshes on its own clock (the exchange rate every minute, the
   * calendars), which a clock running 30 times faster than real time (a simulator sped up) polls 30
   * times as often in real time. In real time on a clock frozen or at its real speed, or without a
   * clock. The longer of this and `minIntervalMs` counts.
   */
  readonly minClockIntervalMs?: number;
  /** Skip while this market is closed (unless the scheduler polls closed markets). */
  readonly market?: Market;
  /**
   * Keep polling this long (clock ms) after the market's session ended: a minute candle ending at
   * the close completes at that instant, and only a poll after it sees it complete (default 0).
   */
  readonly closeGraceMs?: number;
}

/** Options of {@link PollScheduler}. */
export interface PollSchedulerOptions {
  /** Requests per second the group's polling may use (normally the rate limiter's current limit). */
  readonly rateOf: (group: RateLimitGroup) => number;
  /** Timers and elapsed time; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /**
   * Whether a market is open at `atMs` (epoch ms on `clock`, the scheduler's reading of it for this
   * look; undefined without a clock: now); `undefined` means not known yet (asked again after
   * 100 ms). Default: always open.
   */
  readonly isMarketOpen?: (market: Market, graceMs?: number, atMs?: number) => boolean | undefined;
  /**
   * When a market found closed at `afterMs` (the same reading of `clock`) opens next: the first
   * open strictly after that instant, whatever the clock shows by now (epoch ms); null or undefined
   * when not known (the market is then looked at again after `closedRecheckMs`). Needs `clock`.
   */
  readonly nextOpenMs?: (market: Market, afterMs: number) => number | null | undefined;
  /** The clock `isMarketOpen` and `nextOpenMs` answer by: the wait for an open is in its time. */
  readonly clock?: PollClock;
  /** Poll market-bound jobs while their market is closed (default false). */
  readonly pollClosedMarkets?: boolean;
  /**
   * How long (real ms) at the longest a job of a closed market waits before it looks again
   * (default 30 s); it looks sooner when the market opens sooner (`nextOpenMs`).
   */
  readonly closedRecheckMs?: number;
  /** Polls of one group in flight at once (default 2). */
  readonly maxInFlight?: number;
  /** Receives a failed poll; the job goes on with its next turn. */
  readonly onError?: (error: unknown, key: string) => void;
  /** Called when the last job of every group has ended (to stop work polling depends on). */
  readonly onIdle?: () => void;
}

interface Job {
  readonly spec: PollJobSpec<unknown>;
  readonly emit: (value: unknown) => void;
  lastStart: number;
  running: Subscription | null;
  abort: AbortController | null;
}

interface GroupState {
  readonly jobs: Job[];
  inFlight: number;
  /** Earliest time of the next dispatch (ideal slots, so timer lateness does not lower the rate). */
  nextSlot: number;
  timer: Subscription | null;
  pumping: boolean;
  again: boolean;
  dispatched: number;
}

/** See the module description. */
export class PollScheduler {
  private readonly groups = new Map<RateLimitGroup, GroupState>();
  private readonly scheduler: SchedulerLike;
  /** Removes the listener of the clock's changes (set while any job is active). */
  private leaveClock: (() => void) | null = null;

  /** @param options - rates, scheduler, market hours */
  constructor(private readonly options: PollSchedulerOptions) {
    this.scheduler = options.scheduler ?? asyncScheduler;
  }

  /**
   * A cold observable of the job's poll results. Each subscription is one job; share it yourself
   * (the streams share one per key).
   *
   * @param spec - the job
   */
  poll$<T>(spec: PollJobSpec<T>): Observable<T> {
    return new Observable<T>((subscriber) => {
      const job: Job = {
        spec: spec as PollJobSpec<unknown>,
        emit: (value) => subscriber.next(value as T),
        lastStart: Number.NEGATIVE_INFINITY,
        running: null,
        abort: null,
      };
      const group = this.group(spec.group);
      group.jobs.push(job);
      this.followClock();
      this.pump(spec.group);
      return () => this.remove(spec.group, job);
    });
  }

  /** Number of polls dispatched per group so far. */
  dispatchedCounts(): Readonly<Partial<Record<RateLimitGroup, number>>> {
    const out: Partial<Record<RateLimitGroup, number>> = {};
    for (const [name, g] of this.groups) out[name] = g.dispatched;
    return out;
  }

  /** Number of active jobs and pending timers (0 and 0 once every subscription ended). */
  activity(): { readonly jobs: number; readonly timers: number; readonly inFlight: number } {
    let jobs = 0;
    let timers = 0;
    let inFlight = 0;
    for (const g of this.groups.values()) {
      jobs += g.jobs.length;
      timers += g.timer === null ? 0 : 1;
      inFlight += g.inFlight;
    }
    return { jobs, timers, inFlight };
  }

  private group(name: RateLimitGroup): GroupState {
    let g = this.groups.get(name);
    if (g === undefined) {
      g = {
        jobs: [],
        inFlight: 0,
        nextSlot: Number.NEGATIVE_INFINITY,
        timer: null,
        pumping: false,
        again: false,
        dispatched: 0,
      };
      this.groups.set(name, g);
    }
    return g;
  }

  private remove(name: RateLimitGroup, job: Job): void {
    const g = this.group(name);
    const at = g.jobs.indexOf(job);
    if (at !== -1) g.jobs.splice(at, 1);
    if (job.running !== null) {
      const running = job.running;
      job.running = null;
      g.inFlight--;
      job.abort?.abort();
      running.unsubscribe();
    }
    if (g.jobs.length === 0) {
      g.timer?.unsubscribe();
      g.timer = null;
      if ([...this.groups.values()].every((other) => other.jobs.length === 0)) {
        this.leaveClock?.();
        this.leaveClock = null;
        this.options.onIdle?.();
      }
    }
  }

  /**
   * Listens to the clock's changes while jobs are active: a new speed or a jump moves a closed
   * market's next open in real time, so every group looks again (at once, on the scheduler).
   */
  private followClock(): void {
    const clock = this.options.clock;
    if (this.leaveClock !== null || clock?.onChange === undefined || this.options.nextOpenMs === undefined) {
      return;
    }
    this.leaveClock = clock.onChange(() => {
      for (const [name, g] of this.groups) {
        if (g.jobs.length === 0) continue;
        if (g.pumping) {
          g.again = true;
          continue;
        }
        g.timer?.unsubscribe();
        g.timer = this.scheduler.schedule(() => {
          g.timer = null;
          this.pump(name);
        });
      }
    });
  }

  private pump(name: RateLimitGroup): void {
    const g = this.group(name);
    if (g.pumping) {
      g.again = true;
      return;
    }
    g.pumping = true;
    try {
      do {
        g.again = false;
        this.pumpOnce(name, g);
      } while (g.again);
    } finally {
      g.pumping = false;
    }
  }

  private pumpOnce(name: RateLimitGroup, g: GroupState): void {
    g.timer?.unsubscribe();
    g.timer = null;
    if (g.jobs.length === 0) return;
    const now = this.scheduler.now();
    const spacing = 1000 / Math.max(0.001, this.options.rateOf(name));
    const maxInFlight = this.options.maxInFlight ?? 2;
    let wakeAt = Number.POSITIVE_INFINITY;
    while (g.inFlight < maxInFlight) {
      if (now < g.nextSlot) {
        wakeAt = g.nextSlot;
        break;
      }
      const picked = this.pick(g, now);
      if (picked.job === null) {
        wakeAt = picked.nextDue;
        break;
      }
      // Keep to ideal slots while only slightly late; after an idle spell start afresh.
      g.nextSlot = now - g.nextSlot < spacing ? g.nextSlot + spacing : now + spacing;
      this.dispatch(name, g, picked.job, now);
    }
    if (Number.isFinite(wakeAt) && g.jobs.length > 0) {
      g.timer = this.scheduler.schedule(
        () => {
          g.timer = null;
          this.pump(name);
        },
        Math.max(0, wakeAt - now),
      );
    }
  }

  /** The due job polled longest ago (fair by construction), or when the next one is due. */
  private pick(g: GroupState, now: number): { job: Job | null; nextDue: number } {
    let nextDue = Number.POSITIVE_INFINITY;
    let best: Job | null = null;
    for (const job of g.jobs) {
      if (job.running !== null) continue;
      const market = job.spec.market;
      if (market !== undefined && !this.options.pollClosedMarkets && this.options.isMarketOpen) {
        // one reading for both questions: the open found is the one after the instant judged
        const atMs = this.options.clock?.nowMs();
        const open = this.options.isMarketOpen(market, job.spec.closeGraceMs, atMs);
        if (open !== true) {
          nextDue = Math.min(
            nextDue,
            now + (open === false ? this.closedWaitMs(market, atMs) : UNKNOWN_RECHECK_MS),
          );
          continue;
        }
      }
      const due = job.lastStart + this.minIntervalOf(job.spec);
      if (due > now) nextDue = Math.min(nextDue, due);
      else if (best === null || job.lastStart < best.lastStart) best = job;
    }
    return { job: best, nextDue };
  }

  /** The least real time between two polls of a job (see {@link PollJobSpec.minClockIntervalMs}). */
  private minIntervalOf(spec: PollJobSpec<unknown>): number {
    const real = spec.minIntervalMs ?? 0;
    const onClock = spec.minClockIntervalMs;
    if (onClock === undefined) return real;
    const speed = this.options.clock?.getSpeed?.() ?? 1;
    return Math.max(real, speed > 0 ? onClock / speed : onClock);
  }

  /**
   * How long (real ms) a job of a market found closed at `closedAtMs` (clock ms) waits before it
   * looks again: until the market's next open after that instant at the clock's speed, counted
   * from the clock read again now (the look may have stalled: past the open, it looks again at
   * once), at most `closedRecheckMs` (the speed can change, the open be unknown);
   * `closedRecheckMs` too while the clock is frozen or the open is not after that instant.
   */
  private closedWaitMs(market: Market, closedAtMs: number | undefined): number {
    const recheck = this.options.closedRecheckMs ?? CLOSED_RECHECK_MS;
    const clock = this.options.clock;
    if (clock === undefined || closedAtMs === undefined) return recheck;
    const openMs = this.options.nextOpenMs?.(market, closedAtMs);
    if (openMs === undefined || openMs === null) return recheck;
    const speed = clock.getSpeed?.() ?? 1;
    if (!(speed > 0) || openMs <= closedAtMs) return recheck;
    return Math.min(recheck, Math.max(1, Math.ceil((openMs - clock.nowMs()) / speed)));
  }

  private dispatch(name: RateLimitGroup, g: GroupState, job: Job, now: number): void {
    job.lastStart = now;
    g.inFlight++;
    g.dispatched++;
    const abort = new AbortController();
    job.abort = abort;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      if (job.running === null && !g.jobs.includes(job)) return;
      job.running = null;
      job.abort = null;
      g.inFlight--;
      this.pump(name);
    };
    job.running = { unsubscribe: () => undefined } as Subscription;
    const subscription = from(job.spec.fetch(abort.signal)).subscribe({
      next: (value) => job.emit(value),
      error: (error: unknown) => {
        this.options.onError?.(error, job.spec.key);
        finish();
      },
      complete: finish,
    });
    if (!done) job.running = subscription;
  }
}

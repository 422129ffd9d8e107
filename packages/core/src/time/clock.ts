/**
 * Clocks. Domain and engine code never read the system time directly: they receive a {@link Clock}.
 *
 * @module
 */
import { DateTime } from 'luxon';
import { ValidationError } from '../errors.js';
import { KST_ZONE } from './zones.js';

/** Source of the current time. */
export interface Clock {
  /** The current instant, in KST. */
  now(): DateTime;
  /** The current instant as epoch milliseconds. */
  nowMs(): number;
}

/** An instant given as a DateTime, an ISO 8601 string with offset, or epoch milliseconds. */
export type InstantInput = DateTime | string | number;

function toMs(at: InstantInput, field: string): number {
  const ms =
    typeof at === 'number'
      ? at
      : typeof at === 'string'
        ? DateTime.fromISO(at, { setZone: true }).toMillis()
        : at.isValid
          ? at.toMillis()
          : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new ValidationError(field, `${field}: expected a valid instant, found ${String(at)}`);
  }
  return ms;
}

function fromMs(ms: number): DateTime {
  return DateTime.fromMillis(ms, { zone: KST_ZONE });
}

/** The real wall clock. */
export class LiveClock implements Clock {
  /** @inheritdoc */
  now(): DateTime {
    return fromMs(Date.now());
  }

  /** @inheritdoc */
  nowMs(): number {
    return Date.now();
  }
}

/** A clock that moves only when told to (for tests and backtests). */
export class VirtualClock implements Clock {
  // a number from the start (NaN until the constructor sets it): a field declared without a value
  // starts as `undefined`, and V8 would then box every instant written into it (16 bytes per set)
  private ms = Number.NaN;

  /** @param start - initial instant (defaults to the epoch) */
  constructor(start: InstantInput = 0) {
    this.ms = toMs(start, 'start');
  }

  /** @inheritdoc */
  now(): DateTime {
    return fromMs(this.ms);
  }

  /** @inheritdoc */
  nowMs(): number {
    return this.ms;
  }

  /** Jumps to an instant (backwards allowed). */
  set(at: InstantInput): void {
    this.ms = toMs(at, 'at');
  }

  /**
   * Moves forward by `ms` milliseconds.
   *
   * @throws {@link ValidationError} for a negative or non-finite step
   */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new ValidationError('ms', `advance: expected a non-negative number of ms, found ${ms}`);
    }
    this.ms += ms;
  }
}

/** Options of {@link ScaledClock}. */
export interface ScaledClockOptions {
  /** Simulated instant at construction. */
  readonly start: InstantInput;
  /** Simulated seconds per real second (default 1; 0 freezes the clock). */
  readonly speed?: number;
  /** Real time source in epoch ms (default `Date.now`); inject for tests. */
  readonly realNowMs?: () => number;
}

/**
 * A clock that starts at a chosen instant and runs at `speed` simulated seconds per real second.
 *
 * @example
 * ```ts
 * const clock = new ScaledClock({ start: '2026-11-23T08:59:00+09:00', speed: 60 });
 * ```
 */
export class ScaledClock implements Clock {
  private readonly realNowMs: () => number;
  private anchorReal: number;
  private anchorSim: number;
  private speed: number;
  private readonly listeners = new Set<() => void>();

  /** @param options - start instant, speed and real time source */
  constructor(options: ScaledClockOptions) {
    this.realNowMs = options.realNowMs ?? Date.now;
    this.speed = checkSpeed(options.speed ?? 1);
    this.anchorSim = toMs(options.start, 'start');
    this.anchorReal = this.realNowMs();
  }

  /** @inheritdoc */
  now(): DateTime {
    return fromMs(this.nowMs());
  }

  /** @inheritdoc */
  nowMs(): number {
    return Math.floor(this.anchorSim + (this.realNowMs() - this.anchorReal) * this.speed);
  }

  /** Current speed (simulated seconds per real second). */
  getSpeed(): number {
    return this.speed;
  }

  /** Jumps to an instant; the clock keeps running from there at the current speed. */
  set(at: InstantInput): void {
    this.anchorSim = toMs(at, 'at');
    this.anchorReal = this.realNowMs();
    this.changed();
  }

  /** Moves the simulated time forward by `ms` milliseconds. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new ValidationError('ms', `advance: expected a non-negative number of ms, found ${ms}`);
    }
    this.rebase();
    this.anchorSim += ms;
    this.changed();
  }

  /** Changes the speed from now on, without a jump in simulated time. */
  setSpeed(speed: number): void {
    const checked = checkSpeed(speed);
    this.rebase();
    this.speed = checked;
    this.changed();
  }

  /**
   * Calls `listener` after each change made by hand: a new speed, a jump ({@link ScaledClock.set},
   * {@link ScaledClock.advance}). Whoever waits in real time for a clock instant (the connector's
   * poll scheduler, for a market's next open) waits again from there.
   *
   * @param listener - called with no argument; it must not throw
   * @returns a function that removes the listener
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private rebase(): void {
    const real = this.realNowMs();
    this.anchorSim = this.anchorSim + (real - this.anchorReal) * this.speed;
    this.anchorReal = real;
  }
}

function checkSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed < 0) {
    throw new ValidationError('speed', `expected a non-negative finite speed, found ${speed}`);
  }
  return speed;
}

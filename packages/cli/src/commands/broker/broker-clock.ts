/**
 * The engine clock of a command that talks to the broker: the simulator's when the broker is the
 * simulator (it serves `GET /_sim/clock`, whatever its `--start` and `--speed`), else the machine's.
 * `hoga run` and `hoga order` judge the broker's hours on it, so a simulator started at another
 * time is judged at its own time.
 *
 * The simulator's clock runs on while its answer travels: at `--speed 30`, 10 ms on the way are
 * 300 simulated ms. The clock is read a few times and the fastest answer is taken as read halfway
 * between its request and its arrival, so that the engine clock is off by at most half that
 * answer's round trip (scaled), not behind by all of it.
 *
 * @module
 */
import { type Clock, LiveClock, ScaledClock } from '@hoga/core';

/** Reads of `GET /_sim/clock`; the fastest sets the engine clock. */
const READS = 5;

/** One read of the simulator's clock. */
export interface SimClockRead {
  /** When the request went out and when its answer was in, real ms on one monotonic clock. */
  readonly sentMs: number;
  readonly answeredMs: number;
  /** The simulated time it answered, epoch ms. */
  readonly simMs: number;
  /** Simulated seconds per real second. */
  readonly speed: number;
}

/**
 * The simulated time at real time `nowMs` from reads of the simulator's clock: the read answered
 * fastest, taken as read halfway between `sentMs` and `answeredMs`, moved on at its speed.
 *
 * @param reads - at least one read
 * @param nowMs - real ms on the reads' clock
 * @returns the simulated time (epoch ms) and the speed
 */
export function simulatedNow(reads: readonly SimClockRead[], nowMs: number): { ms: number; speed: number } {
  let best = reads[0];
  if (best === undefined) throw new Error('simulatedNow: no read of the simulator clock');
  for (const r of reads) if (r.answeredMs - r.sentMs < best.answeredMs - best.sentMs) best = r;
  const readAt = (best.sentMs + best.answeredMs) / 2;
  return { ms: Math.round(best.simMs + (nowMs - readAt) * best.speed), speed: best.speed };
}

/** One read, or null when `baseUrl` does not answer `GET /_sim/clock` (in 2 s). */
async function readSimClock(baseUrl: string): Promise<SimClockRead | null> {
  try {
    const sentMs = performance.now();
    const res = await fetch(new URL('/_sim/clock', baseUrl), { signal: AbortSignal.timeout(2_000) });
    if (!res.ok) return null;
    const body = (await res.json()) as { now: string; speed: number };
    return { sentMs, answeredMs: performance.now(), simMs: Date.parse(body.now), speed: body.speed };
  } catch {
    // not the simulator (a broker answers 404), or not reachable in time
    return null;
  }
}

/** The simulator's clock, or null when `baseUrl` does not answer `GET /_sim/clock` (in 2 s). */
export async function simulatorClock(baseUrl: string): Promise<ScaledClock | null> {
  const reads: SimClockRead[] = [];
  for (let i = 0; i < READS; i++) {
    const read = await readSimClock(baseUrl);
    if (read === null) break;
    reads.push(read);
  }
  if (reads.length === 0) return null;
  const now = simulatedNow(reads, performance.now());
  return new ScaledClock({ start: now.ms, speed: now.speed });
}

/** How often {@link followSimulatorClock} reads the simulator's clock again (real ms). */
const FOLLOW_EVERY_MS = 2_000;
/** How far the engine clock may be off the simulator's (simulated ms) before it is moved, beyond a read's own uncertainty. */
const FOLLOW_TOLERANCE_MS = 1_000;

/** Options of {@link followSimulatorClock}. */
export interface FollowOptions {
  /** Real ms between two reads (default 2,000). */
  readonly everyMs?: number;
  /**
   * Told when the simulator's clock is found behind the engine clock (set back, or slowed down
   * after the last read), once until it has caught up: the engine clock stops until it does.
   */
  readonly onAhead?: (aheadMs: number) => void;
}

/**
 * Keeps an engine clock made by {@link simulatorClock} on the simulator's while a run goes on: the
 * simulator's speed can change, and its clock jump, through its control API. Every `everyMs` the
 * clock is read again: a new speed is taken, and an engine clock behind the simulator's by more
 * than a second (and the read's own uncertainty) is moved on to it. The engine clock never goes
 * back: found ahead, it stops (speed 0) until the simulator's has caught up, said through
 * `onAhead`. Before, `hoga run` read the simulator's speed once, at its start: a simulator sped up
 * from 1 to 60 was still polled at the old pace, its minute bars handed over up to a real minute
 * late.
 *
 * @param baseUrl - the simulator's address
 * @param clock - the engine clock (from {@link simulatorClock})
 * @param options - see {@link FollowOptions}
 * @returns a function that stops following
 */
export function followSimulatorClock(
  baseUrl: string,
  clock: ScaledClock,
  options: FollowOptions = {},
): () => void {
  let reading = false;
  let ahead = false;
  const follow = async (): Promise<void> => {
    const read = await readSimClock(baseUrl);
    // the simulator gone or slow: the run's own requests say so
    if (read === null) return;
    const sim = simulatedNow([read], performance.now());
    const tolerance = FOLLOW_TOLERANCE_MS + (read.answeredMs - read.sentMs) * sim.speed;
    const drift = sim.ms - clock.nowMs();
    if (drift < -tolerance) {
      if (clock.getSpeed() !== 0) clock.setSpeed(0);
      if (!ahead) options.onAhead?.(-drift);
      ahead = true;
      return;
    }
    ahead = false;
    if (clock.getSpeed() !== sim.speed) clock.setSpeed(sim.speed);
    if (drift > tolerance) clock.advance(drift);
  };
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    void follow().finally(() => {
      reading = false;
    });
  }, options.everyMs ?? FOLLOW_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The simulator's clock when `baseUrl` is the simulator, else the machine's. */
export async function brokerClock(baseUrl: string): Promise<Clock> {
  return (await simulatorClock(baseUrl)) ?? new LiveClock();
}

/**
 * The engine clock of a command that talks to the broker: the simulator's when the broker is the
 * simulator (it serves `GET /_sim/clock`, whatever its `--start` and `--speed`), else the machine's.
 * `hoga run` and `hoga order` judge the broker's hours on it, so a simulator started at another
 * time is judged at its own time.
 *
 * @module
 */
import { type Clock, LiveClock, ScaledClock } from '@hoga/core';

/** The simulator's clock, or null when `baseUrl` does not answer `GET /_sim/clock` (in 2 s). */
export async function simulatorClock(baseUrl: string): Promise<Clock | null> {
  try {
    const res = await fetch(new URL('/_sim/clock', baseUrl), { signal: AbortSignal.timeout(2_000) });
    if (!res.ok) return null;
    const body = (await res.json()) as { now: string; speed: number };
    return new ScaledClock({ start: body.now, speed: body.speed });
  } catch {
    // not the simulator (a broker answers 404), or not reachable in time
    return null;
  }
}

/** The simulator's clock when `baseUrl` is the simulator, else the machine's. */
export async function brokerClock(baseUrl: string): Promise<Clock> {
  return (await simulatorClock(baseUrl)) ?? new LiveClock();
}

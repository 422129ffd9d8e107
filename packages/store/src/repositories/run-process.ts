/**
 * The process that runs a run: stored with the run as it starts (its pid and the machine's host
 * name), so that a run still `running` in the store can be told from one whose process is gone (a
 * backtest that crashed or was killed). A pid is checked on its own machine only: another machine's
 * pid says nothing here.
 *
 * @module
 */
import { hostname } from 'node:os';

/** The process that runs a run. */
export interface RunProcess {
  readonly pid: number;
  /** The host name of the machine it runs on (`os.hostname()`). */
  readonly host: string;
}

/** This process, as a run records it. */
export function thisProcess(): RunProcess {
  return { pid: process.pid, host: hostname() };
}

/**
 * Whether a run's process lives: `true` or `false` for a process of this machine, `null` when that
 * cannot be told (none recorded: a run stored before processes were; or another machine's).
 *
 * A pid the system gave again to another process after the run's died reads as alive.
 *
 * @param owner - the run's process
 */
export function runProcessAlive(owner: RunProcess | null): boolean | null {
  if (owner === null || owner.host !== hostname()) return null;
  if (owner.pid === process.pid) return true;
  try {
    // signal 0: checks that the process exists, sends nothing
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

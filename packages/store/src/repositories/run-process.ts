/**
 * The process that runs a run: stored with the run as it starts (its pid, the machine's host name
 * and when the process started), so that a run still `running` in the store can be told from one
 * whose process is gone (a backtest that crashed or was killed). A pid is checked on its own
 * machine only: another machine's pid says nothing here.
 *
 * A pid alone is not a process: once the run's process is gone, the system may give its pid to
 * another, unrelated one. On Linux the process's start tells them apart: the boot id
 * (`/proc/sys/kernel/random/boot_id`) and field 22 of `/proc/<pid>/stat` (`starttime`, clock ticks
 * since boot), stored as `<boot id>:<starttime>`. Where there is no `/proc` (macOS, Windows) none
 * is recorded, and a run without one (those stored before schema 12 too) is checked by its pid
 * alone: a pid given again reads as alive there.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** The process that runs a run. */
export interface RunProcess {
  readonly pid: number;
  /** The host name of the machine it runs on (`os.hostname()`). */
  readonly host: string;
  /**
   * When it started, as {@link processStart} reads it (`<boot id>:<starttime>`); null or absent
   * where that cannot be read (no `/proc`), and for a run stored before schema 12.
   */
  readonly start?: string | null;
}

/** The `starttime` field (22) of a `/proc/<pid>/stat` line; null when the line is not one. */
function startTicks(stat: string): string | null {
  // the command name (field 2, in parentheses) may hold spaces and parentheses: the fields from
  // the state (field 3) on come after the last `)`
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields[22 - 3];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : null;
}

/**
 * When the process of `pid` started, as `<boot id>:<starttime>`: the same for the same process,
 * another for any other that has (or had) the pid. Null when there is no such process or no
 * `/proc` to read it from (macOS, Windows).
 *
 * @param pid - the process
 * @param proc - where procfs is mounted (tests give another directory)
 */
export function processStart(pid: number, proc = '/proc'): string | null {
  try {
    const ticks = startTicks(readFileSync(`${proc}/${pid}/stat`, 'utf8'));
    const boot = readFileSync(`${proc}/sys/kernel/random/boot_id`, 'utf8').trim();
    return ticks === null || boot === '' ? null : `${boot}:${ticks}`;
  } catch {
    return null;
  }
}

/** This process, as a run records it. */
export function thisProcess(): RunProcess {
  return { pid: process.pid, host: hostname(), start: processStart(process.pid) };
}

/** Whether a process of `pid` exists on this machine. */
function pidLives(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    // signal 0: checks that the process exists, sends nothing
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a run's process lives: `true` or `false` for a process of this machine, `null` when that
 * cannot be told (none recorded: a run stored before processes were; or another machine's).
 *
 * A process holding the pid that started at another time than the one recorded (the system gave
 * the pid again) is not the run's: `false`. With no start recorded, or none readable here (no
 * `/proc`), the pid alone is checked, and a pid given again reads as alive.
 *
 * @param owner - the run's process
 * @param proc - where procfs is mounted (tests give another directory)
 */
export function runProcessAlive(owner: RunProcess | null, proc = '/proc'): boolean | null {
  if (owner === null || owner.host !== hostname()) return null;
  const recorded = owner.start ?? null;
  if (recorded !== null) {
    // read: a process has the pid now (else gone meanwhile, or no /proc: the pid check says)
    const now = processStart(owner.pid, proc);
    if (now !== null) return now === recorded;
  }
  return pidLives(owner.pid);
}

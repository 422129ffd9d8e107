/**
 * The private copies a read command makes of a database it cannot read in place (see
 * `open-for-reading.ts`), and their removal once the process that made one is gone.
 *
 * A copy lives in its own directory of the temporary directory, `hoga-read-<pid>-XXXXXX` (mode
 * 0700: the copy holds the tokens its database holds), with an `owner.json` naming the process
 * (pid, host, start: as a run records its own). The process removes it when it closes the copy; a
 * process killed before (SIGKILL, a SIGTERM or SIGHUP it does not catch, a crash) cannot, so every
 * copy made sweeps first: a directory whose process is no longer alive on this machine is removed.
 * A directory of another machine (a shared temporary directory), or another user's, is left alone.
 *
 * @module
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunProcess, runProcessAlive, thisProcess } from '@hoga/store';

/** Names of the copies' directories: `hoga-read-<pid>-` and mkdtemp's six characters. */
const COPY_DIR = /^hoga-read-(\d+)-[A-Za-z0-9]{6}$/;
/** Names of the copies an older hoga made (`hoga-read-` and six characters): no process named. */
const LEGACY_COPY_DIR = /^hoga-read-[A-Za-z0-9]{6}$/;
/** Age past which a copy naming no process is taken as left behind: no read lasts a day. */
const LEGACY_MAX_AGE_MS = 24 * 3_600_000;
/** The file naming the process that made a copy. */
const OWNER_FILE = 'owner.json';

/**
 * Makes a private directory for one copy, after removing the copies of processes that are gone.
 *
 * @param parent - where (default: the system's temporary directory, `TMPDIR`)
 * @returns the new directory (mode 0700), holding its `owner.json`
 */
export function makeReadCopyDir(parent: string = tmpdir()): string {
  sweepReadCopies(parent);
  const dir = mkdtempSync(join(parent, `hoga-read-${process.pid}-`));
  writeFileSync(join(dir, OWNER_FILE), `${JSON.stringify(thisProcess())}\n`, { mode: 0o600 });
  return dir;
}

/**
 * Removes the copy directories in `parent` whose process is no longer alive: this user's, of this
 * machine. A directory without a readable `owner.json` (a process killed between making it and
 * writing the file) is judged by the pid in its name; one of an older hoga (`hoga-read-XXXXXX`, no
 * pid) once it is a day old.
 *
 * @param parent - the temporary directory to sweep
 * @returns the directories removed
 */
export function sweepReadCopies(parent: string = tmpdir()): string[] {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const uid = process.getuid?.();
  for (const name of names) {
    const match = COPY_DIR.exec(name);
    const legacy = match === null && LEGACY_COPY_DIR.test(name);
    if (match === null && !legacy) continue;
    const dir = join(parent, name);
    try {
      const stat = lstatSync(dir);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
      if (match !== null && runProcessAlive(ownerOf(dir, Number(match[1]))) !== false) continue;
      if (legacy && Date.now() - stat.mtimeMs < LEGACY_MAX_AGE_MS) continue;
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // gone meanwhile (another sweep), or not ours to remove: leave it
    }
  }
  return removed;
}

/** The process named in a copy's `owner.json`, else the pid of its directory's name on this host. */
function ownerOf(dir: string, pid: number): RunProcess {
  const here = { ...thisProcess(), pid, start: null };
  try {
    const owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as Partial<RunProcess>;
    if (owner.pid !== pid || typeof owner.host !== 'string') return here;
    return { pid, host: owner.host, start: typeof owner.start === 'string' ? owner.start : null };
  } catch {
    return here;
  }
}

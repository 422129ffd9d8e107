import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support.js';
import { processStart, runProcessAlive, thisProcess } from './run-process.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir('hoga-run-process-'));
});
afterEach(() => cleanup());

/** A pid no process has any more: a child's, once it exited. */
const gonePid = (): number => spawnSync(process.execPath, ['-e', '']).pid as number;

/** A procfs-like directory holding a boot id and one process's stat line. */
function procWith(pid: number, stat: string): string {
  const proc = join(dir, 'proc');
  mkdirSync(join(proc, String(pid)), { recursive: true });
  mkdirSync(join(proc, 'sys', 'kernel', 'random'), { recursive: true });
  writeFileSync(join(proc, 'sys', 'kernel', 'random', 'boot_id'), 'b00t-1d\n');
  writeFileSync(join(proc, String(pid), 'stat'), stat);
  return proc;
}

describe('processStart', () => {
  it.runIf(existsSync('/proc/self/stat'))(
    "reads this machine's boot id and field 22 of /proc/<pid>/stat; null for a pid no process has",
    () => {
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      expect(processStart(process.pid)).toMatch(new RegExp(`^${boot}:\\d+$`));
      expect(thisProcess()).toEqual({ pid: process.pid, host: hostname(), start: processStart(process.pid) });
      // the parent started before this process, at another tick or the same: never another boot
      expect(processStart(process.ppid)?.startsWith(`${boot}:`)).toBe(true);
      expect(processStart(gonePid())).toBeNull();
    },
  );

  it('reads the start after the last parenthesis: a command name may hold spaces and parentheses', () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    fields[0] = 'S';
    fields[22 - 3] = '987654';
    const proc = procWith(4321, `4321 (a) 1 (b c) ${fields.join(' ')}\n`);
    expect(processStart(4321, proc)).toBe('b00t-1d:987654');
  });

  it('is null where there is no /proc to read (macOS, Windows), or a stat line it cannot read', () => {
    expect(processStart(process.pid, join(dir, 'none'))).toBeNull();
    expect(processStart(4321, procWith(4321, '4321 (cut'))).toBeNull();
  });
});

describe('runProcessAlive', () => {
  it('falls back to the pid alone where no start can be read: a living pid reads alive, a gone one not', () => {
    const none = join(dir, 'none');
    const here = hostname();
    expect(runProcessAlive({ pid: process.ppid, host: here, start: 'b00t:1' }, none)).toBe(true);
    expect(runProcessAlive({ pid: gonePid(), host: here, start: 'b00t:1' }, none)).toBe(false);
    expect(runProcessAlive({ pid: process.ppid, host: `not-${here}`, start: 'b00t:1' }, none)).toBeNull();
    expect(runProcessAlive(null)).toBeNull();
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'tells the process of a pid from another that started at another time, itself included',
    () => {
      const here = hostname();
      const parent = processStart(process.ppid) as string;
      const self = processStart(process.pid) as string;
      expect(runProcessAlive({ pid: process.ppid, host: here, start: parent })).toBe(true);
      expect(runProcessAlive({ pid: process.ppid, host: here, start: self })).toBe(false);
      // this process's pid, recorded by a process gone before it (as `hoga db runs` may be given)
      expect(runProcessAlive({ pid: process.pid, host: here, start: self })).toBe(true);
      expect(runProcessAlive({ pid: process.pid, host: here, start: parent })).toBe(false);
      expect(runProcessAlive({ pid: process.pid, host: here, start: null })).toBe(true);
    },
  );
});

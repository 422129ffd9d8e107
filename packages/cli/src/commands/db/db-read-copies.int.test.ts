/**
 * The private copy a read command makes of a database it cannot read in place (another user's WAL
 * file in a directory it may not write) is removed by a later command once the process that made it
 * was killed (before: left in the temporary directory for ever, with the tokens the file holds).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import { envWithoutHoga, HOGA_BIN, hoga, nodeForAnyUser } from '../../hoga-process.test-helper.js';
import { limitBuyIntent } from './db-rows.test-helper.js';
import { sweepReadCopies } from './read-copies.js';

const NOBODY = 65534;

/** Polls `check` until it returns a value (not undefined), failing after `ms`. */
async function waitFor<T>(check: () => T | undefined, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** A root-owned WAL database with `orders` orders, in a directory others may read but not write. */
function theirDatabase(orders: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'hoga-read-copies-'));
  chmodSync(dir, 0o755);
  const file = join(dir, 'theirs.sqlite');
  const db = HogaDatabase.open(file);
  db.durableTransaction(() => {
    for (let i = 0; i < orders; i++) {
      db.orders.recordIntent(limitBuyIntent(`o-${i}`, 'paper', 1_764_000_000_000 + i));
    }
  });
  db.close();
  chmodSync(file, 0o644);
  return file;
}

/** A temporary directory of its own for the child processes (TMPDIR), writable by nobody. */
function privateTmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hoga-tmp-'));
  chmodSync(dir, 0o1777);
  return dir;
}

const copies = (tmp: string): string[] => readdirSync(tmp).filter((n) => n.startsWith('hoga-read-'));

describe('hoga db read copies', () => {
  it.runIf(process.getuid?.() === 0)(
    'a copy left by a reader killed with SIGKILL is removed by the next read command',
    async () => {
      const file = theirDatabase(3_000);
      const tmp = privateTmp();
      const env = { ...envWithoutHoga(), HOME: tmp, TMPDIR: tmp, NO_COLOR: '1' };
      const node = nodeForAnyUser();
      // stdout is never read: the listing (far more than a pipe holds) blocks the reader mid-write,
      // its copy open
      const reader = spawn(node, [HOGA_BIN, 'db', 'orders', '--db', file, '--json', '--limit', '5000'], {
        cwd: '/',
        env,
        uid: NOBODY,
        gid: NOBODY,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const copy = await waitFor(() => {
        const dir = copies(tmp)[0];
        return dir !== undefined && existsSync(join(tmp, dir, 'copy.sqlite')) ? join(tmp, dir) : undefined;
      });
      reader.kill('SIGKILL');
      await exited(reader);
      expect(existsSync(copy)).toBe(true);
      expect(copy).toContain(`hoga-read-${reader.pid}-`);

      // a copy of a process that lives (this test's) stays
      const living = join(tmp, `hoga-read-${process.pid}-abcdef`);
      mkdirSync(living, { mode: 0o700 });
      writeFileSync(join(living, 'owner.json'), JSON.stringify({ pid: process.pid, host: hostname() }));
      chownSync(living, NOBODY, NOBODY);

      const info = await hoga(['db', 'info', '--db', file, '--json'], {
        uid: NOBODY,
        cwd: '/',
        env: { HOME: tmp, TMPDIR: tmp },
        node,
      });
      expect(info.err).toBe('');
      expect(info.code).toBe(0);
      expect(JSON.parse(info.out)).toMatchObject({ file, integrity: ['ok'] });
      expect(existsSync(copy)).toBe(false);
      expect(copies(tmp)).toEqual([`hoga-read-${process.pid}-abcdef`]);
      rmSync(tmp, { recursive: true, force: true });
      rmSync(dirname(file), { recursive: true, force: true });
    },
    60_000,
  );
});

describe(sweepReadCopies, () => {
  it("removes this user's copies whose process is gone, keeping a living one's and another host's", async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'hoga-sweep-'));
    const gone = spawn(process.execPath, ['-e', '']);
    await exited(gone);
    const make = (name: string, owner: object | null): string => {
      const dir = join(tmp, name);
      mkdirSync(dir);
      if (owner !== null) writeFileSync(join(dir, 'owner.json'), JSON.stringify(owner));
      return dir;
    };
    const dead = make(`hoga-read-${gone.pid}-aaaaaa`, { pid: gone.pid, host: hostname() });
    const deadNoOwner = make(`hoga-read-${gone.pid}-bbbbbb`, null);
    make(`hoga-read-${process.pid}-cccccc`, { pid: process.pid, host: hostname() });
    make(`hoga-read-${gone.pid}-dddddd`, { pid: gone.pid, host: `not-${hostname()}` });
    make('hoga-read-other', null);
    // an older hoga's copies name no process: removed once a day old (no read lasts that long)
    const legacyOld = make('hoga-read-Ab3dE9', null);
    const dayAgo = new Date(Date.now() - 25 * 3_600_000);
    utimesSync(legacyOld, dayAgo, dayAgo);
    make('hoga-read-Xy7zQ1', null);
    expect(sweepReadCopies(tmp).sort()).toEqual([dead, deadNoOwner, legacyOld].sort());
    expect(readdirSync(tmp).sort()).toEqual(
      [
        `hoga-read-${gone.pid}-dddddd`,
        `hoga-read-${process.pid}-cccccc`,
        'hoga-read-other',
        'hoga-read-Xy7zQ1',
      ].sort(),
    );
    rmSync(tmp, { recursive: true, force: true });
  });
});

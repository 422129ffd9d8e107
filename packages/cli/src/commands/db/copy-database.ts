/**
 * The copy of a WAL database a read command makes when it cannot read the file in place (see
 * `open-for-reading.ts`): the main file, then its `-wal`, one after the other, while another process
 * may write them. Without the WAL index (`-shm`, which the reader may not have) no read lock can be
 * taken, so the copy is checked instead, and made again when the file changed under it:
 *
 * - the WAL's header (its checkpoint sequence and salts) read before the main file is copied and
 *   after the WAL is: a WAL restarted in between (a checkpoint that moved every frame into the main
 *   file, then the next commit, or a `TRUNCATE` checkpoint) would pair a main file of before the
 *   checkpoint with a WAL of after it, the moved rows in neither (a damaged copy). A checkpoint that
 *   does not restart the WAL is harmless: the copied WAL holds every frame it moved, and they win
 *   over the main file's pages.
 * - both files' size, times and inode, before and after: a file without a WAL that a writer opens,
 *   checkpoints and closes meanwhile (the WAL gone again), or one replaced.
 *
 * @module
 */
import { type BigIntStats, closeSync, copyFileSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { CliError, ExitCode } from '../../runtime/exit-codes.js';

/** How one file is copied: `copyFileSync` (a test wraps it to write between the two copies). */
export type CopyFile = (from: string, to: string) => void;

/** How many times a copy is made before giving up on a file that keeps changing. */
export const COPY_ATTEMPTS = 5;

/** Bytes of the WAL's header: magic, version, page size, checkpoint sequence, salts, checksum. */
const WAL_HEADER_BYTES = 32;

/**
 * Copies `file` and its `-wal` (if any) to `copy` and `copy-wal`, as they were at one moment: made
 * again, up to {@link COPY_ATTEMPTS} times, when either changed meanwhile (see the module).
 *
 * @param file - the database
 * @param copy - where to copy it (its directory exists)
 * @param copyFile - how one file is copied
 * @throws {@link CliError} when the file changed during every attempt
 */
export function copyDatabase(file: string, copy: string, copyFile: CopyFile = copyFileSync): void {
  const wal = `${file}-wal`;
  for (let attempt = 1; attempt <= COPY_ATTEMPTS; attempt++) {
    const before = stateOf(file, wal);
    copyFile(file, copy);
    rmSync(`${copy}-wal`, { force: true });
    if (before.wal !== null) copyFile(wal, `${copy}-wal`);
    if (sameState(before, stateOf(file, wal))) return;
  }
  rmSync(`${copy}-wal`, { force: true });
  throw new CliError(
    `${file} changed while it was copied, ${COPY_ATTEMPTS} times (its -wal restarted by a checkpoint, or the file rewritten): it cannot be read in place by this user (no write access to its directory), so it is copied; try again when it is written less, or read it as its owner`,
    ExitCode.FAILURE,
  );
}

/** What tells that a file changed: size, modification and change times, inode. */
interface Stamp {
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
}

interface FilesState {
  readonly main: Stamp;
  /** The WAL's stamp and header (hex), null without one. */
  readonly wal: { readonly stamp: Stamp; readonly header: string } | null;
}

function stamp(stats: BigIntStats): Stamp {
  return { size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs, ino: stats.ino };
}

function stateOf(file: string, wal: string): FilesState {
  const main = stamp(statSync(file, { bigint: true }));
  let fd: number;
  try {
    fd = openSync(wal, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { main, wal: null };
    throw error;
  }
  try {
    const header = Buffer.alloc(WAL_HEADER_BYTES);
    const read = readSync(fd, header, 0, WAL_HEADER_BYTES, 0);
    const walStamp = stamp(statSync(wal, { bigint: true }));
    return { main, wal: { stamp: walStamp, header: header.subarray(0, read).toString('hex') } };
  } finally {
    closeSync(fd);
  }
}

function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}

function sameState(a: FilesState, b: FilesState): boolean {
  if (!sameStamp(a.main, b.main)) return false;
  if (a.wal === null || b.wal === null) return a.wal === b.wal;
  return a.wal.header === b.wal.header && sameStamp(a.wal.stamp, b.wal.stamp);
}

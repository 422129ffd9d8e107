/**
 * The write that must precede an order's send, as an append to a file beside the database
 * (`<file>-commands`, mode 0600), one JSON line per command. An append is one `write` system call
 * and one `stat` of the journal's path (about 3 µs and 1–5 µs) where the smallest SQLite commit
 * takes 15–25 µs (locks, a WAL frame, the index); with `full` durability the `write` is followed
 * by `fdatasync`. Like a WAL commit at
 * `synchronous=NORMAL`, a line survives the process's death (SIGKILL included) as soon as the
 * call returns; `full` makes it survive a power loss too.
 *
 * Its owner writes each command's rows into its tables right after the send ({@link
 * CommandJournal.settle}); the lines are then redundant. At each start, and whenever the file has
 * passed 64 KB with nothing pending ({@link CommandJournal.shouldCompact}), the owner stores every
 * line idempotently (a command already stored is left as it is) and {@link CommandJournal.compact}s
 * the file: the lines whose rows are stored go; so after a crash the lines the crash left become
 * their rows. A line cut short by a crash during its `write` was never followed by its send, so it
 * is skipped.
 *
 * Several processes may write one database's journal (`hoga run` and `hoga order`): appends do
 * not interleave (`O_APPEND`), a fold stores the other process's lines too, and the file is never
 * removed. A compaction never empties the file in place (a line another process appended after
 * the fold read the file would go with it): it writes the lines still needed to a new file and
 * renames it over the journal, then copies what was appended to the old file meanwhile; an
 * appender that finds, after its `write`, that the journal is another file than the one it wrote
 * to writes its line again to the new one (a line twice is stored once). Compactions must not run
 * at once (the owner holds the database's write lock through one).
 *
 * @module
 */
import {
  closeSync,
  constants,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

/** Bytes past which the file is folded into the database and emptied once nothing is pending. */
const COMPACT_BYTES = 64 * 1024;

/** `open` flags of a new file written by appends only (emptied if a crashed compaction left it). */
const APPEND_NEW = constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC | constants.O_APPEND;

/** How many of the newest appended ids {@link CommandJournal.has} remembers. */
const REMEMBERED = 100_000;

/** See the module description. */
export class CommandJournal {
  private fd: number | null;
  /** Ids appended and not settled yet. */
  private readonly pending = new Set<string>();
  /** The newest ids appended by this process (settled or not), oldest first. */
  private readonly appended = new Set<string>();
  private bytes: number;
  /** The file `fd` is open on (the journal's path may have been given to a compacted file since). */
  private file: Stats;

  /**
   * @param path - the journal's file (created, mode 0600, when missing)
   */
  constructor(readonly path: string) {
    this.fd = openSync(path, 'a+', 0o600);
    this.file = fstatSync(this.fd);
    this.bytes = this.file.size;
  }

  /** Whether this process appended the id (among its newest 100,000). */
  has(id: string): boolean {
    return this.appended.has(id);
  }

  /**
   * Appends one command (a line of JSON without newlines) under its id.
   *
   * @param durable - fdatasync before returning (survives a power loss)
   */
  append(id: string, json: string, durable = false): void {
    const line = Buffer.from(`${json}\n`, 'utf8');
    for (;;) {
      const fd = this.openFd();
      const written = writeSync(fd, line);
      if (durable) fdatasyncSync(fd);
      if (written !== line.length) {
        throw new Error(
          `the command journal ${this.path} took ${written} of ${line.length} bytes (disk full?)`,
        );
      }
      this.bytes += written;
      // another process compacted the journal into a new file before this line reached the old one
      // (or after it copied the old one's last lines): write it again, to the journal
      if (this.isCurrent()) break;
      this.reopen(durable);
    }
    this.pending.add(id);
    this.appended.add(id);
    if (this.appended.size > REMEMBERED) {
      for (const oldest of this.appended) {
        this.appended.delete(oldest);
        break;
      }
    }
  }

  /** The command's rows are committed in the database: its line is no longer needed. */
  settle(id: string): void {
    this.pending.delete(id);
  }

  /**
   * Whether the owner should fold the file into the database and {@link CommandJournal.compact} it:
   * nothing of this process is pending and the file passed 64 KB (settled lines, and any line of
   * another process writing the same database, are stored idempotently by the fold).
   */
  shouldCompact(): boolean {
    if (this.pending.size > 0 || this.bytes < COMPACT_BYTES) return false;
    this.bytes = statSync(this.path, { throwIfNoEntry: false })?.size ?? 0; // other processes' lines count too
    return this.bytes >= COMPACT_BYTES;
  }

  /**
   * The complete lines in the file, oldest first (a last line without its newline is skipped),
   * after those of the file a compaction replaced, if one was killed before it was done with it.
   */
  entries(): string[] {
    return [...completeLines(this.replaced), ...completeLines(this.path)];
  }

  /** The file a compaction replaces, named so until it is done with it (see {@link compact}). */
  get replaced(): string {
    return `${this.path}.replaced`;
  }

  /**
   * Drops the complete lines whose rows are stored, keeping every other line, those appended by
   * other processes while it runs included: the lines kept are written to a new file (fdatasynced),
   * which is renamed over the journal (the directory fsynced), then the lines that reached the old
   * file meanwhile are copied to it (fdatasynced). Until then the old file is also named
   * `<journal>.replaced` (a hard link), whose lines {@link entries} reads too: a compaction killed
   * after its rename loses none of them. The caller must keep other compactions of the same journal
   * from running at once (the owner holds the database's write lock).
   *
   * @param stored - whether a line's command is stored in the database (its line may go)
   */
  compact(stored: (line: string) => boolean): void {
    this.openFd();
    const old = openSync(this.path, 'a+', 0o600);
    try {
      // what a compaction killed before it was done left (its lines were folded before this one,
      // unless another compaction died since): it gives way to the journal only once all of it is
      // stored, else it stays until its lines, copied to the new file, are there
      const left = completeLines(this.replaced).filter((line) => !stored(line));
      if (left.length === 0) {
        rmSync(this.replaced, { force: true });
        try {
          linkSync(this.path, this.replaced);
        } catch {
          // a file system without hard links: the compaction goes on without that net
        }
      }
      const before = readAll(old, 0);
      const end = before.lastIndexOf(0x0a) + 1;
      const kept = [...left, ...linesOf(before.subarray(0, end)).filter((line) => !stored(line))];
      const next = `${this.path}.compacting`;
      // appending (O_APPEND): once renamed, other processes append to it too
      const fd = openSync(next, APPEND_NEW, 0o600);
      try {
        if (kept.length > 0) writeSync(fd, Buffer.from(`${kept.join('\n')}\n`, 'utf8'));
        fdatasyncSync(fd);
        renameSync(next, this.path);
        syncDirectory(this.path);
        // every write to the old file that returned before this read is in it; one that returns
        // after finds the journal renamed and writes its line again
        const late = readAll(old, end);
        const lateEnd = late.lastIndexOf(0x0a) + 1;
        if (lateEnd > 0) {
          writeSync(fd, late.subarray(0, lateEnd));
          fdatasyncSync(fd);
        }
      } catch (error) {
        closeSync(fd);
        throw error;
      }
      rmSync(this.replaced, { force: true });
      if (this.fd !== null) closeSync(this.fd);
      this.fd = fd;
      this.file = fstatSync(fd);
      this.bytes = this.file.size;
      this.pending.clear();
    } finally {
      closeSync(old);
    }
  }

  /**
   * Closes the file. It stays, whatever it holds: another process writing the same database may
   * have it open (removing it would send that process's lines to a file nobody reads); the next
   * start folds what is left, idempotently.
   */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private openFd(): number {
    if (this.fd === null) throw new Error(`the command journal ${this.path} is closed`);
    return this.fd;
  }

  /** Whether the journal's path still names the file this process writes to. */
  private isCurrent(): boolean {
    const now = statSync(this.path, { throwIfNoEntry: false });
    return now !== undefined && now.ino === this.file.ino && now.dev === this.file.dev;
  }

  /** Opens the journal's path again (another process renamed a compacted file over it). */
  private reopen(durable: boolean): void {
    const fd = openSync(this.path, 'a+', 0o600);
    if (durable) syncDirectory(this.path);
    if (this.fd !== null) closeSync(this.fd);
    this.fd = fd;
    this.file = fstatSync(fd);
    this.bytes = this.file.size;
  }
}

/** The bytes of an open file from `offset` to its end. */
function readAll(fd: number, offset: number): Buffer {
  const size = fstatSync(fd).size;
  const buffer = Buffer.alloc(Math.max(0, size - offset));
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, offset + read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

/** The complete lines of a file (none when it is missing), a last one without its newline left out. */
function completeLines(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const end = text.lastIndexOf('\n');
  return end < 0
    ? []
    : text
        .slice(0, end)
        .split('\n')
        .filter((line) => line.length > 0);
}

/** The non-empty lines of complete text (newline-terminated). */
function linesOf(bytes: Buffer): string[] {
  return bytes
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0);
}

/** Makes a rename in the file's directory survive a power loss. */
function syncDirectory(file: string): void {
  const fd = openSync(dirname(file), 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

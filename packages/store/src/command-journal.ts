/**
 * The write that must precede an order's send, as an append to a file beside the database
 * (`<file>-commands`, mode 0600), one JSON line per command. An append is one `write` system call
 * (about 3 µs here) where the smallest SQLite commit takes 15–25 µs (locks, a WAL frame, the
 * index); with `full` durability it is followed by `fdatasync`. Like a WAL commit at
 * `synchronous=NORMAL`, a line survives the process's death (SIGKILL included) as soon as the
 * call returns; `full` makes it survive a power loss too.
 *
 * Its owner writes each command's rows into its tables right after the send ({@link
 * CommandJournal.settle}); the lines are then redundant. At each start, and whenever the file has
 * passed 64 KB with nothing pending ({@link CommandJournal.shouldCompact}), the owner stores every
 * line idempotently (a command already stored is left as it is) and {@link CommandJournal.clear}s
 * the file; so after a crash the lines the crash left become their rows. A line cut short by a
 * crash during its `write` was never followed by its send, so it is skipped.
 *
 * Several processes may write one database's journal (`hoga run` and `hoga order`): appends do
 * not interleave (`O_APPEND`), a fold stores the other process's lines too, and the file is never
 * removed.
 *
 * @module
 */
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';

/** Bytes past which the file is folded into the database and emptied once nothing is pending. */
const COMPACT_BYTES = 64 * 1024;

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

  /**
   * @param path - the journal's file (created, mode 0600, when missing)
   */
  constructor(readonly path: string) {
    this.fd = openSync(path, 'a+', 0o600);
    this.bytes = fstatSync(this.fd).size;
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
    const line = `${json}\n`;
    this.bytes += writeSync(this.openFd(), line);
    if (durable) fdatasyncSync(this.openFd());
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
   * Whether the owner should fold the file into the database and {@link CommandJournal.clear} it:
   * nothing of this process is pending and the file passed 64 KB (settled lines, and any line of
   * another process writing the same database, are stored idempotently by the fold).
   */
  shouldCompact(): boolean {
    if (this.pending.size > 0 || this.bytes < COMPACT_BYTES) return false;
    this.bytes = fstatSync(this.openFd()).size; // other processes' lines count too
    return this.bytes >= COMPACT_BYTES;
  }

  /** The complete lines in the file, oldest first (a last line without its newline is skipped). */
  entries(): string[] {
    const text = readFileSync(this.path, 'utf8');
    const end = text.lastIndexOf('\n');
    if (end < 0) return [];
    return text
      .slice(0, end)
      .split('\n')
      .filter((line) => line.length > 0);
  }

  /** Empties the file: every line it held is stored in the database. */
  clear(): void {
    ftruncateSync(this.openFd(), 0);
    this.bytes = 0;
    this.pending.clear();
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
}

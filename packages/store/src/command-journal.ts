/**
 * The write that must precede an order's send, as an append to a file beside the database
 * (`<file>-commands`, mode 0600), one JSON line per command. An append is one `write` system call
 * (about 3 µs here) where the smallest SQLite commit takes 15–25 µs (locks, a WAL frame, the
 * index); with `full` durability it is followed by `fdatasync`. Like a WAL commit at
 * `synchronous=NORMAL`, a line survives the process's death (SIGKILL included) as soon as the
 * call returns; `full` makes it survive a power loss too.
 *
 * The journal holds only what has not reached the database yet: its owner moves each line into
 * its tables right after the send ({@link CommandJournal.settle}) and the file is emptied once
 * nothing is pending. After a crash, the next start reads the lines left ({@link
 * CommandJournal.entries}), stores them idempotently and {@link CommandJournal.clear}s the file. A
 * line cut short by a crash during its `write` was never followed by its send, so it is skipped.
 *
 * One process writes a database's journal at a time (as one order manager owns a database's
 * order tables). Closed with nothing pending (a clean stop), the file is removed.
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
  rmSync,
  writeSync,
} from 'node:fs';

/** Bytes the file may reach before it is emptied at the next moment nothing is pending. */
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
  /** Lines a crashed process left (the file was not empty at open), until {@link CommandJournal.clear}. */
  private inherited: boolean;

  /**
   * @param path - the journal's file (created, mode 0600, when missing)
   */
  constructor(readonly path: string) {
    this.fd = openSync(path, 'a+', 0o600);
    this.bytes = fstatSync(this.fd).size;
    this.inherited = this.bytes > 0;
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

  /**
   * The command's rows are committed in the database: its line is no longer needed. The file is
   * emptied when nothing is pending and it has grown past 64 KB (never while it still holds lines
   * an earlier process left: those are stored, and the file emptied, by their repair).
   */
  settle(id: string): void {
    this.pending.delete(id);
    if (this.pending.size === 0 && !this.inherited && this.bytes >= COMPACT_BYTES) this.clear();
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

  /** Empties the file: every line it held is stored elsewhere. */
  clear(): void {
    ftruncateSync(this.openFd(), 0);
    this.bytes = 0;
    this.pending.clear();
    this.inherited = false;
  }

  /**
   * Closes the file. With nothing pending it is removed (as SQLite removes its `-wal` file at the
   * last close); a pending line, or one an earlier process left and nobody stored yet, stays in it
   * for the next start.
   */
  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    if (this.pending.size === 0 && !this.inherited) rmSync(this.path, { force: true });
  }

  private openFd(): number {
    if (this.fd === null) throw new Error(`the command journal ${this.path} is closed`);
    return this.fd;
  }
}

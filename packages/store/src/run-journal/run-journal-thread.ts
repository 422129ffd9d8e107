/**
 * The journal's worker thread, started by {@link RunJournalWriter} for a database file: it owns a
 * connection of its own to the file, folds each batch of records it is sent through a
 * {@link RunJournalSink}, commits a few thousand rows at a time (and what remains once no batch
 * came for a while, and everything at the close), and answers the close once everything is
 * committed, or its first failure. This module holds the thread's loop and the messages between it
 * and the writer; the records, their folding and the SQL are the sink's.
 *
 * Node loads this file in the worker as it is, with its own type stripping: it imports nothing but
 * `node:` modules, `better-sqlite3` and its siblings (by their `.ts` names: Node resolves no `.js`
 * name to a `.ts` file, and they import nothing else either), and uses only erasable TypeScript
 * (no parameter properties, enums or namespaces). The CLI's bundle builds it as a second entry
 * (`dist/b-…/run-journal-thread.mjs`), its siblings included.
 *
 * @module
 */
import { constants, setPriority } from 'node:os';
import { isMainThread, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { RunJournalSink, type RunJournalTarget } from './run-journal-sink.ts';

/** What the main thread sends: records, or the end (close the connection and stop). */
export type RunJournalMessage =
  | { readonly kind: 'records'; readonly values: unknown[] }
  | { readonly kind: 'close' };

/** What the thread answers: closed (everything committed), or the first failure (then it stops). */
export type RunJournalReply =
  | { readonly kind: 'closed' }
  | { readonly kind: 'failed'; readonly message: string; readonly code: string | null };

/** What the thread is started with. */
export interface RunJournalThreadData extends RunJournalTarget {
  readonly hogaRunJournal: true;
  /** The database file (already created and migrated by the main thread). */
  readonly file: string;
  readonly busyTimeoutMs: number;
  /** Whether the thread gives way to every other of the process ({@link giveWay}). */
  readonly background: boolean;
}

/**
 * Lowers the calling thread's CPU priority to the lowest (`PRIORITY_LOW`, nice 19) on Linux, where
 * a nice value is a thread's own: the process's other threads keep theirs. Elsewhere it would lower
 * the whole process's, so nothing is done there. A failure (a sandbox that forbids it) leaves it as
 * it was.
 */
function giveWay(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, constants.priority.PRIORITY_LOW);
  } catch {
    // the thread runs at the process's priority, as it would elsewhere
  }
}

/**
 * Rows the thread gathers before it commits (held in memory, not in an open transaction: another
 * connection's writes never wait for it), all that remain once no batch came for
 * {@link IDLE_COMMIT_MS}, and all at the close.
 */
const ROWS_PER_COMMIT = 4_096;
const IDLE_COMMIT_MS = 20;

/** The worker thread's loop: one connection, a batch per message, the first failure ends it. */
function serve(data: RunJournalThreadData): void {
  const port = parentPort;
  if (port === null) return;
  let db: Database.Database | null = null;
  let sink: RunJournalSink | null = null;
  const fail = (error: unknown): void => {
    const code = (error as { code?: unknown } | null)?.code;
    const reply: RunJournalReply = {
      kind: 'failed',
      message: error instanceof Error ? error.message : String(error),
      code: typeof code === 'string' ? code : null,
    };
    port.postMessage(reply);
    try {
      db?.close();
    } catch {
      // the failure above is the one reported
    }
    db = null;
    port.close();
  };
  if (data.background) giveWay();
  try {
    db = new Database(data.file, { timeout: data.busyTimeoutMs, fileMustExist: true });
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    sink = new RunJournalSink(db, { mode: data.mode, runId: data.runId });
  } catch (error) {
    fail(error);
    return;
  }
  let idle: NodeJS.Timeout | undefined;
  const commitWhenIdle = (): void => {
    idle = undefined;
    if (db === null || sink === null) return;
    try {
      sink.commit();
    } catch (error) {
      fail(error);
    }
  };
  port.on('message', (first: RunJournalMessage) => {
    if (db === null || sink === null) return;
    if (idle !== undefined) clearTimeout(idle);
    idle = undefined;
    try {
      // the batches already waiting are folded too; rows are committed a few thousand at a time
      // (a commit costs about as much as a few dozen rows) and at the close
      let message: RunJournalMessage | undefined = first;
      while (message !== undefined && message.kind === 'records') {
        sink.fold(message.values);
        message = (receiveMessageOnPort(port)?.message as RunJournalMessage | undefined) ?? undefined;
      }
      if (message?.kind === 'close' || sink.pendingRows >= ROWS_PER_COMMIT) sink.commit();
      else if (sink.pendingRows > 0) idle = setTimeout(commitWhenIdle, IDLE_COMMIT_MS);
      if (message?.kind === 'close') {
        db.close();
        db = null;
        const reply: RunJournalReply = { kind: 'closed' };
        port.postMessage(reply);
        port.close();
      }
    } catch (error) {
      fail(error);
    }
  });
}

if (!isMainThread && (workerData as RunJournalThreadData | undefined)?.hogaRunJournal === true) {
  serve(workerData as RunJournalThreadData);
}

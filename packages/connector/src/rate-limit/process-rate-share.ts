/**
 * The broker's rate limits are per client and group, not per process: two processes of one client
 * (two `hoga run`s, a `hoga data download` beside a run) that each held a bucket of the whole limit
 * sent up to twice it, and the broker answered 429s. A {@link ProcessRateShare} splits each limit
 * evenly between the client's live processes: each one keeps a file of its own in a share folder
 * (beside the token cache), touched every second, and counts the client's files touched within the
 * last few seconds whose process is alive (from its first request on: a client that sends nothing is
 * not counted); its {@link RateLimiter} then refills at that share of the
 * limit (of 90 % of it with others: {@link SHARED_USE}), with that share of the burst (at least one
 * request), and empties its buckets when another process starts. A process that ends removes its file;
 * one killed stops counting once its file is a few seconds old or its pid gone. The count is read
 * again at most every tenth of a second, on the limiter's own calls (no request waits on disk).
 *
 * The files hold nothing secret: the name is a hash of the broker's address and the client id, and
 * the process id; the folder is made 0700.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/** The part of the limits a client's processes use between them when there are several. */
export const SHARED_USE = 0.9;

/** What a {@link RateLimiter} asks of a share: the fraction of each limit it may use now. */
export interface RateShare {
  /**
   * Counts this process among the client's from now on (the limiter calls it as each request asks
   * for its turn: a client that sends nothing, `hoga run`'s probe of its configuration, is not counted).
   */
  join(): void;
  /** The fraction of each group's limit (and burst) this process may use now, in (0, 1]. */
  fraction(): number;
  /** Stops counting this process (its file removed). */
  close(): void;
}

/** Options of {@link ProcessRateShare}. */
export interface ProcessRateShareOptions {
  /** The share folder (made if missing, 0700): the same for every process of the client. */
  readonly dir: string;
  /** The broker's address: the limits are the broker's per client. */
  readonly baseUrl: string;
  /** The client id. */
  readonly clientId: string;
  /** This process's id (default `process.pid`). */
  readonly pid?: number;
  /** How often this process touches its file, in ms (default 1,000). */
  readonly heartbeatMs?: number;
  /** A file untouched this long no longer counts, in ms (default 4,000). */
  readonly staleMs?: number;
  /** How long a count is kept before the folder is read again, in ms (default 100). */
  readonly recountMs?: number;
  /** Wall-clock ms (default `Date.now`), for the files' ages. */
  readonly now?: () => number;
}

/** Whether a process of this id is alive (one of another user's is: `EPERM`). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A share of the client's rate limits among its live processes (see the module documentation). */
export class ProcessRateShare implements RateShare {
  private readonly prefix: string;
  private readonly file: string;
  private readonly pid: number;
  private readonly staleMs: number;
  private readonly recountMs: number;
  private readonly now: () => number;
  /** The heartbeat, once this process {@link join}s. */
  private timer: NodeJS.Timeout | null = null;
  private countedAt = Number.NEGATIVE_INFINITY;
  private processes = 1;
  private closed = false;

  /** @param options - the folder, the client, the timings */
  constructor(private readonly options: ProcessRateShareOptions) {
    this.prefix = `${createHash('sha256').update(`${options.baseUrl}\n${options.clientId}`).digest('hex').slice(0, 16)}.`;
    this.pid = options.pid ?? process.pid;
    this.file = join(options.dir, `${this.prefix}${this.pid}`);
    this.staleMs = options.staleMs ?? 4_000;
    this.recountMs = options.recountMs ?? 100;
    this.now = options.now ?? Date.now;
  }

  /**
   * 1 alone; with others, an even share of {@link SHARED_USE} of the limits: the processes'
   * requests reach the broker unevenly (each one's timers and event loop), and the broker's
   * buckets, refilled a little faster than they spend, keep room for them.
   */
  fraction(): number {
    const n = this.count();
    return n === 1 ? 1 : SHARED_USE / n;
  }

  /** @inheritdoc Its file made, then touched every `heartbeatMs` until {@link close}. */
  join(): void {
    if (this.timer !== null || this.closed) return;
    this.touch();
    this.timer = setInterval(() => this.touch(), this.options.heartbeatMs ?? 1_000);
    this.timer.unref();
  }

  /** The client's live processes, this one counted (read again every `recountMs`). */
  count(): number {
    const now = this.now();
    if (now - this.countedAt < this.recountMs) return this.processes;
    this.countedAt = now;
    let names: string[];
    try {
      names = readdirSync(this.options.dir);
    } catch {
      return this.processes;
    }
    let live = this.closed ? 0 : 1;
    for (const name of names) {
      if (!name.startsWith(this.prefix)) continue;
      const pid = Number(name.slice(this.prefix.length));
      if (!Number.isSafeInteger(pid) || pid === this.pid) continue;
      try {
        if (now - statSync(join(this.options.dir, name)).mtimeMs > this.staleMs) continue;
      } catch {
        continue;
      }
      if (alive(pid)) live++;
    }
    this.processes = Math.max(1, live);
    return this.processes;
  }

  /** @inheritdoc */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== null) clearInterval(this.timer);
    try {
      unlinkSync(this.file);
    } catch {
      // already gone
    }
  }

  /** Makes or touches this process's file (a folder or file that cannot be written: not shared). */
  private touch(): void {
    if (this.closed) return;
    try {
      const at = new Date(this.now());
      try {
        utimesSync(this.file, at, at);
      } catch {
        mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
        closeSync(openSync(this.file, 'a', 0o600));
        utimesSync(this.file, at, at);
      }
    } catch {
      // the share is advisory: without a file this process is simply not counted by the others
    }
  }
}

/**
 * One paper run at a time per store. Paper runs share one paper account (its ledger and open
 * orders, saved in the store): a second run on the same store would save its own ledger over the
 * first's and work the first's open orders a second time. A paper run takes the store's lease when
 * it starts (its process id, host and start, in the paper account's state) and gives it back when
 * it stops; a lease whose process is gone (killed, a power loss) is taken over. The lease is read
 * and written in one immediate transaction, so two runs starting together cannot both take it.
 *
 * @module
 */
import { hostname } from 'node:os';
import { formatKst } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import { DateTime } from 'luxon';
import { EngineError, EngineErrorCode } from '../engine-error.js';

/** Where the lease is kept: beside the paper account's ledger and orders. */
const LEASE_OWNER = 'paper/_account';
const LEASE_KEY = 'lease';

/** A held lease. */
export interface PaperLease {
  /** Gives the lease back (once; later calls do nothing). */
  release(): void;
}

interface LeaseRecord {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: number;
}

/** Whether process `pid` of this host is alive (a process of another user counts as alive). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether `lease` still binds: its process is alive, or it was taken on another host (unknowable). */
function holds(lease: LeaseRecord | undefined, host: string): lease is LeaseRecord {
  if (lease === undefined || typeof lease.pid !== 'number') return false;
  return lease.host !== host || alive(lease.pid);
}

/**
 * Takes the store's paper lease.
 *
 * @param db - the run's store
 * @param nowMs - the run's start (engine time), recorded in the lease
 * @throws {@link EngineError} `paper-account-busy` naming the run that holds it
 */
export function takePaperLease(db: HogaDatabase, nowMs: number): PaperLease {
  const host = hostname();
  const mine: LeaseRecord = { pid: process.pid, host, startedAt: nowMs };
  db.transaction(() => {
    const held = db.strategyState.get(LEASE_OWNER, LEASE_KEY) as LeaseRecord | undefined;
    if (holds(held, host)) {
      const where = held.host === host ? `process ${held.pid}` : `process ${held.pid} on ${held.host}`;
      throw new EngineError(
        EngineErrorCode.PAPER_ACCOUNT_BUSY,
        `another paper run (${where}, started ${formatKst(DateTime.fromMillis(held.startedAt))}) works the paper ` +
          `account of ${db.file}: paper runs share it, so one runs at a time; stop that one, or give ` +
          'this run a store of its own (--db)',
      );
    }
    db.strategyState.set(LEASE_OWNER, LEASE_KEY, mine);
  });
  let released = false;
  return {
    release(): void {
      if (released) return;
      released = true;
      db.transaction(() => {
        const held = db.strategyState.get(LEASE_OWNER, LEASE_KEY) as LeaseRecord | undefined;
        if (held?.pid === mine.pid && held.host === host && held.startedAt === mine.startedAt)
          db.strategyState.delete(LEASE_OWNER, LEASE_KEY);
      });
    },
  };
}

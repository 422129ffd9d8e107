/**
 * What a live or paper run holds in its store while it runs, so that a second process cannot work
 * it too:
 * - paper, the store's paper account: paper runs share it (its ledger and open orders, saved in
 *   the store), and a second run on the same store would save its own ledger over the first's and
 *   work the first's open orders a second time;
 * - live, each of its strategies: the same strategy id in two processes on one store would see
 *   each other's orders and fills as its own and trade twice on every signal.
 *
 * A lease records the process that holds it (in `strategy_state`): its pid, host and, on Linux,
 * when the process started (`start`, as `@hoga/store`'s `thisProcess` reads it), and when the run
 * started (`startedAt`, engine time). The run takes its leases when it starts and gives them back
 * when it stops, and a lease whose process is gone (killed, a power loss) is taken over, also when
 * the system has since given its pid to another, unrelated process: that one started at another
 * time than the lease records (`runProcessAlive`). A lease with no start (taken where there is no
 * `/proc`, or by an older hoga) is judged by its pid alone. The leases are read and written in one
 * immediate transaction, so two runs starting together cannot both take one. The order manager of
 * each process reads the live leases too: an order of a strategy another run works is left to that
 * run (`orders/order-ownership.ts`).
 *
 * `hoga order` holds a lease on the one command it sends ({@link takeCommandLease}) from before it
 * is written until its answer is settled: an engine starting meanwhile on the same store leaves
 * that command to it (a command being sent is not one a crash interrupted), and its polls do not
 * look for its outcome while the process that sends it still may.
 *
 * @module
 */
import { hostname } from 'node:os';
import { formatKst } from '@hoga/core';
import { type HogaDatabase, runProcessAlive, thisProcess } from '@hoga/store';
import { DateTime } from 'luxon';
import { EngineError, EngineErrorCode } from '../engine-error.js';
import { PAPER_STATE_ID } from './paper-store.js';

/** The paper account's lease: beside its ledger and orders. */
const PAPER_LEASE = { owner: PAPER_STATE_ID, key: 'lease' } as const;
/** The live strategies' leases: one key per strategy id. */
const LIVE_LEASES = 'live/_leases';
/** The leases of commands `hoga order` sends: one key per command id. */
const COMMAND_LEASES = 'live/_commands';

/** The leases a run holds. */
export interface RunLease {
  /** Gives them back (once; later calls do nothing). */
  release(): void;
}

interface LeaseRecord {
  readonly pid: number;
  readonly host: string;
  /** When the process started (`RunProcess.start`); absent where unreadable, and in older leases. */
  readonly start?: string | null;
  readonly startedAt: number;
}

/** Where one lease is kept, and what a refusal says of it. */
interface LeaseSlot {
  readonly owner: string;
  readonly key: string;
  /** Absent for a fresh key (a command id), which no other process holds. */
  readonly refusal?: {
    readonly code: EngineErrorCode;
    readonly what: (holder: string, file: string) => string;
  };
}

/**
 * Whether `lease` still binds: its process is alive (the process holding its pid started when the
 * lease records, where that can be read), or it was taken on another host (unknowable).
 */
function holds(lease: LeaseRecord | undefined): lease is LeaseRecord {
  if (lease === undefined || typeof lease.pid !== 'number') return false;
  return runProcessAlive(lease) !== false;
}

/** The slots of a run: paper, the account; live, each strategy. */
function slotsOf(mode: 'live' | 'paper', strategyIds: readonly string[]): LeaseSlot[] {
  if (mode === 'paper') {
    return [
      {
        ...PAPER_LEASE,
        refusal: {
          code: EngineErrorCode.PAPER_ACCOUNT_BUSY,
          what: (holder, file) =>
            `another paper run (${holder}) works the paper account of ${file}: paper runs share it, so ` +
            'one runs at a time; stop that one, or give this run a store of its own (--db)',
        },
      },
    ];
  }
  return strategyIds.map((id) => ({
    owner: LIVE_LEASES,
    key: id,
    refusal: {
      code: EngineErrorCode.STRATEGY_RUNNING,
      what: (holder, file) =>
        `strategy ${id} already runs live on ${file} (${holder}): the same strategy in two processes ` +
        'would trade twice on every signal; stop that one, or give this one another id (FILE.ts:ID)',
    },
  }));
}

/**
 * The strategy ids a live run on this store holds a lease for now (its process alive, or on
 * another host): the order manager leaves their orders to that run (`OrderOwnership`).
 *
 * @param db - the store
 */
export function leasedLiveStrategies(db: HogaDatabase): Set<string> {
  const held = new Set<string>();
  for (const [id, lease] of db.strategyState.entries(LIVE_LEASES))
    if (holds(lease as LeaseRecord | undefined)) held.add(id);
  return held;
}

/**
 * The ids of the commands another process (`hoga order`) sends or settles now: its lease is held
 * by a process that is alive, or on another host. Such a command is neither interrupted nor lost.
 *
 * @param db - the store
 */
export function leasedCommands(db: HogaDatabase): Set<string> {
  const held = new Set<string>();
  for (const [id, lease] of db.strategyState.entries(COMMAND_LEASES))
    if (holds(lease as LeaseRecord | undefined)) held.add(id);
  return held;
}

/**
 * Takes the lease of one command this process is about to write and send (`hoga order`): give it
 * back once the command's answer is settled (or it was lost, for an engine to look for). The
 * leases a process left behind when it was killed are dropped here.
 *
 * @param db - the store the command is written to
 * @param commandId - the command's id (fresh: no other process holds it)
 * @param nowMs - engine time, recorded in the lease
 */
export function takeCommandLease(db: HogaDatabase, commandId: string, nowMs: number): RunLease {
  db.transaction(() => {
    for (const [id, lease] of db.strategyState.entries(COMMAND_LEASES))
      if (!holds(lease as LeaseRecord | undefined)) db.strategyState.delete(COMMAND_LEASES, id);
  });
  return takeSlots(db, [{ owner: COMMAND_LEASES, key: commandId }], nowMs);
}

/**
 * Takes the leases of a run.
 *
 * @param db - the run's store
 * @param mode - the run's mode
 * @param strategyIds - its strategies' ids
 * @param nowMs - the run's start (engine time), recorded in each lease
 * @throws {@link EngineError} `paper-account-busy` or `strategy-running`, naming the run that holds
 *   the lease (none is taken then)
 */
export function takeRunLease(
  db: HogaDatabase,
  mode: 'live' | 'paper',
  strategyIds: readonly string[],
  nowMs: number,
): RunLease {
  const slots = slotsOf(mode, strategyIds);
  return takeSlots(db, slots, nowMs);
}

/** Takes `slots` in one transaction, or throws the refusal of the first one another process holds. */
function takeSlots(db: HogaDatabase, slots: readonly LeaseSlot[], nowMs: number): RunLease {
  const host = hostname();
  const mine: LeaseRecord = { ...thisProcess(), startedAt: nowMs };
  db.transaction(() => {
    for (const slot of slots) {
      const held = db.strategyState.get(slot.owner, slot.key) as LeaseRecord | undefined;
      if (slot.refusal === undefined || !holds(held)) continue;
      const where = held.host === host ? `process ${held.pid}` : `process ${held.pid} on ${held.host}`;
      const holder = `${where}, started ${formatKst(DateTime.fromMillis(held.startedAt))}`;
      throw new EngineError(slot.refusal.code, slot.refusal.what(holder, db.file));
    }
    for (const slot of slots) db.strategyState.set(slot.owner, slot.key, mine);
  });
  let released = false;
  return {
    release(): void {
      if (released) return;
      released = true;
      db.transaction(() => {
        for (const slot of slots) {
          const held = db.strategyState.get(slot.owner, slot.key) as LeaseRecord | undefined;
          if (held?.pid === mine.pid && held.host === host && held.startedAt === mine.startedAt)
            db.strategyState.delete(slot.owner, slot.key);
        }
      });
    },
  };
}

/**
 * For the tests of a `hoga run --mode paper` child whose store refuses writes: test-only triggers
 * on the SQLite file that refuse a write as a full disk would, `hoga db ... --json` read as rows,
 * and a crash of the child. Test code only (the same as in `run-paper-store-failure.int.test.ts`,
 * which may import them from here).
 */
import type { SimulatorHandle } from '@hoga/simulator';
import { cli, env, type Running, readStore, root, run } from './run-process.test-helper.js';

/** Test-only triggers that refuse a write, as a full disk would. */
export const REFUSE = {
  /** The rows of a fill (`fills`). */
  fills: `CREATE TRIGGER test_refuse BEFORE INSERT ON fills
      BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`,
  /** The paper ledger (`strategy_state` of `paper/_account`) when it changes. */
  ledger: `CREATE TRIGGER test_refuse BEFORE UPDATE ON strategy_state
      WHEN NEW.strategy_id = 'paper/_account' AND NEW.key = 'ledger' AND NEW.value IS NOT OLD.value
      BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`,
};

/** Makes the store `db` refuse the writes of `which` (until {@link allow}). */
export function refuse(db: string, which: keyof typeof REFUSE): void {
  readStore(db, (d) => d.connection.exec(REFUSE[which]));
}

/** Makes the store `db` take every write again. */
export function allow(db: string): void {
  readStore(db, (d) => d.connection.exec('DROP TRIGGER test_refuse'));
}

/** `hoga db <args> --json` on `sim` and `db`, its rows. */
export async function dbJson(sim: SimulatorHandle, db: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', cli, 'db', ...args, '--json'], {
    cwd: root,
    env: env(sim, db),
  });
  return JSON.parse(stdout) as Record<string, string | null>[];
}

/** Kills the child as a crash would (no stop, nothing flushed). */
export async function crash(r: Running): Promise<void> {
  r.child.kill('SIGKILL');
  await r.exited;
}

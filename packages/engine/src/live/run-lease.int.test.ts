/**
 * The leases of live and paper runs, over the simulator and a SQLite file: a second paper run on
 * the store of a running one is refused, naming it, and may start once the first stopped; live, a
 * strategy id already running on the store is refused while another id runs beside it; a lease
 * left by a process that is gone is taken over.
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError } from '../engine-error.js';
import {
  Closers,
  openTempDb,
  startRunOf005930,
  startSimulatedBroker,
  Watch,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe('the run leases', () => {
  it('refuses a second paper run on the store of a running one, then lets it start once the first stopped', async () => {
    // Before: both ran, each saving its own ledger over the other's (the first's fills vanished
    // from the paper account's cash and holdings) and working the other's open orders again.
    const broker = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-paper-lease-', broker.clock);
    const s = { ...broker, db };
    const first = await startRunOf005930(s, 'paper', { strategyClass: Watch, id: 'A' });
    let refused: unknown;
    try {
      await startRunOf005930(s, 'paper', { strategyClass: Watch, id: 'B' });
    } catch (error) {
      refused = error;
    } finally {
      await first.handle.stop();
    }
    expect(refused).toBeInstanceOf(EngineError);
    expect((refused as EngineError).code).toBe('paper-account-busy');
    expect((refused as EngineError).message).toContain(`another paper run (process ${process.pid},`);
    const second = await startRunOf005930(s, 'paper', { strategyClass: Watch, id: 'B' });
    await second.handle.stop();
    expect(db.strategyState.get('paper/_account', 'lease')).toBeUndefined();
  }, 60_000);

  it('takes over a lease whose process is gone', async () => {
    const broker = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-paper-stale-', broker.clock);
    // a process that ran and ended: its id is free (no process of that id lives now)
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    db.strategyState.set('paper/_account', 'lease', {
      pid: Number(gone.stdout),
      host: hostname(),
      startedAt: 0,
    });
    const run = await startRunOf005930({ ...broker, db }, 'paper', { strategyClass: Watch });
    expect(db.strategyState.get('paper/_account', 'lease')).toMatchObject({ pid: process.pid });
    await run.handle.stop();
    expect(db.strategyState.get('paper/_account', 'lease')).toBeUndefined();
  }, 60_000);

  it('live: refuses a strategy id already running on the store; another id runs beside it', async () => {
    // Before: the same strategy in two processes saw each other's orders and fills as its own.
    const broker = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-live-lease-', broker.clock);
    const s = { ...broker, db };
    const first = await startRunOf005930(s, 'live', { strategyClass: Watch, id: 'A' });
    let refused: unknown;
    try {
      await startRunOf005930(s, 'live', { strategyClass: Watch, id: 'A' });
    } catch (error) {
      refused = error;
    }
    const beside = await startRunOf005930(s, 'live', { strategyClass: Watch, id: 'B' });
    await beside.handle.stop();
    await first.handle.stop();
    expect((refused as EngineError).code).toBe('strategy-running');
    expect((refused as EngineError).message).toContain(
      `strategy A already runs live on ${db.file} (process ${process.pid},`,
    );
    expect(db.strategyState.get('live/_leases', 'A')).toBeUndefined();
  }, 60_000);
});

/**
 * The leases of live and paper runs when the process that held one crashed and the system gave
 * its pid to another, unrelated process (over the simulator, a SQLite file and a real child
 * process that holds the pid now): the lease is taken over, as one whose pid is free, because the
 * process holding the pid started at another time than the one the lease records; and the order
 * managers of the store (a live run's, `hoga order`'s) count the orders of its strategy, which no
 * run works. A lease whose process lives and started when it records still refuses.
 *
 * Linux only: elsewhere there is no `/proc` to read a process's start from, and a lease is judged
 * by its pid alone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { processStart } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError } from '../engine-error.js';
import { OrderManager } from '../orders/order-manager.js';
import {
  Closers,
  openTempDb,
  RestBelow,
  startRunOf005930,
  startSimulatedBroker,
  until,
  Watch,
} from './live-run.test-helper.js';
import { takeCommandLease } from './run-lease.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** An unrelated process that lives until the test ends (killed then): it holds a pid. */
function unrelatedProcess(): ChildProcess & { pid: number } {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('the child process did not start');
  closers.add(() => {
    child.kill();
  });
  return child as ChildProcess & { pid: number };
}

/** The start `/proc` reads of `pid` (`<boot id>:<starttime>`). */
function startOf(pid: number): string {
  const start = processStart(pid);
  if (start === null) throw new Error(`no start readable for process ${pid}`);
  return start;
}

/**
 * A lease as a run that crashed left it, whose pid `child` holds now: that run's process had the
 * pid before, so it started earlier (a tick before `child`'s start, on the same boot).
 */
function leaseOfCrashedRun(child: { pid: number }): object {
  const [boot, ticks] = startOf(child.pid).split(':');
  return { pid: child.pid, host: hostname(), start: `${boot}:${Number(ticks) - 1}`, startedAt: 0 };
}

/** How many fills the store holds of the logical order. */
function fillRows(db: ReturnType<typeof openTempDb>, clientOrderId: string): number {
  return db.connection
    .prepare('SELECT count(*) FROM fills f JOIN orders o ON o.id = f.order_id WHERE o.client_order_id = ?')
    .pluck()
    .get(clientOrderId) as number;
}

describe.skipIf(processStart(process.pid) === null)(
  'a lease whose pid the system gave to another process',
  () => {
    it('paper: a run takes over the paper lease of a crashed run whose pid an unrelated process holds', async () => {
      // Before: the lease read as held while the unrelated process lived ("another paper run
      // (process <pid>, …) works the paper account"), and no paper run started on the store.
      const broker = await startSimulatedBroker(closers, { speed: 30 });
      const db = openTempDb(closers, 'hoga-paper-reused-', broker.clock);
      const child = unrelatedProcess();
      db.strategyState.set('paper/_account', 'lease', leaseOfCrashedRun(child));
      const run = await startRunOf005930({ ...broker, db }, 'paper', { strategyClass: Watch });
      expect(db.strategyState.get('paper/_account', 'lease')).toMatchObject({
        pid: process.pid,
        start: startOf(process.pid),
      });
      await run.handle.stop();
      expect(db.strategyState.get('paper/_account', 'lease')).toBeUndefined();
    }, 60_000);

    it("live: the strategy's lease is taken over, and `hoga order` counts the strategy's orders as no run's", async () => {
      const broker = await startSimulatedBroker(closers, { speed: 30 });
      const db = openTempDb(closers, 'hoga-live-reused-', broker.clock);
      const s = { ...broker, db };
      // strategy A rested an order, then its run crashed; its pid went to an unrelated process
      const first = await startRunOf005930(s, 'live', { strategyClass: RestBelow, id: 'A' });
      await until(() => first.events.some((e) => e.type === 'OrderAccepted'));
      await first.handle.stop();
      const submitted = first.events.find((e) => e.type === 'OrderSubmitted');
      const accepted = first.events.find((e) => e.type === 'OrderAccepted');
      if (submitted?.type !== 'OrderSubmitted' || submitted.intent.orderType !== 'LIMIT')
        throw new Error('no limit');
      if (accepted?.type !== 'OrderAccepted') throw new Error('not accepted');
      const child = unrelatedProcess();
      db.strategyState.set('live/_leases', 'A', leaseOfCrashedRun(child));
      db.strategyState.set('live/_commands', 'cmd-of-crashed', leaseOfCrashedRun(child));
      // the order fills at the broker; `hoga order` brings it up to date in the store
      broker.sim.setPrice('005930', submitted.intent.price.minus(1_000));
      const deadline = performance.now() + 15_000;
      while ((await broker.client.getOrder(accepted.brokerOrderId)).status !== 'FILLED') {
        if (performance.now() > deadline) throw new Error('the order did not fill at the broker');
        await new Promise((r) => setTimeout(r, 100));
      }
      await new OrderManager(broker.client, db, broker.clock).refreshOrder(submitted.clientOrderId);
      // Before: left to the crashed run as if it still worked A: no fill counted (`hoga db fills`
      // listed none, the order stayed open) while the unrelated process lived
      expect(fillRows(db, submitted.clientOrderId)).toBe(1);
      // the crashed `hoga order`'s command lease is dropped as the next one is taken
      takeCommandLease(db, 'cmd-next', broker.clock.nowMs()).release();
      expect(db.strategyState.get('live/_commands', 'cmd-of-crashed')).toBeUndefined();
      // Before: refused, `strategy-running` ("strategy A already runs live on … (process <pid>, …)")
      const again = await startRunOf005930(s, 'live', { strategyClass: Watch, id: 'A' });
      expect(db.strategyState.get('live/_leases', 'A')).toMatchObject({ pid: process.pid });
      await again.handle.stop();
    }, 60_000);

    it('a lease whose process lives and started when it records still refuses, paper and live', async () => {
      const broker = await startSimulatedBroker(closers, { speed: 30 });
      const db = openTempDb(closers, 'hoga-held-lease-', broker.clock);
      const child = unrelatedProcess();
      const held = { pid: child.pid, host: hostname(), start: startOf(child.pid), startedAt: 0 };
      db.strategyState.set('paper/_account', 'lease', held);
      db.strategyState.set('live/_leases', 'A', held);
      const refusal = async (mode: 'live' | 'paper'): Promise<unknown> =>
        startRunOf005930({ ...broker, db }, mode, { strategyClass: Watch, id: 'A' }).then(
          async (run) => {
            await run.handle.stop();
            return null;
          },
          (error: unknown) => error,
        );
      const paper = await refusal('paper');
      const live = await refusal('live');
      expect(paper).toBeInstanceOf(EngineError);
      expect((paper as EngineError).code).toBe('paper-account-busy');
      expect((paper as EngineError).message).toContain(`another paper run (process ${child.pid},`);
      expect(live).toBeInstanceOf(EngineError);
      expect((live as EngineError).code).toBe('strategy-running');
      expect((live as EngineError).message).toContain(`(process ${child.pid},`);
      expect(db.strategyState.get('live/_leases', 'A')).toEqual(held);
    }, 60_000);
  },
);

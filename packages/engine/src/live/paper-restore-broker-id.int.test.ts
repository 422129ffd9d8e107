/**
 * A resting paper order worked again after restarts keeps the broker order id its strategy was told
 * (`OrderAccepted`): the store lists that one id, linked once as its `create`, a later modify
 * replaces that id, and `hoga db orders` shows the order once under the id last told. Before, each
 * restart gave the order a new paper id and linked it as one more `create`: after two restarts the
 * order listed three `create` ids and `hoga db orders` showed an id the strategy never heard of.
 * Over the simulator on 127.0.0.1, a real SQLite file and the real `hoga` CLI as a child process.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ClientOrderId } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrategySpec } from '../runtime/engine-runtime.js';
import {
  Closers,
  RestBelow,
  type StartedRun,
  startRunOf005930,
  startSimulatedBroker,
  tempDbFile,
  until,
  Watch,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

const HOGA = fileURLToPath(new URL('../../../cli/bin/hoga.js', import.meta.url));

/** `hoga db orders --mode paper --json` on the SQLite file `file`. */
async function dbOrders(file: string): Promise<
  {
    clientOrderId: string;
    brokerOrderId: string | null;
    state: string;
    brokerOrderIds: { brokerOrderId: string; kind: string }[];
  }[]
> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [HOGA, 'db', 'orders', '--mode', 'paper', '--json'],
    { env: { ...process.env, HOGA_DB: file }, timeout: 60_000 },
  );
  return JSON.parse(stdout);
}

describe('a paper order worked again after restarts', () => {
  it('keeps the broker id its strategy was told, linked once, in the store and in hoga db orders', async () => {
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const file = tempDbFile('hoga-paper-restore-id-');
    let db = HogaDatabase.open(file, { clock: s.clock });
    closers.add(() => db.close());
    const run = (strategy: StrategySpec): Promise<StartedRun> =>
      startRunOf005930({ client: s.client, clock: s.clock, db }, 'paper', strategy);

    const first = await run({ strategyClass: RestBelow });
    await until(() => first.events.some((e) => e.type === 'OrderAccepted'));
    await first.handle.stop();
    const accepted = first.events.find((e) => e.type === 'OrderAccepted');
    if (accepted?.type !== 'OrderAccepted') throw new Error('no accepted order');
    const id = accepted.clientOrderId;
    const told = accepted.brokerOrderId;

    // two restarts on the same file: the order rests on, the strategy finds it each time
    for (let restart = 1; restart <= 2; restart++) {
      db.close();
      db = HogaDatabase.open(file, { clock: s.clock });
      Watch.found = [];
      const next = await run({ strategyClass: Watch, id: 'RestBelow' });
      await next.handle.stop();
      expect(Watch.found).toHaveLength(1);
      expect(Watch.found[0]).toMatch(new RegExp(`^${id} BUY 2 @ \\d+ ACCEPTED$`));
    }
    expect(db.orders.brokerOrderIds(id).map((l) => `${l.kind} ${l.brokerOrderId}`)).toEqual([
      `create ${told}`,
    ]);
    expect(db.orders.get(id)?.brokerOrderId).toBe(told);

    // a third run modifies it (the venue works it under that id: the modify replaces it) and cancels it
    db.close();
    db = HogaDatabase.open(file, { clock: s.clock });
    const last = await run({ strategyClass: Watch, id: 'RestBelow' });
    const price = Number(/@ (\d+)/.exec(Watch.found[0] ?? '')?.[1]);
    Watch.ctx?.modify(id as ClientOrderId, { price: price - 100 });
    await until(() => last.events.some((e) => e.type === 'OrderModified'));
    const modified = last.events.find((e) => e.type === 'OrderModified');
    if (modified?.type !== 'OrderModified') throw new Error('not modified');
    expect(modified.previousBrokerOrderId).toBe(told);
    const replaced = modified.brokerOrderId;
    expect(replaced).not.toBe(told);
    Watch.ctx?.cancel(id as ClientOrderId);
    await until(() => last.events.some((e) => e.type === 'OrderCanceled'));
    await last.handle.stop();
    db.close();

    // the order once, under the id its strategy was told last; its ids as they came
    const rows = await dbOrders(file);
    expect(rows.map((r) => `${r.clientOrderId} ${r.brokerOrderId} ${r.state}`)).toEqual([
      `${id} ${replaced} CANCELED`,
    ]);
    expect(rows[0]?.brokerOrderIds.map((l) => `${l.kind} ${l.brokerOrderId}`)).toEqual([
      `create ${told}`,
      `modify ${replaced}`,
    ]);
  }, 120_000);
});

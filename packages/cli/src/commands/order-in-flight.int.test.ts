import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ClientOrderId, newEventId, strategyId } from '@hoga/core';
import { OrderManager, type OrderManagerAlert } from '@hoga/engine';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags, tempHome } from '../hoga-process.test-helper.js';
import { connect } from './broker/connection.js';

// `hoga order` as a child process, and an engine starting on the same store while its command is on
// its way: the engine's start (OrderManager.reconcile, then its polls, as `hoga run` does) must leave
// the command to the process that sends it.

let sim: SimulatorHandle;
const dir = mkdtempSync(join(tmpdir(), 'hoga-order-in-flight-'));
const dbFile = join(dir, 'hoga.sqlite');
const env = { HOME: tempHome(), HOGA_TOKEN_FILE: join(dir, 'tokens.json') };

beforeAll(async () => {
  sim = await startSimulator({ port: 0, start: '2026-11-23T10:00:00+09:00', speed: 0, rateLimit: false });
});
afterAll(async () => {
  await sim.close();
});

const order = (...args: string[]) =>
  hoga(['order', ...args, '--json', ...simFlags(sim.url), '--db', dbFile], { env, killAfterMs: 30_000 });

/** Waits until the simulator has held back `count` requests in all (a `delay` fault fired). */
async function faultsFired(count: number): Promise<void> {
  while (sim.counters().faultsFired < count) await sleep(20);
}

/**
 * An engine starting on the store: its reconciliation, then `then` (its own commands), then `polls`
 * polls. Returns the alerts it raised.
 */
async function engineStarts(
  polls: number,
  then: (engine: OrderManager) => Promise<void> = async () => undefined,
): Promise<OrderManagerAlert[]> {
  const connected = connect({
    baseUrl: sim.url,
    clientId: 'sim-client',
    clientSecret: 'sim-secret',
    db: dbFile,
  });
  const db = HogaDatabase.open(dbFile);
  const clock = { now: () => sim.now(), nowMs: () => sim.now().toMillis() };
  const alerts: OrderManagerAlert[] = [];
  try {
    const engine = new OrderManager(connected.client, db, clock, { minChecks: 2, unknownAfterMs: 0 });
    const subscription = engine.alerts$.subscribe((a) => alerts.push(a));
    await engine.reconcile();
    await then(engine);
    for (let i = 0; i < polls; i++) await engine.pollOnce();
    subscription.unsubscribe();
  } finally {
    db.close();
    connected.close();
  }
  return alerts;
}

function orderRequests(): number {
  return sim.counters().requestsByGroup.ORDER ?? 0;
}

describe('hoga order while an engine starts on the same store', () => {
  it('a modify on its way is not taken for interrupted: no refusal, no order adopted as external', async () => {
    const placed = await order('buy', '005930', '2', '--limit', '60000');
    expect(placed.code, placed.err).toBe(0);
    const { clientOrderId, brokerOrderId } = JSON.parse(placed.out) as {
      clientOrderId: string;
      brokerOrderId: string;
    };
    const fired = sim.counters().faultsFired;
    sim.injectFault({
      kind: 'delay',
      path: '/api/v1/orders/*/modify',
      method: 'POST',
      delayMs: 4_000,
      count: 1,
    });
    const modifying = order('modify', clientOrderId, '--limit', '60100');
    await faultsFired(fired + 1);
    // Before: the start marked the modify interrupted and, the broker showing the order unchanged
    // for the polls, refused it ('not-applied'); when the broker then applied it, the order was
    // recorded CANCELED, hoga order printed OrderCanceled, and the replacement working at 60100 was
    // adopted as ext-<brokerOrderId> with no strategy.
    await engineStarts(4);
    const modified = await modifying;
    expect(modified.code, modified.err).toBe(0);
    const answer = JSON.parse(modified.out) as { brokerOrderId: string; events: string[] };
    expect(answer.events).toEqual(['OrderModifyRequested', 'OrderModified']);
    expect(answer.brokerOrderId).not.toBe(brokerOrderId);
    const db = HogaDatabase.open(dbFile, { readonly: true });
    try {
      const stored = db.orders.get(clientOrderId);
      expect({
        price: stored?.price?.toFixed(),
        state: stored?.state,
        broker: stored?.brokerOrderId,
      }).toEqual({
        price: '60100',
        state: 'ACCEPTED',
        broker: answer.brokerOrderId,
      });
      expect(db.orders.list().filter((o) => o.clientOrderId.startsWith('ext-'))).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a create on its way is not sent a second time by the starting engine', async () => {
    const fired = sim.counters().faultsFired;
    const before = orderRequests();
    sim.injectFault({ kind: 'delay', path: '/api/v1/orders', method: 'POST', delayMs: 3_000, count: 1 });
    const buying = order('buy', '005930', '1', '--limit', '60000');
    await faultsFired(fired + 1);
    // Before: the start marked the create interrupted and its first poll sent it again under the
    // same clientOrderId (two create requests; only the broker's replay window kept one order).
    await engineStarts(2);
    const bought = await buying;
    expect(bought.code, bought.err).toBe(0);
    expect(orderRequests() - before).toBe(1);
    const { clientOrderId } = JSON.parse(bought.out) as { clientOrderId: string };
    expect(sim.counters().ordersPerClientOrderId[clientOrderId]).toBe(1);
  });

  it('the create of a hoga order killed on its way is interrupted: the next start settles it, one order', async () => {
    const fired = sim.counters().faultsFired;
    sim.injectFault({ kind: 'delay', path: '/api/v1/orders', method: 'POST', delayMs: 2_000, count: 1 });
    let child: ChildProcess | undefined;
    const buying = hoga(
      ['order', 'buy', '005930', '3', '--limit', '60000', ...simFlags(sim.url), '--db', dbFile],
      {
        env,
        onSpawn: (c) => {
          child = c;
        },
      },
    );
    await faultsFired(fired + 1);
    child?.kill('SIGKILL');
    expect((await buying).signal).toBe('SIGKILL');
    // its lease binds nothing once its process is gone: the start takes the command for
    // interrupted and settles it (re-sent under its key inside the window: the broker's replay)
    await engineStarts(2);
    const db = HogaDatabase.open(dbFile, { readonly: true });
    try {
      const placed = db.orders.list().filter((o) => o.quantity?.toFixed() === '3');
      expect(placed.map((o) => o.state)).toEqual(['ACCEPTED']);
      const clientOrderId = placed[0]?.clientOrderId ?? '';
      expect(sim.counters().ordersPerClientOrderId[clientOrderId]).toBe(1);
    } finally {
      db.close();
    }
  });

  it('a cancel of a hoga order killed on its way, then cancelled again by the engine, is refused, not unknown', async () => {
    // Seen with a strategy cancelling its resting buys on every bar and killed mid-cancel: the next
    // run's cancel of the order was answered and linked, and the interrupted one, finding the
    // broker order CANCELED and its cancel record taken, was declared unknown after its checks
    // (ALERT OrderOutcomeUnknown '0 orders in the history match the cancel') though the order was
    // cleanly cancelled once.
    const placed = await order('buy', '005930', '1', '--limit', '59000');
    const { clientOrderId } = JSON.parse(placed.out) as { clientOrderId: string };
    const fired = sim.counters().faultsFired;
    sim.injectFault({
      kind: 'delay',
      path: '/api/v1/orders/*/cancel',
      method: 'POST',
      delayMs: 1_500,
      count: 1,
    });
    let child: ChildProcess | undefined;
    const cancelling = hoga(['order', 'cancel', clientOrderId, ...simFlags(sim.url), '--db', dbFile], {
      env,
      onSpawn: (c) => {
        child = c;
      },
    });
    await faultsFired(fired + 1);
    child?.kill('SIGKILL');
    await cancelling;
    const alerts = await engineStarts(3, async (engine) => {
      await engine.execute({
        type: 'CancelOrder',
        commandId: newEventId(),
        strategyId: strategyId('manual'),
        tsInit: 0,
        clientOrderId: clientOrderId as ClientOrderId,
      });
      await sleep(2_000); // the held cancel reaches the broker: 409 already-canceled
    });
    expect(alerts.map((a) => a.type)).toEqual([]);
    const db = HogaDatabase.open(dbFile, { readonly: true });
    try {
      expect(db.orders.get(clientOrderId)?.state).toBe('CANCELED');
      const rows = db.connection
        .prepare(
          'SELECT status, error FROM order_commands WHERE client_order_id = ? AND kind = ? ORDER BY created_at',
        )
        .all(clientOrderId, 'cancel');
      expect(rows).toEqual([
        { status: 'rejected', error: expect.stringMatching(/^already-canceled: /) },
        { status: 'done', error: null },
      ]);
    } finally {
      db.close();
    }
  });
});

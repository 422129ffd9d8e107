/**
 * A create another process wrote to the command journal and sent, but whose rows it never wrote
 * (`hoga order` killed between its send and its rows, or giving up on a store another process
 * held locked): the running engine on the same store finds the order at the broker. Before: it
 * adopted the order as one from another channel (`ext-<id>`, its fills booked to no strategy), and
 * the next start stored the create, found its order taken and left it ACCEPTED for ever. Now the
 * poll that finds an order nobody knows first stores the journal's creates: the order is the
 * create's, looked for under its key, accepted, created once. Over the simulator (HTTP) and a real
 * SQLite file opened by a second connection as the other process.
 */
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  openTempDb,
  startSimulatedBroker,
  startTestRun,
  until,
  Watch,
} from '../live/live-run.test-helper.js';
import { submitLimit } from './live-fixture.test-helper.js';
import { OrderManagerStore } from './order-manager-store.js';
import { createContent, createRequestOf } from './order-requests.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe('a create of another process left only in the command journal', () => {
  it('is stored by the running engine and found at the broker, not adopted as external', async () => {
    const s = await startSimulatedBroker(closers, { speed: 1, rateLimit: false });
    const db = openTempDb(closers, 'hoga-journal-fold-', s.clock);
    const { handle } = await startTestRun(
      { ...s, db },
      {
        runId: 'fold',
        mode: 'live',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Watch }],
      },
      { pollIntervalMs: 300 },
    );
    closers.add(() => handle.stop());
    // the other process: its create in the journal, sent, then gone before its rows
    const other = HogaDatabase.open(db.file);
    const order = submitLimit('005930', 'BUY', '1', '55000');
    const intent = order.intent;
    new OrderManagerStore(other, 'normal').recordCreate(
      'other-1',
      intent.clientOrderId,
      { symbol: '005930', side: 'BUY', strategyId: null },
      JSON.stringify(createContent(intent)),
      s.clock.nowMs(),
    );
    const placed = await s.client.createOrder(createRequestOf(intent));
    other.close();

    const rows = () =>
      db.orders.list({ mode: 'live' }).map((o) => [o.clientOrderId, o.state, o.brokerOrderId] as const);
    const settled = await until(
      () => rows().some(([id, state]) => id === intent.clientOrderId && state === 'ACCEPTED'),
      30_000,
    ).then(
      () => true,
      () => false,
    );
    expect({ settled, rows: rows() }).toEqual({
      settled: true,
      rows: [[intent.clientOrderId, 'ACCEPTED', placed.orderId]],
    });
    expect(s.sim.counters().ordersCreated).toBe(1);
  }, 120_000);
});

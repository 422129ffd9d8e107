import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../src/index.js';
import { useSimulators } from './conformance-kit.js';
import { krLimit } from './kr-orders.test-helper.js';
import { type Json, outcome, startTestSimulator, TestClient } from './sim-client.js';

const startSim = useSimulators();

async function setup(): Promise<{ sim: SimulatorHandle; client: TestClient; order: (id?: string) => Json }> {
  const { sim, client } = await startSim();
  const res = await client.get('/api/v1/price-limits', { symbol: '005930' });
  const lower = new Decimal(res.body.result.lowerLimitPrice).toFixed();
  const order = (clientOrderId?: string): Json =>
    krLimit('BUY', '1', lower, clientOrderId === undefined ? {} : { clientOrderId });
  return { sim, client, order };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('clientOrderId idempotency', () => {
  it('replays the first result for the same content within 10 minutes and creates one order', async () => {
    const { sim, client, order } = await setup();
    const first = await client.post('/api/v1/orders', order('idem-1'));
    sim.advanceClock(9 * 60_000);
    const second = await client.post('/api/v1/orders', order('idem-1'));
    expect(outcome(first)).toBe('200');
    expect(second.body.result).toEqual(first.body.result);
    expect(sim.counters()).toMatchObject({ ordersCreated: 1, ordersPerClientOrderId: { 'idem-1': 1 } });
    const open = await client.get('/api/v1/orders', { status: 'OPEN' });
    expect(open.body.result.orders).toHaveLength(1);
  });

  it('answers 409 request-in-progress while the first request is still processing, then replays', async () => {
    const { sim, client, order } = await setup();
    // the second request goes once the first has reached the simulator (its fault fired), and the
    // first stays in processing 3 s. Before: a fixed 150 ms sleep and 500 ms of processing, so on
    // a loaded machine the second could come after the first was done (a replay, 200), or reach
    // the simulator first
    sim.injectFault({ kind: 'slow-order', path: '/api/v1/orders', method: 'POST', delayMs: 3_000, count: 1 });
    const first = client.post('/api/v1/orders', order('idem-2'));
    while (sim.counters().faultsFired === 0) await sleep(10);
    const during = await client.post('/api/v1/orders', order('idem-2'));
    expect(outcome(during)).toBe('409 request-in-progress');
    const done = await first;
    expect(outcome(done)).toBe('200');
    const after = await client.post('/api/v1/orders', order('idem-2'));
    expect(after.body.result).toEqual(done.body.result);
    expect(sim.counters().ordersPerClientOrderId).toEqual({ 'idem-2': 1 });
  });

  it('answers 422 idempotency-key-conflict for the same id with other content', async () => {
    const { sim, client, order } = await setup();
    expect(outcome(await client.post('/api/v1/orders', order('idem-3')))).toBe('200');
    const other = await client.post('/api/v1/orders', { ...order('idem-3'), quantity: '2' });
    expect(outcome(other)).toBe('422 idempotency-key-conflict');
    expect(sim.counters().ordersCreated).toBe(1);
  });

  it('replays a resent create that spells out the defaults (timeInForce DAY, no high-value confirmation)', async () => {
    const { sim, client, order } = await setup();
    const first = await client.post('/api/v1/orders', order('idem-defaults'));
    expect(outcome(first)).toBe('200');
    const spelled = await client.post('/api/v1/orders', {
      ...order('idem-defaults'),
      timeInForce: 'DAY',
      confirmHighValueOrder: false,
    });
    expect(outcome(spelled)).toBe('200');
    expect(spelled.body.result).toEqual(first.body.result);
    const other = await client.post('/api/v1/orders', {
      ...order('idem-defaults'),
      timeInForce: 'DAY',
      quantity: '2',
    });
    expect(outcome(other)).toBe('422 idempotency-key-conflict');
    expect(sim.counters()).toMatchObject({
      ordersCreated: 1,
      ordersPerClientOrderId: { 'idem-defaults': 1 },
    });
  });

  it('replays a first create that spelled out the defaults when they are left out on resend', async () => {
    const { sim, client, order } = await setup();
    const spelled = { ...order('idem-defaults-2'), timeInForce: 'DAY', confirmHighValueOrder: false };
    const first = await client.post('/api/v1/orders', spelled);
    expect(outcome(first)).toBe('200');
    const bare = await client.post('/api/v1/orders', order('idem-defaults-2'));
    expect(outcome(bare)).toBe('200');
    expect(bare.body.result).toEqual(first.body.result);
    expect(sim.counters().ordersCreated).toBe(1);
  });

  it('creates a new order with the same values after the 10-minute window', async () => {
    const { sim, client, order } = await setup();
    const first = await client.post('/api/v1/orders', order('idem-4'));
    sim.advanceClock(10 * 60_000 + 1_000);
    const later = await client.post('/api/v1/orders', order('idem-4'));
    expect(outcome(later)).toBe('200');
    expect(later.body.result.orderId).not.toBe(first.body.result.orderId);
    expect(sim.counters()).toMatchObject({ ordersCreated: 2, ordersPerClientOrderId: { 'idem-4': 2 } });
  });

  it('creates separate orders for requests without clientOrderId', async () => {
    const { sim, client, order } = await setup();
    const a = await client.post('/api/v1/orders', order());
    const b = await client.post('/api/v1/orders', order());
    expect(a.body.result.clientOrderId).toBeNull();
    expect(a.body.result.orderId).not.toBe(b.body.result.orderId);
    expect(sim.counters().ordersCreated).toBe(2);
  });

  it('lets a client recover from a connection dropped after the commit by replaying the id', async () => {
    const { sim, client, order } = await setup();
    sim.injectFault({ kind: 'drop-after-commit', path: '/api/v1/orders', method: 'POST', count: 1 });
    await expect(client.post('/api/v1/orders', order('idem-5'))).rejects.toThrow();
    expect(sim.counters().ordersCreated).toBe(1);
    const retry = await client.post('/api/v1/orders', order('idem-5'));
    expect(outcome(retry)).toBe('200');
    expect(sim.counters()).toMatchObject({ ordersCreated: 1, ordersPerClientOrderId: { 'idem-5': 1 } });
    const open = await client.get('/api/v1/orders', { status: 'OPEN' });
    expect(open.body.result.orders.map((o: Json) => o.orderId)).toEqual([retry.body.result.orderId]);
  });

  it('answers a committed create 200 and keeps its clientOrderId when the --state file cannot be written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hoga-idem-'));
    const stateDir = join(dir, 'state');
    const failures: unknown[] = [];
    const sim = await startTestSimulator({
      statePath: join(stateDir, 's.json'),
      onInternalError: (error) => failures.push(error),
    });
    try {
      const client = new TestClient(sim.url);
      const res = await client.get('/api/v1/price-limits', { symbol: '005930' });
      const body = krLimit('BUY', '1', res.body.result.lowerLimitPrice, { clientOrderId: 'disk-1' });
      await writeFile(stateDir, 'a file where the state directory was');
      const first = await client.post('/api/v1/orders', body);
      const again = await client.post('/api/v1/orders', body);
      // before: the first answer was 500 internal-error though the order was created (only the
      // retry with the same clientOrderId found it; without one, a retry doubles the order)
      expect(outcome(first)).toBe('200');
      expect(again.body.result).toEqual(first.body.result);
      expect(sim.counters()).toMatchObject({ ordersCreated: 1, ordersPerClientOrderId: { 'disk-1': 1 } });
      // the failed save is reported once (the replay saves nothing)
      expect(failures.map(String)).toEqual([expect.stringContaining('EEXIST')]);
    } finally {
      await rm(stateDir, { force: true });
      await mkdir(stateDir);
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

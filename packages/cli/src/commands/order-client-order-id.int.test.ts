/**
 * `hoga order buy|sell --client-order-id ID` as a child process over the simulator with a real
 * SQLite file: a user who runs the same command again (after a timeout, a lost connection) gets the
 * order placed the first time, not a second one, at the broker or in hoga's store; the same id for
 * another order is refused, naming the conflict. Before, every run placed a new order under a fresh
 * `cli-…` id.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, hogaToEnd as hoga, readStore, setup, start } from './run-process.test-helper.js';

afterEach(closeSims);

const BUY = ['order', 'buy', '005930', '1', '--limit', '50000'];

describe('hoga order buy --client-order-id run twice', () => {
  it('places one order and tells the second run it was already placed', async () => {
    const { sim, db } = await setup(true, 1);
    const environment = env(sim, db);
    const first = await hoga([...BUY, '--client-order-id', 'rerun-1', '--json'], environment);
    expect(first.code).toBe(0);
    const placed = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(placed).toMatchObject({
      clientOrderId: 'rerun-1',
      sent: true,
      outcome: 'sent',
      state: 'ACCEPTED',
    });

    const again = await hoga([...BUY, '--client-order-id', 'rerun-1'], environment);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^already placed: rerun-1 \(broker order \S+\): ACCEPTED; nothing filled yet/m);
    const json = await hoga([...BUY, '--client-order-id', 'rerun-1', '--json'], environment);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      clientOrderId: 'rerun-1',
      brokerOrderId: placed.brokerOrderId,
      sent: false,
      outcome: 'already-placed',
      state: 'ACCEPTED',
    });

    const check = await hoga([...BUY, '--client-order-id', 'rerun-1', '--check'], environment);
    expect(check.code).toBe(0);
    expect(check.out).toMatch(/^already placed: rerun-1 /m);

    expect(sim.counters().ordersCreated).toBe(1);
    const stored = readStore(db, (d) => d.orders.list().filter((o) => o.symbol === '005930'));
    expect(stored.map((o) => o.clientOrderId)).toEqual(['rerun-1']);
  }, 120_000);

  it('refuses the same id for another order, naming the conflict, and sends nothing', async () => {
    const { sim, db } = await setup(true, 1);
    const environment = env(sim, db);
    expect((await hoga([...BUY, '--client-order-id', 'rerun-2'], environment)).code).toBe(0);
    const other = await hoga(
      ['order', 'buy', '005930', '1', '--limit', '49000', '--client-order-id', 'rerun-2'],
      environment,
    );
    expect(other.code).toBe(1);
    expect(other.out).toMatch(/idempotency-key-conflict/);
    expect(other.out).toContain('rerun-2');
    expect(other.out).toContain('49000');
    const json = await hoga(
      ['order', 'sell', '005930', '1', '--limit', '50000', '--client-order-id', 'rerun-2', '--json'],
      environment,
    );
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      clientOrderId: 'rerun-2',
      sent: false,
      outcome: 'not-sent',
      code: 'idempotency-key-conflict',
    });
    expect(sim.counters().ordersCreated).toBe(1);
    const stored = readStore(db, (d) => d.orders.get('rerun-2'));
    expect(stored?.price?.toFixed()).toBe('50000');
    expect(stored?.side).toBe('BUY');
  }, 120_000);

  it('reports a market order that filled, and sends nothing more', async () => {
    const { sim, db } = await setup(true, 1);
    const environment = env(sim, db);
    const market = ['order', 'buy', '005930', '2', '--market', '--client-order-id', 'rerun-m'];
    expect((await hoga(market, environment)).code).toBe(0);
    const again = await hoga(market, environment);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(
      /^already placed: rerun-m \(broker order \S+\): FILLED; filled 2 at an average \d{2},\d{3} KRW/m,
    );
    expect(sim.counters().ordersCreated).toBe(1);
  }, 120_000);

  it("is answered by the broker's replay, or refused as its conflict, when hoga's store does not know the id", async () => {
    const { sim, db } = await setup(true, 1);
    const first = await hoga([...BUY, '--client-order-id', 'rerun-3', '--json'], env(sim, db));
    expect(first.code).toBe(0);
    const { brokerOrderId } = JSON.parse(first.stdout) as { brokerOrderId: string };
    // other stores (another machine, or --db elsewhere): only the broker remembers the id
    const elsewhere = () => join(mkdtempSync(join(tmpdir(), 'hoga-order-id-')), 'hoga.sqlite');
    const same = await hoga([...BUY, '--client-order-id', 'rerun-3', '--json'], env(sim, elsewhere()));
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ clientOrderId: 'rerun-3', brokerOrderId });
    const other = await hoga(
      ['order', 'buy', '005930', '2', '--limit', '50000', '--client-order-id', 'rerun-3'],
      env(sim, elsewhere()),
    );
    expect(other.code).toBe(1);
    expect(other.out).toMatch(/^refused by the broker: idempotency-key-conflict: .*rerun-3/m);
    expect(other.out).toContain('give another --client-order-id');
    expect(sim.counters().ordersCreated).toBe(1);
  }, 120_000);
});

describe('hoga order buy --client-order-id run again after the first lost its answer', () => {
  it('finds the order the first run placed, under its key, and places no second one', async () => {
    const { sim, db } = await setup(true, 1);
    // the first run's retries of the lost create back off 20, 40, 80, 160 ms (not 1, 2, 4, 8 s)
    const environment = { ...env(sim, db), HOGA_BACKOFF_BASE_MS: '20' };
    // every answer to a create is lost (the broker commits it, then the connection drops), as
    // long as the first run tries
    sim.injectFault({ kind: 'drop-after-commit', path: '/api/v1/orders', method: 'POST', count: 1000 });
    const first = await hoga([...BUY, '--client-order-id', 'rerun-l'], environment);
    sim.clearFaults();
    expect(first.code).toBe(1);
    expect(first.out).toMatch(
      /^sent: rerun-l, but the broker's answer did not arrive: .*run the same command again with --client-order-id rerun-l/m,
    );
    expect(readStore(db, (d) => d.orders.get('rerun-l')?.brokerOrderId)).toBeNull();
    const again = await hoga([...BUY, '--client-order-id', 'rerun-l'], environment);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^already placed: rerun-l \(broker order \S+\): ACCEPTED; nothing filled yet/m);
    expect(sim.counters().ordersPerClientOrderId).toEqual({ 'rerun-l': 1 });
    expect(sim.counters().ordersCreated).toBe(1);
    expect(readStore(db, (d) => d.orders.list().map((o) => [o.clientOrderId, o.state]))).toEqual([
      ['rerun-l', 'ACCEPTED'],
    ]);
  }, 120_000);
});

/** Reads `read` until `ok` holds (the store file is written by another process meanwhile). */
async function waitFor<T>(read: () => T, ok: (v: T) => boolean, timeoutMs: number): Promise<T | undefined> {
  const end = performance.now() + timeoutMs;
  let v: T | undefined;
  while (performance.now() < end) {
    try {
      v = read();
      if (ok(v)) return v;
    } catch {
      // the file is being written
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return v;
}

describe('hoga order buy --client-order-id run again after the first was killed mid-send', () => {
  it('finds the order the first run placed, under its key, and places no second one', async () => {
    const { sim, db } = await setup(true, 1);
    const environment = env(sim, db);
    // the next create stays in progress 4 s and its answer is held 4 s more
    sim.injectFault({ kind: 'slow-order', path: '/api/v1/orders', method: 'POST', delayMs: 4000, count: 1 });
    const first = start([...BUY, '--client-order-id', 'rerun-k'], environment);
    const command = () =>
      readStore(db, (d) =>
        d.connection
          .prepare('SELECT status FROM order_commands WHERE client_order_id = ?')
          .pluck()
          .get('rerun-k'),
      );
    expect(await waitFor(command, (c) => c === 'sending', 60_000)).toBe('sending');
    first.child.kill('SIGKILL');
    await first.exited;
    // the re-send under the key waits while the broker still processes the first (409
    // request-in-progress, asked again), then gets the first one's answer
    const again = await hoga([...BUY, '--client-order-id', 'rerun-k', '--json'], environment);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      clientOrderId: 'rerun-k',
      sent: false,
      outcome: 'already-placed',
      state: 'ACCEPTED',
    });
    expect(sim.counters().ordersPerClientOrderId).toEqual({ 'rerun-k': 1 });
    expect(sim.counters().ordersCreated).toBe(1);
  }, 180_000);
});

describe('hoga order buy --client-order-id with an id the broker would refuse', () => {
  it.each([['has space'], ['x'.repeat(37)], ['semi;colon']])(
    'refuses %j as bad usage (exit 2)',
    async (id) => {
      const { sim, db } = await setup(true, 1);
      const run = await hoga([...BUY, '--client-order-id', id], env(sim, db));
      expect(run.code).toBe(2);
      expect(run.out).toContain('--client-order-id');
      expect(run.out).toContain('1 to 36');
      expect(sim.counters().ordersCreated).toBe(0);
    },
    120_000,
  );
});

describe('hoga order buy without --client-order-id', () => {
  it('prints the id it made, so the command can be run again with it', async () => {
    const { sim, db } = await setup(true, 1);
    const run = await hoga(BUY, env(sim, db));
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^sent: cli-[0-9a-f]+ /m);
  }, 120_000);
});

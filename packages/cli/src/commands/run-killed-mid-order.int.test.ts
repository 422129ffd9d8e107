/**
 * `hoga run --mode live` killed with SIGKILL at points of its orders' lives and started again on
 * the same store, a strategy (`crash-plan.ts`) placing and cancelling through it. The real `hoga` as
 * a child process, the simulator over HTTP (its clock stopped, moved by the test: each second moved
 * redraws the books, so a partly filled buy fills more), a real SQLite file.
 *
 * Killed (a) right after a create reached the broker, its answer held back; (b) between two fills of
 * a partly filled order; (c) while a cancel is on its way, its answer held back. Afterwards each
 * broker order is in `hoga db orders` once and nothing was sent twice; `hoga db fills` holds each
 * execution once, what the broker counted; `hoga db positions` are the broker's holdings; and the
 * strategy heard of every fill once, those made while it was down at the start that found them.
 *
 * And what another process did to a strategy's orders while the strategy was down (another engine
 * on the same store counted a fill, `hoga order cancel` ended one): the strategy is told of it at
 * its next start, once.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient, FileTokenCache, type OrderRecord } from '@hoga/connector';
import { Decimal } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { env, exitedWithin, hogaToEnd, type Running, root, start } from './run-process.test-helper.js';

const PLAN = join(root, 'packages/cli/test/fixtures/crash-plan.ts');
/** 09:30 New York: the US regular session has just opened. */
const US_OPEN = '2026-11-23T23:30:00+09:00';

/** What the strategy wrote to its log (crash-plan.ts). */
interface Heard {
  readonly pid: number;
  readonly hook: string;
  readonly id?: string;
  readonly type?: string;
  readonly tag?: string;
  readonly quantity?: string;
  readonly cumulative?: string;
  readonly positions?: { symbol: string; quantity: string }[];
  readonly cash?: string;
}

/** An order of the strategy's config. */
interface Planned {
  readonly tag: string;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: string;
  readonly price: string;
}

/** A buy of ZOM partly filled at once (its best two asks: 5,619) and filling more each second moved. */
const PART: Planned = { tag: 'part', symbol: 'ZOM', side: 'BUY', quantity: '20000', price: '0.1616' };
/** A buy of AAPL resting far below the market (226.40). */
const REST: Planned = { tag: 'rest', symbol: 'AAPL', side: 'BUY', quantity: '1', price: '200' };

const sessions: Session[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

/** Polls `read` every 100 ms until it answers something other than undefined or false. */
async function waitFor<T>(
  what: string,
  read: () => T | Promise<T>,
  timeoutMs = 120_000,
): Promise<Exclude<T, false | undefined>> {
  const end = performance.now() + timeoutMs;
  let last: unknown;
  while (performance.now() < end) {
    try {
      const v = await read();
      if (v !== undefined && v !== false) return v as Exclude<T, false | undefined>;
    } catch (error) {
      last = error; // the file being written, the token being renewed
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `waited ${timeoutMs} ms for ${what}${last === undefined ? '' : ` (last: ${String(last)})`}`,
  );
}

/** The simulator, a store and the strategy's log in a fresh folder; `hoga run` on them. */
class Session {
  readonly dir = mkdtempSync(join(tmpdir(), 'hoga-run-killed-'));
  readonly db = join(this.dir, 'hoga.sqlite');
  readonly log = join(this.dir, 'heard.jsonl');
  readonly environment: NodeJS.ProcessEnv;
  /** Shares the runs' token file: the broker keeps one token per client. */
  readonly client: BrokerClient;
  private readonly runs: Running[] = [];

  static async open(): Promise<Session> {
    const sim = await startSimulator({
      port: 0,
      seed: 7,
      start: US_OPEN,
      speed: 0,
      control: true,
      rateLimit: false,
    });
    const session = new Session(sim);
    sessions.push(session);
    return session;
  }

  private constructor(readonly sim: SimulatorHandle) {
    this.environment = env(sim, this.db);
    this.client = new BrokerClient({
      config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
      tokenCache: new FileTokenCache(join(this.dir, 'tokens.json')),
    });
  }

  /** Starts the `n`th run, its strategy configured with `plan`. */
  run(n: number, plan: { place: Planned[]; cancel?: string[] }, id?: string): Running {
    const config = join(this.dir, `run-${n}.json`);
    // another strategy id logs apart
    const log = id === undefined ? this.log : join(this.dir, `heard-${id}.jsonl`);
    writeFileSync(config, JSON.stringify({ log, ...plan }));
    const args = ['--symbols', 'ZOM,AAPL', '--config', config, '--poll-ms', '200', '--status-every', '2'];
    const r = start(
      ['run', id === undefined ? PLAN : `${PLAN}:${id}`, '--mode', 'live', ...args],
      this.environment,
    );
    this.runs.push(r);
    return r;
  }

  async kill(r: Running): Promise<void> {
    r.child.kill('SIGKILL');
    expect(await r.exited).toBeNull();
  }

  heard(): Heard[] {
    try {
      return readFileSync(this.log, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Heard);
    } catch {
      return [];
    }
  }

  /** The order id the strategy gave the order of `tag`. */
  idOf(tag: string): Promise<string> {
    return waitFor(
      `order ${tag} placed`,
      () => this.heard().find((h) => h.hook === 'placed' && h.tag === tag)?.id,
    );
  }

  /** The fills the strategy heard of the order `id`, in order. */
  fillsHeard(id: string): Heard[] {
    return this.heard().filter((h) => h.hook === 'fill' && h.id === id);
  }

  /** Every broker order of the account. */
  async brokerOrders(): Promise<OrderRecord[]> {
    const out = [...(await this.client.listOrders({ status: 'OPEN' })).orders];
    let cursor: string | undefined;
    for (;;) {
      const page = await this.client.listOrders({
        status: 'CLOSED',
        limit: 100,
        ...(cursor === undefined ? {} : { cursor }),
      });
      out.push(...page.orders);
      if (!page.hasNext || page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    return out;
  }

  async filledAtBroker(symbol: string): Promise<Decimal> {
    return (await this.brokerOrders())
      .filter((o) => o.symbol === symbol)
      .reduce((sum, o) => sum.plus(o.execution.filledQuantity), new Decimal(0));
  }

  /** Quantity of the stored fills of `symbol` (read while a run may write). */
  storedFilled(symbol: string): Decimal {
    const store = HogaDatabase.open(this.db, { readonly: true });
    try {
      const rows = store.connection.prepare('SELECT quantity FROM fills WHERE symbol = ?').all(symbol) as {
        quantity: string;
      }[];
      return rows.reduce((sum, r) => sum.plus(r.quantity), new Decimal(0));
    } finally {
      store.close();
    }
  }

  /** Moves the simulator's clock a second at a time until the broker filled more of `symbol`. */
  async fillMore(symbol: string): Promise<void> {
    const before = await this.filledAtBroker(symbol);
    await waitFor(`another fill of ${symbol} at the broker`, async () => {
      this.sim.advanceClock(1_000);
      return (await this.filledAtBroker(symbol)).greaterThan(before);
    });
  }

  async hoga<T>(args: string[]): Promise<T> {
    const r = await hogaToEnd([...args, '--json'], this.environment);
    expect(r.code, r.out).toBe(0);
    return JSON.parse(r.stdout) as T;
  }

  async close(): Promise<void> {
    for (const r of this.runs) await exitedWithin(r, 0);
    this.client.close();
    await this.sim.close();
  }
}

/** What `hoga db orders --json` lists of an order. */
interface StoredOrder {
  readonly clientOrderId: string;
  readonly state: string;
  readonly filledQuantity: string;
  readonly brokerOrderIds: { brokerOrderId: string }[];
}

/** What `hoga db fills --json` lists of a fill. */
interface StoredFill {
  readonly brokerOrderId: string;
  readonly clientOrderId: string;
  readonly quantity: string;
  readonly cumulativeQuantity: string;
}

describe('hoga run --mode live killed with SIGKILL and started again', () => {
  it('mid-create, between fills and mid-cancel: no order or fill lost or doubled, each fill told once', async () => {
    const s = await Session.open();
    const { sim } = s;

    // (a) the create reached the broker (committed, partly filled at once); its answer held back
    sim.injectFault({
      kind: 'delay-after-commit',
      path: '/api/v1/orders',
      method: 'POST',
      delayMs: 60_000,
      count: 1,
    });
    const first = s.run(1, { place: [PART] });
    await waitFor('the create at the broker', () => sim.counters().ordersCreated === 1);
    await s.kill(first);
    sim.clearFaults();
    const part = await s.idOf('part');
    const told = (): Decimal =>
      s.fillsHeard(part).reduce((sum, h) => sum.plus(h.quantity ?? 0), new Decimal(0));

    // (b) started again: the create is found at the broker and its fill told; a second order rests;
    // one more fill is stored and told, then the run is killed and the buy fills more while it is down
    const second = s.run(2, { place: [PART, REST] });
    await waitFor(
      'the first fill told',
      async () => told().greaterThan(0) && told().equals(await s.filledAtBroker('ZOM')),
    );
    const rest = await s.idOf('rest');
    await waitFor('the resting order accepted', () =>
      s.heard().some((h) => h.type === 'OrderAccepted' && h.id === rest),
    );
    await s.fillMore('ZOM');
    await waitFor('the second fill told', async () => told().equals(await s.filledAtBroker('ZOM')));
    await s.kill(second);
    await s.fillMore('ZOM');

    // (c) started again: the fill made while it was down is told; the strategy cancels the resting
    // order, and the run is killed once the broker cancelled it, the answer held back
    sim.injectFault({
      kind: 'delay-after-commit',
      path: '/api/v1/orders/*/cancel',
      method: 'POST',
      delayMs: 60_000,
    });
    const third = s.run(3, { place: [PART, REST], cancel: ['rest'] });
    await waitFor('the cancel at the broker', () => sim.counters().ordersCanceled === 1);
    await s.kill(third);
    sim.clearFaults();

    // (d) started again: the cancel is settled; stopped with SIGTERM once it runs
    const fourth = s.run(4, { place: [PART, REST], cancel: ['rest'] });
    await waitFor('the cancel told', () =>
      s.heard().some((h) => h.type === 'OrderCanceled' && h.id === rest),
    );
    await waitFor('a status line', () => /holdings:/.test(fourth.out.join('')));
    fourth.child.kill('SIGTERM');
    expect(await exitedWithin(fourth, 60_000), fourth.out.join('')).toBe(0);

    // nothing sent twice: one broker order per clientOrderId, two creates, one cancel
    const counters = sim.counters();
    expect(counters.ordersPerClientOrderId).toEqual({ [part]: 1, [rest]: 1 });
    expect([counters.ordersCreated, counters.ordersCanceled]).toEqual([2, 1]);

    // every broker order (the cancel's record included) in hoga db orders once, nothing adopted
    const broker = await s.brokerOrders();
    const orders = await s.hoga<StoredOrder[]>(['db', 'orders', '--mode', 'live']);
    expect(orders.map((o) => o.clientOrderId).sort()).toEqual([part, rest].sort());
    const lineage = orders.flatMap((o) => o.brokerOrderIds.map((b) => b.brokerOrderId));
    expect(lineage.sort()).toEqual(broker.map((o) => o.orderId).sort());
    const zom = broker.find((o) => o.symbol === 'ZOM');
    const filled = zom?.execution.filledQuantity.toFixed();
    expect(orders.map((o) => [o.clientOrderId, o.state, o.filledQuantity]).sort()).toEqual(
      [
        [part, 'PARTIALLY_FILLED', filled],
        [rest, 'CANCELED', '0'],
      ].sort(),
    );

    // every execution in hoga db fills once: three fills, adding up to what the broker filled
    const fills = await s.hoga<StoredFill[]>(['db', 'fills', '--mode', 'live']);
    expect(fills.map((f) => [f.brokerOrderId, f.cumulativeQuantity])).toEqual(
      fills.map((_, i) => [
        zom?.orderId,
        fills
          .slice(0, i + 1)
          .reduce((sum, f) => sum.plus(f.quantity), new Decimal(0))
          .toFixed(),
      ]),
    );
    expect(fills.length).toBe(3);
    expect(fills.at(-1)?.cumulativeQuantity).toBe(filled);

    // hoga db positions: the broker's holdings
    const positions = await s.hoga<{ symbol: string; quantity: string }[]>(['db', 'positions']);
    const holdings = await s.client.getHoldings();
    expect(positions.map((p) => [p.symbol, p.quantity]).sort()).toEqual(
      holdings.items.map((h) => [h.symbol, h.quantity.toFixed()]).sort(),
    );

    // the strategy heard each fill once, in order, and each end once; its books are the broker's
    const heardFills = s.fillsHeard(part);
    expect(heardFills.map((h) => h.cumulative)).toEqual(fills.map((f) => f.cumulativeQuantity));
    const pids = [...new Set(s.heard().map((h) => h.pid))];
    expect(pids.length).toBe(4);
    // the fill of (a) at the second start, the one made while the second run was down at the third
    expect(heardFills.map((h) => pids.indexOf(h.pid))).toEqual([1, 1, 2]);
    const ends = s.heard().filter((h) => h.type === 'OrderCanceled' || h.type === 'OrderAccepted');
    expect(ends.map((h) => [h.type, h.id])).toEqual([
      ['OrderAccepted', part],
      ['OrderAccepted', rest],
      ['OrderCanceled', rest],
    ]);
    const last = s
      .heard()
      .filter((h) => h.hook === 'start')
      .at(-1);
    expect(last?.positions).toEqual([{ symbol: 'ZOM', quantity: filled }]);
    const spent = zom?.execution.filledAmount?.plus(zom.execution.commission ?? 0);
    expect(last?.cash).toBe(new Decimal(10_000).minus(spent ?? 0).toFixed());
  }, 600_000);

  it('a fill another engine on the store counted while it was down: told at its next start, once', async () => {
    const s = await Session.open();
    const { sim } = s;

    // the strategy places its resting buy; killed once the broker accepted it
    const first = s.run(1, { place: [REST] });
    const rest = await s.idOf('rest');
    await waitFor('the order accepted', () =>
      s.heard().some((h) => h.type === 'OrderAccepted' && h.id === rest),
    );
    await s.kill(first);

    // another strategy's run on the same store, as docs/order-manager.md allows, counts the order's fill
    const other = s.run(2, { place: [] }, 'Other');
    await waitFor('the other run going', () => /holdings:/.test(other.out.join('')));
    sim.setPrice('AAPL', '199');
    await s.fillMore('AAPL');
    await waitFor('the fill stored', () => s.storedFilled('AAPL').equals(1));
    other.child.kill('SIGTERM');
    expect(await exitedWithin(other, 60_000), other.out.join('')).toBe(0);
    expect(s.fillsHeard(rest)).toEqual([]);

    // the strategy started again, twice: told of its fill at the first of them
    for (const n of [3, 4]) {
      const run = s.run(n, { place: [REST] });
      await waitFor('a status line', () => /holdings:/.test(run.out.join('')));
      run.child.kill('SIGTERM');
      expect(await exitedWithin(run, 60_000), run.out.join('')).toBe(0);
    }
    expect(s.fillsHeard(rest).map((h) => [h.quantity, h.cumulative])).toEqual([['1', '1']]);
    const starts = s.heard().filter((h) => h.hook === 'start');
    expect(starts.at(-1)?.positions).toEqual([{ symbol: 'AAPL', quantity: '1' }]);
  }, 300_000);

  it('orders hoga order cancelled while it was down and while it ran: each end told once', async () => {
    const s = await Session.open();
    const first = s.run(1, { place: [REST] });
    const rest = await s.idOf('rest');
    await waitFor('the order accepted', () =>
      s.heard().some((h) => h.type === 'OrderAccepted' && h.id === rest),
    );
    await s.kill(first);
    const cancelled = async (id: string): Promise<void> => {
      const r = await hogaToEnd(['order', 'cancel', id], s.environment);
      expect(r.code, r.out).toBe(0);
    };
    const ends = (id: string): number =>
      s.heard().filter((h) => h.type === 'OrderCanceled' && h.id === id).length;
    await cancelled(rest);

    // started again: told of the cancel; a second order rests and is cancelled while the run goes on
    const second = s.run(2, { place: [REST, { ...REST, tag: 'rest2', price: '201' }] });
    const rest2 = await s.idOf('rest2');
    await waitFor('the second order accepted', () =>
      s.heard().some((h) => h.type === 'OrderAccepted' && h.id === rest2),
    );
    expect(ends(rest)).toBe(1);
    await cancelled(rest2);
    await waitFor('the running cancel told', () => ends(rest2) === 1);
    second.child.kill('SIGTERM');
    expect(await exitedWithin(second, 60_000), second.out.join('')).toBe(0);

    // started again: nothing told twice
    const third = s.run(3, { place: [REST] });
    await waitFor('a status line', () => /holdings:/.test(third.out.join('')));
    third.child.kill('SIGTERM');
    expect(await exitedWithin(third, 60_000), third.out.join('')).toBe(0);
    expect([ends(rest), ends(rest2)]).toEqual([1, 1]);
  }, 300_000);
});

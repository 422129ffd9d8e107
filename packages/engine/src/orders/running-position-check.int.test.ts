/**
 * The position check of a running engine, over real HTTP against the simulator with a real SQLite
 * file. Before, the positions were compared with the holdings only at a start: a broker that lost
 * its state mid-run (a simulator restarted fresh, without --state) left the running engine trading
 * a position the broker no longer had (every sell denied `insufficient-buying-power`, over and
 * over) with no `PositionMismatch` until the next start.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock, OrderEvent } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  externalLimitBuy,
  KR_OPEN,
  priceLimits,
  simClient,
  startFrozenSimulator,
  submitLimit,
  useLiveFixtures,
} from './live-fixture.test-helper.js';
import { OrderManager } from './order-manager.js';
import type { OrderManagerAlert } from './order-requests.js';

const live = useLiveFixtures(afterEach);
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const mismatches = (alerts: readonly OrderManagerAlert[]) =>
  alerts.flatMap((a) => (a.type === 'PositionMismatch' ? [[a.symbol, a.store, a.broker]] : []));

describe('running position check (real HTTP)', () => {
  it('a broker that lost its state mid-run: the running engine reports PositionMismatch within the period and bars the symbol', async () => {
    // the broker the engine talks to: a simulator on a port the system picked, later replaced by
    // a fresh one on the same port (its state lost); the engine's clock reads the current one
    let sim: SimulatorHandle = await startSimulator({ port: 0, seed: 7, start: KR_OPEN, speed: 0 });
    const port = Number(new URL(sim.url).port);
    const clock: Clock = { now: () => sim.now(), nowMs: () => sim.now().toMillis() };
    const client = simClient(sim, clock);
    const dbFile = join(mkdtempSync(join(tmpdir(), 'hoga-om-')), 'hoga.sqlite');
    const db = HogaDatabase.open(dbFile, { clock });
    closers.push(async () => {
      client.close();
      db.close();
      await sim.close();
    });
    const manager = new OrderManager(client, db, clock, { positionCheckMs: 60_000 });
    const events: OrderEvent[] = [];
    const alerts: OrderManagerAlert[] = [];
    manager.events$.subscribe((e) => events.push(e));
    manager.alerts$.subscribe((a) => alerts.push(a));
    await manager.reconcile();
    const buy = submitLimit('005930', 'BUY', '2', (await priceLimits(client, '005930')).upper);
    await manager.execute(buy);
    sim.advanceClock(2_000);
    await manager.pollOnce();
    expect(manager.store.position('005930').toString()).toBe('102');

    // the broker restarts with nothing (no --state): the account as it opened, 100 shares
    const at = sim.now().plus({ seconds: 2 }).toISO() ?? '';
    await sim.close();
    sim = await startSimulator({ port, seed: 7, start: at, speed: 0 });
    const restartedAt = clock.nowMs();

    // the engine polls every 2 s of broker time, for a little more than two periods
    for (let i = 0; i < 70 && mismatches(alerts).length === 0; i++) {
      sim.advanceClock(2_000);
      await manager.pollOnce();
    }
    expect(mismatches(alerts)).toEqual([['005930', '102', '100']]);
    // within the period (60 s of engine time) and the confirming poll after it
    const raised = alerts.find((a) => a.type === 'PositionMismatch')?.tsEvent ?? Number.POSITIVE_INFINITY;
    expect(raised - restartedAt).toBeLessThanOrEqual(60_000 + 2 * 2_000);
    expect(manager.isBlocked('005930')).toBe(true);
    // the strategy's sell is denied at once as barred, not sent to be refused by the broker
    await manager.execute(submitLimit('005930', 'SELL', '102', (await priceLimits(client, '005930')).lower));
    expect(
      events.filter((e) => e.type === 'OrderDenied').map((e) => e.type === 'OrderDenied' && e.code),
    ).toEqual(['symbol-blocked']);
    expect(sim.counters().ordersCreated).toBe(0);
  });

  it('a symbol that always has an order open: holdings changed at the broker are reported (PositionMismatch) and the symbol barred', async () => {
    // the broker keeps its state in a file; while it is down, 30 shares of 005930 leave the account
    // (sold or moved out in the broker's own app): its orders, the engine's resting buy among them,
    // are kept
    const statePath = join(mkdtempSync(join(tmpdir(), 'hoga-sim-')), 'state.json');
    let sim: SimulatorHandle = await startSimulator({
      port: 0,
      seed: 7,
      start: KR_OPEN,
      speed: 0,
      statePath,
    });
    const port = Number(new URL(sim.url).port);
    const clock: Clock = { now: () => sim.now(), nowMs: () => sim.now().toMillis() };
    const client = simClient(sim, clock);
    const db = HogaDatabase.open(join(mkdtempSync(join(tmpdir(), 'hoga-om-')), 'hoga.sqlite'), { clock });
    closers.push(async () => {
      client.close();
      db.close();
      await sim.close();
    });
    const manager = new OrderManager(client, db, clock, { positionCheckMs: 10_000 });
    const alerts: OrderManagerAlert[] = [];
    manager.alerts$.subscribe((a) => alerts.push(a));
    await manager.reconcile();
    await manager.execute(submitLimit('005930', 'BUY', '3', (await priceLimits(client, '005930')).lower));
    sim.advanceClock(2_000);
    await manager.pollOnce();

    await sim.close();
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as {
      accounts: { accountSeq: number; holdings: Record<string, { quantity: string }> }[];
    };
    const held = state.accounts.find((a) => a.accountSeq === 1)?.holdings['005930'];
    if (held === undefined) throw new Error('the simulator saved no 005930 holding');
    held.quantity = String(Number(held.quantity) - 30);
    writeFileSync(statePath, JSON.stringify(state));
    sim = await startSimulator({ port, seed: 7, speed: 0, statePath });
    const changedAt = clock.nowMs();

    // the strategy goes on buying a share each poll meanwhile (filled at once): every check books fills
    const { upper } = await priceLimits(client, '005930');
    let bought = 0;
    for (let i = 0; i < 30 && mismatches(alerts).length === 0; i++) {
      await manager.execute(submitLimit('005930', 'BUY', '1', upper));
      bought++;
      sim.advanceClock(2_000);
      await manager.pollOnce();
    }
    expect(mismatches(alerts)).toEqual([['005930', String(100 + bought), String(70 + bought)]]);
    // within the period (10 s of engine time) and the confirming poll after it
    const raised = alerts.find((a) => a.type === 'PositionMismatch')?.tsEvent ?? Number.POSITIVE_INFINITY;
    expect(raised - changedAt).toBeLessThanOrEqual(10_000 + 2 * 2_000);
    expect(manager.isBlocked('005930')).toBe(true);
    // the resting buy was open at the broker throughout (before, it kept the symbol from every check)
    const open = await client.listOrders({ status: 'OPEN' });
    expect(open.orders.map((o) => [o.symbol, o.quantity.toString()])).toEqual([['005930', '3']]);
  });

  it('resting orders filling between the order lists and the holdings read, check after check: no PositionMismatch', async () => {
    const { sim, clock, client } = await startFrozenSimulator({ rateLimit: false });
    const db = HogaDatabase.open(join(mkdtempSync(join(tmpdir(), 'hoga-om-')), 'hoga.sqlite'), { clock });
    closers.push(async () => {
      client.close();
      db.close();
      await sim.close();
    });
    // what the broker does while the engine reads the holdings (after the poll's order lists)
    const inWindow: (() => Promise<void>)[] = [];
    const gateway = new Proxy(client, {
      get(target, key) {
        if (key === 'getHoldings')
          return async (...args: Parameters<typeof client.getHoldings>) => {
            await inWindow.shift()?.();
            return target.getHoldings(...args);
          };
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const manager = new OrderManager(gateway, db, clock, { positionCheckMs: 10_000 });
    const alerts: OrderManagerAlert[] = [];
    manager.alerts$.subscribe((a) => alerts.push(a));
    await manager.reconcile();
    const { lower, upper } = await priceLimits(client, '005930');
    await manager.execute(submitLimit('005930', 'BUY', '3', lower));
    await manager.execute(submitLimit('005930', 'SELL', '2', upper));
    sim.advanceClock(2_000);
    await manager.pollOnce();
    // the resting buy fills while the first check reads the holdings; while the next one does, a buy
    // from another channel is placed and filled (the resting sell stays open throughout)
    inWindow.push(
      async () => {
        sim.setPrice('005930', lower);
        sim.advanceClock(500);
      },
      async () => {
        await externalLimitBuy(client, '005930', 1, upper);
        sim.advanceClock(500);
      },
    );
    for (let i = 0; i < 12; i++) {
      sim.advanceClock(2_000);
      await manager.pollOnce();
    }
    expect(inWindow).toEqual([]);
    expect(manager.store.position('005930').toString()).toBe('104');
    const holdings = await client.getHoldings({});
    expect(holdings.items.find((h) => h.symbol === '005930')?.quantity.toString()).toBe('104');
    expect(mismatches(alerts)).toEqual([]);
    expect(manager.isBlocked('005930')).toBe(false);
  });

  it('a run whose own orders fill (and an order from another channel) raises no PositionMismatch over many periods', async () => {
    const f = await live(KR_OPEN, { positionCheckMs: 10_000 });
    await f.manager.reconcile();
    const { lower, upper } = await priceLimits(f.client, '005930');
    // a resting buy stays open across checks; buys (and, once no buy is open, a sell) that fill at
    // once, between polls
    const resting = submitLimit('005930', 'BUY', '3', lower);
    await f.manager.execute(resting);
    for (let i = 0; i < 12; i++) {
      if (i % 3 === 0) await f.manager.execute(submitLimit('005930', 'BUY', '1', upper));
      if (i === 10) await f.manager.execute(submitLimit('005930', 'SELL', '2', lower)); // no buy open now
      if (i === 7) await externalLimitBuy(f.client, '005930', 1, upper);
      if (i === 8) f.sim.setPrice('005930', lower); // the resting buy fills
      f.sim.advanceClock(4_000);
      await f.manager.pollOnce();
    }
    f.sim.advanceClock(20_000);
    await f.manager.pollOnce();
    f.sim.advanceClock(20_000);
    await f.manager.pollOnce();
    // 100 + 4 own buys - 2 sold + 1 from another channel + 3 resting = 106, as the broker holds
    expect(f.manager.store.position('005930').toString()).toBe('106');
    const holdings = await f.client.getHoldings({});
    expect(holdings.items.find((h) => h.symbol === '005930')?.quantity.toString()).toBe('106');
    expect(mismatches(f.alerts)).toEqual([]);
    expect(f.manager.isBlocked('005930')).toBe(false);
  });
});

/**
 * US orders the broker takes but does not carry out as asked, stopped by the risk module before
 * anything is sent: an amount order under the broker's minimum ($1: taken, then REJECTED), and a
 * limit price off the US grid ($0.01 from $1, $0.0001 below: truncated, so the order would work at
 * a price the strategy did not ask, a sell below it). The simulator over HTTP (frozen in the US
 * regular session), a SQLite store, the live order manager behind the risk module.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrokerClient } from '@hoga/connector';
import type { OrderEvent } from '@hoga/core';
import type { SimulatorHandle } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  modifyTo,
  startFrozenSimulator,
  submitAmount,
  submitLimit,
  US_OPEN,
} from '../orders/live-fixture.test-helper.js';
import { OrderManager } from '../orders/order-manager.js';
import { createRiskModule, type RiskModule } from './risk-module.js';

interface Rig {
  readonly sim: SimulatorHandle;
  readonly client: BrokerClient;
  readonly db: HogaDatabase;
  readonly risk: RiskModule;
  readonly events: OrderEvent[];
}

const rigs: { rig: Rig; dir: string }[] = [];
afterEach(async () => {
  for (const { rig, dir } of rigs.splice(0)) {
    rig.risk.sender.dispose();
    rig.client.close();
    rig.db.close();
    await rig.sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The simulator frozen at 09:30 New York (the amount-order window open), a store, the manager and the gate. */
async function rig(): Promise<Rig> {
  const { sim, clock, client } = await startFrozenSimulator({ rateLimit: false, start: US_OPEN });
  const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-us-'));
  const db = HogaDatabase.open(join(dir, 'hoga.sqlite'), { clock });
  const manager = new OrderManager(client, db, clock);
  const risk = createRiskModule({ clock, config: {}, db, mode: 'live', broker: client, sink: manager });
  const events: OrderEvent[] = [];
  risk.sender.events$.subscribe((e) => events.push(e));
  const r = { sim, client, db, risk, events };
  rigs.push({ rig: r, dir });
  return r;
}

const reasonOf = (v: { accepted: boolean; reason?: string }) => (v.accepted ? 'accepted' : v.reason);

describe('US orders the broker would not carry out as asked', () => {
  it('denies an amount buy under $1 before sending it; one of $1 is sent', async () => {
    const r = await rig();
    const cents = await r.risk.sender.send(submitAmount('AAPL', 'BUY', '0.5'));
    // before: accepted, sent, and the broker's record said REJECTED (an order id spent for nothing)
    expect(cents).toMatchObject({
      accepted: false,
      code: 'risk-amount-below-minimum',
      data: { field: 'amount', minimum: '1', currency: 'USD', amount: '0.5' },
    });
    expect(reasonOf(cents)).toBe(
      'An amount order of 0.5 USD is under the broker’s least amount, 1 USD: the broker takes it, then rejects it. Give an amount of at least 1 USD',
    );
    expect(r.sim.counters().ordersCreated).toBe(0);
    expect(r.db.orders.list({}).map((o) => [o.state, o.rejectReason?.split(':')[0]])).toEqual([
      ['DENIED', 'risk-amount-below-minimum'],
    ]);
    expect((await r.risk.sender.send(submitAmount('AAPL', 'BUY', '1'))).accepted).toBe(true);
    expect(r.sim.counters().ordersCreated).toBe(1);
  }, 60_000);

  it('denies a limit off the US grid, naming the nearest prices, and a modify to one', async () => {
    const r = await rig();
    const buy = await r.risk.sender.send(submitLimit('AAPL', 'BUY', '1', '100.005'));
    // before: accepted and sent; the broker worked it at 100.00 while hoga's record said 100.005
    expect(buy).toMatchObject({
      accepted: false,
      code: 'risk-price-off-grid',
      data: { field: 'price', tickSize: '0.01', nearestPrices: ['100', '100.01'], truncatedTo: '100' },
    });
    expect(reasonOf(buy)).toBe(
      'price 100.005 is off the US price grid (0.01 at this price): the broker would truncate it to 100 and work the order at a price other than the one asked; the nearest prices are 100 and 100.01',
    );
    const penny = await r.risk.sender.send(submitLimit('AAPL', 'SELL', '1', '0.12345'));
    expect(penny).toMatchObject({
      code: 'risk-price-off-grid',
      data: { nearestPrices: ['0.1234', '0.1235'] },
    });
    expect(r.sim.counters().ordersCreated).toBe(0);

    const resting = submitLimit('AAPL', 'BUY', '1', '100.01');
    expect((await r.risk.sender.send(resting)).accepted).toBe(true);
    const modify = await r.risk.sender.send(modifyTo(resting, '100.019'));
    expect(modify).toMatchObject({
      code: 'risk-price-off-grid',
      data: { nearestPrices: ['100.01', '100.02'] },
    });
    expect(r.sim.counters().ordersCreated).toBe(1);
  }, 60_000);
});

/**
 * Startup reconciliation, position checks and unknown outcomes of the order manager, over real
 * HTTP against the simulator.
 */
import { Decimal } from '@hoga/core';
import { startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  allBrokerOrders,
  brokerFillsByOrder,
  cancelOf,
  externalLimitBuy,
  fillEvents,
  type LiveFixture,
  priceLimits,
  simClient,
  simClock,
  storedFillsByBrokerOrder,
  submitLimit,
  total,
  useLiveFixtures,
} from './live-fixture.test-helper.js';
import { OrderManager } from './order-manager.js';
import { createContent, createRequestOf } from './order-requests.js';

const live = useLiveFixtures(afterEach);

const upperLimit = async (f: LiveFixture, symbol: string) => (await priceLimits(f.client, symbol)).upper;

describe('order manager reconciliation (real HTTP)', () => {
  it('first run: copies the holdings and adopts open orders at their current execution (no fill counted twice)', async () => {
    const f = await live();
    const { lower } = await priceLimits(f.client, '005930');
    await externalLimitBuy(f.client, '005930', 1, lower);
    const report = await f.manager.reconcile();
    expect(report).toEqual({ firstRun: true, adopted: 1, mismatched: [] });
    expect(f.manager.store.position('005930').toString()).toBe('100');
    expect(f.manager.store.position('AAPL').toString()).toBe('10');
    expect((await f.manager.reconcile()).firstRun).toBe(false);
  });

  it('a restart counts what filled and closed while the engine was down: own fills and orders from other channels', async () => {
    const f = await live();
    await f.manager.reconcile();
    const upper = await upperLimit(f, '000660');
    const own = submitLimit('000660', 'BUY', '2', (await priceLimits(f.client, '000660')).lower);
    await f.manager.execute(own);
    f.db.close(); // the engine is down from here
    await f.client.modifyOrder((await f.client.listOrders({ status: 'OPEN' })).orders[0]?.orderId ?? '', {
      orderType: 'LIMIT',
      price: new Decimal(upper),
      quantity: new Decimal(2),
    }); // modified from the broker's app: a replacement the engine never asked for
    await externalLimitBuy(f.client, '000660', 3, upper);
    f.sim.advanceClock(60_000);
    const manager = f.restart();
    const report = await manager.reconcile();
    expect(report.mismatched).toEqual([]);
    expect(manager.store.position('000660').toString()).toBe('25');
    const broker = brokerFillsByOrder(await allBrokerOrders(f.client));
    expect(total(storedFillsByBrokerOrder(f.db).values()).toString()).toBe(total(broker.values()).toString());
    expect(total(fillEvents(f.events).map((x) => x.quantity)).toString()).toBe('5');
  });

  it('a position that still differs from the holdings is reported and its symbol not traded until it matches', async () => {
    const f = await live();
    await f.manager.reconcile();
    f.manager.store.setPosition('005930', new Decimal(90), 0); // as if a fill had been lost by an older version
    const manager = f.restart();
    const report = await manager.reconcile();
    expect(report.mismatched).toEqual(['005930']);
    expect(
      f.alerts
        .filter((a) => a.type === 'PositionMismatch')
        .map((a) => a.type === 'PositionMismatch' && [a.symbol, a.store, a.broker]),
    ).toEqual([['005930', '90', '100']]);
    const order = submitLimit('005930', 'BUY', '1', await upperLimit(f, '005930'));
    await manager.execute(order);
    expect(
      f.events.filter((e) => e.type === 'OrderDenied').map((e) => e.type === 'OrderDenied' && e.code),
    ).toEqual(['symbol-blocked']);
    expect(f.sim.counters().ordersCreated).toBe(0);
    manager.store.setPosition('005930', new Decimal(100), 0); // the operator resolved it
    expect(await manager.checkPositions()).toEqual([]);
    expect(f.alerts.some((a) => a.type === 'PositionResolved' && a.symbol === '005930')).toBe(true);
    expect(manager.isBlocked('005930')).toBe(false);
  });

  it('a symbol barred at the start is freed during the run once its interrupted create settles and the position matches', async () => {
    const f = await live();
    await f.manager.reconcile();
    // the engine wrote a market buy of 2 before its send, sent it, and died before its rows: the
    // broker filled it
    const order = submitLimit('005930', 'BUY', '2');
    const intent = order.intent;
    f.manager.store.recordCreate(
      order.commandId,
      intent.clientOrderId,
      { symbol: '005930', side: 'BUY', strategyId: 'test' },
      JSON.stringify(createContent(intent)),
      f.clock.nowMs(),
    );
    await f.client.createOrder(createRequestOf(intent));
    // the broker fails the start's keyed re-send: the create stays unsettled, the start bars
    // (a start that settles it counts its fill first: restart-position-check.int.test.ts)
    const fault = f.sim.injectFault({ kind: 'internal-error', path: '/api/v1/orders', method: 'POST' });
    const manager = f.restart();
    const report = await manager.reconcile();
    expect(report.mismatched).toEqual(['005930']);
    expect(manager.isBlocked('005930')).toBe(true);
    f.sim.control.removeFault(fault);
    // the next polls match it (its answer: the order of its clientOrderId), read its fill, and the
    // next comparison frees the symbol (before: barred for the whole run, until a restart)
    for (let i = 0; i < 5 && manager.isBlocked('005930'); i++) {
      f.sim.advanceClock(10_000);
      await manager.pollOnce();
    }
    expect(manager.store.unresolvedCommands()).toEqual([]);
    expect(manager.store.position('005930').toString()).toBe('102');
    expect(f.alerts.some((a) => a.type === 'PositionResolved' && a.symbol === '005930')).toBe(true);
    expect(manager.isBlocked('005930')).toBe(false);
  });

  it('an unsettled create past its key window that two orders match is declared unknown, reported, never re-sent', async () => {
    // no connector-level repeats: the create's answer stays lost
    const f = await live(
      '2026-11-23T10:00:00+09:00',
      { minChecks: 2, unknownAfterMs: 60_000 },
      { maxRetries: 0 },
    );
    await f.manager.reconcile();
    const { lower } = await priceLimits(f.client, '005930');
    // two drops: the connector sends a keyed create again at once when its connection is dropped
    // before any answer (a kept-alive socket the server may have closed; the key makes it safe),
    // and the answer must stay lost for this case
    f.sim.injectFault({ kind: 'drop-after-commit', path: '/api/v1/orders', method: 'POST', count: 2 });
    const order = submitLimit('005930', 'BUY', '1', lower);
    await f.manager.execute(order);
    // an identical order from another channel, and the key window passes
    await externalLimitBuy(f.client, '005930', 1, lower);
    f.sim.advanceClock(11 * 60_000);
    const created = f.sim.counters().ordersCreated;
    for (let i = 0; i < 4; i++) await f.manager.pollOnce();
    expect(f.sim.counters().ordersCreated).toBe(created);
    const unknown = f.alerts.filter((a) => a.type === 'OrderOutcomeUnknown');
    expect(unknown.map((a) => a.type === 'OrderOutcomeUnknown' && [a.clientOrderId, a.kind])).toEqual([
      [order.intent.clientOrderId, 'create'],
    ]);
    expect(f.manager.store.unresolvedCommands()).toEqual([]);
    // the two orders are now adopted as external: every broker order is accounted for
    expect(f.alerts.filter((a) => a.type === 'ExternalOrderAdopted')).toHaveLength(2);
  });

  it('commands share the ORDER budget with cancels first: a cancel overtakes queued creates', async () => {
    const f = await live(undefined, {}, {}, true); // the simulator's rate limits on (ORDER: 6/s)
    await f.manager.reconcile();
    const { lower } = await priceLimits(f.client, '005930');
    const first = submitLimit('005930', 'BUY', '1', lower);
    await f.manager.execute(first);
    const done: string[] = [];
    const creates = Array.from({ length: 14 }, (_, i) => {
      const o = submitLimit('005930', 'BUY', '1', lower);
      return f.manager.execute(o).then(() => done.push(`create ${i}`));
    });
    const cancel = f.manager.execute(cancelOf(first)).then(() => done.push('cancel'));
    await Promise.all([...creates, cancel]);
    expect(f.sim.counters().rateLimited).toBe(0); // the client kept to the budget
    expect(done.indexOf('cancel')).toBeLessThan(done.length - 5); // ahead of the queued creates
    expect(f.events.filter((e) => e.type === 'OrderAccepted')).toHaveLength(15);
  });

  it('an open order the broker answers 404 for, read after read, is ended (canceled, reason not-found-at-broker) and reported', async () => {
    // A broker that has no record of an order the engine holds open: the broker keeps every
    // order since the account opened, so this is another account or a broker that lost its state
    // (a simulator restarted without --state). Before, the order stayed open in the store for
    // ever: every poll read its detail, got 404 and went on, and a strategy that waits for its
    // open order to end never traded again.
    const f = await live('2026-11-23T10:00:00+09:00', { minChecks: 3, unknownAfterMs: 60_000 });
    await f.manager.reconcile();
    const order = submitLimit('005930', 'BUY', '1', (await priceLimits(f.client, '005930')).lower);
    await f.manager.execute(order);
    const id = order.intent.clientOrderId;
    expect(f.db.orders.get(id)?.state).toBe('ACCEPTED');
    // the broker restarts with nothing: a fresh simulator at the same time
    const fresh = await startSimulator({ port: 0, seed: 7, start: '2026-11-23T10:01:00+09:00', speed: 0 });
    const clock = simClock(fresh);
    const client = simClient(fresh, clock);
    try {
      f.db.close();
      f.db = HogaDatabase.open(f.dbFile, { clock });
      const manager = new OrderManager(client, f.db, clock, { minChecks: 3, unknownAfterMs: 60_000 });
      const events: string[] = [];
      const alerts: string[] = [];
      manager.events$.subscribe((e) =>
        events.push(`${e.type} ${e.type === 'OrderCanceled' ? e.reason : ''}`),
      );
      manager.alerts$.subscribe((a) => alerts.push(a.type));
      await manager.reconcile();
      // one 404 is not the end: a detail read may lag a create
      expect(events).toEqual([]);
      expect(manager.store.openExecutions()).toHaveLength(1);
      for (let i = 0; i < 3; i++) {
        fresh.advanceClock(30_000);
        await manager.pollOnce();
      }
      expect(events).toEqual(['OrderCanceled not-found-at-broker']);
      expect(alerts).toContain('OrderMissingAtBroker');
      expect(manager.store.openExecutions()).toEqual([]);
      expect(f.db.orders.get(id)?.state).toBe('CANCELED');
      // and it stays ended: later polls read nothing more of it
      fresh.advanceClock(30_000);
      await manager.pollOnce();
      expect(events).toHaveLength(1);
    } finally {
      client.close();
      await fresh.close();
    }
  });
});

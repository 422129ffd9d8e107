/**
 * `hoga run --mode live` killed with SIGKILL at points of its orders' lives and started again on
 * the same store, a strategy (`crash-plan.ts`) placing, modifying and cancelling through it. The
 * real `hoga` as a child process, the simulator over HTTP (its clock stopped, moved by the test:
 * each second moved redraws the books, so a partly filled buy fills more), a real SQLite file.
 *
 * Killed (a) right after a create reached the broker, its answer held back; (b) between two fills of
 * a partly filled order; (c) while a cancel is on its way, its answer held back; and, apart, while a
 * modify is on its way. Afterwards each broker order is in `hoga db orders` once and nothing was
 * sent twice; `hoga db fills` holds each execution once, what the broker counted; `hoga db
 * positions` are the broker's holdings; and the strategy heard of every fill, modify and end once,
 * those made while it was down at the start that found them.
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSessions,
  fillsToldNoted,
  PART,
  REST,
  Session,
  type StoredFill,
  type StoredOrder,
  waitFor,
} from './run-killed.test-helper.js';
import { exitedWithin } from './run-process.test-helper.js';

afterEach(closeSessions);

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
    await waitFor('its telling noted', () => fillsToldNoted(s));
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

  it('mid-modify: the modify is settled at the next start, told once, and the order has its new price', async () => {
    const s = await Session.open();
    const { sim } = s;
    const rest = await s.restThenKill();

    // the modify reached the broker (the order replaced at 201); its answer held back
    sim.injectFault({
      kind: 'delay-after-commit',
      path: '/api/v1/orders/*/modify',
      method: 'POST',
      delayMs: 60_000,
    });
    const modify = [{ tag: 'rest', price: '201' }];
    const second = s.run(2, { place: [REST], modify });
    await waitFor('the modify at the broker', () => sim.counters().ordersModified === 1);
    await s.kill(second);
    sim.clearFaults();

    for (const n of [3, 4]) {
      const run = s.run(n, { place: [REST], modify });
      await waitFor('a status line', () => /holdings:/.test(run.out.join('')));
      run.child.kill('SIGTERM');
      expect(await exitedWithin(run, 60_000), run.out.join('')).toBe(0);
    }
    expect(sim.counters().ordersModified).toBe(1);
    const modified = s.heard().filter((h) => h.type === 'OrderModified' && h.id === rest);
    expect(modified.length).toBe(1);
    const starts = s.heard().filter((h) => h.hook === 'start');
    expect(starts.at(-1)?.open).toEqual([{ id: rest, state: 'ACCEPTED', filled: '0', price: '201' }]);
    const orders = await s.hoga<(StoredOrder & { price: string })[]>(['db', 'orders', '--mode', 'live']);
    const broker = await s.brokerOrders();
    expect(orders.map((o) => [o.clientOrderId, o.state, o.price])).toEqual([[rest, 'ACCEPTED', '201']]);
    expect(orders.flatMap((o) => o.brokerOrderIds.map((b) => b.brokerOrderId)).sort()).toEqual(
      broker.map((o) => o.orderId).sort(),
    );
  }, 300_000);
});

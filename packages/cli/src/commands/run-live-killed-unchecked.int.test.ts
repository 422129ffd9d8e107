/**
 * `hoga run --mode live` killed with SIGKILL while an order the strategy gave waits for its risk
 * checks (its instrument read held back), the strategy having kept the order's id in `ctx.state`,
 * then started again on the same store: the real `hoga` as a child process, the simulator over HTTP
 * (its clock stopped), a real SQLite file read afterwards. The order never reached the broker; the
 * strategy is told so once, before `onStart` (`OrderDenied`, code `run-ended`), the store holds it
 * DENIED, and no start after tells it again.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSessions,
  type Planned,
  REST,
  Session,
  starts,
  stopRun,
  storeRows,
  waitFor,
} from './run-killed.test-helper.js';

afterEach(closeSessions);

/** The ids of the creates noted as given and not yet judged for the strategy (`live/_submitting`). */
function noted(s: Session): string[] {
  return storeRows<{ value: string }>(
    s,
    "SELECT value FROM strategy_state WHERE strategy_id = 'live/_submitting' AND key = 'CrashPlan'",
  ).flatMap((r) => (JSON.parse(r.value) as { clientOrderId: string }[]).map((i) => i.clientOrderId));
}

/** No create reached the broker: none counted by the simulator, none listed by it. */
async function noOrderAtBroker(s: Session): Promise<void> {
  expect(s.sim.counters().ordersCreated).toBe(0);
  expect(await s.brokerOrders()).toEqual([]);
}

describe('hoga run --mode live killed with SIGKILL and started again', () => {
  it('in onStart after the place, before the order was checked: the order is denied at the restart, told once', async () => {
    const s = await Session.open();
    // the order's checks read MSFT's instrument (not among the run's symbols): held back, so the
    // order waits for its checks while the strategy writes its id to ctx.state and holds
    s.sim.injectFault({ kind: 'delay', path: '/api/v1/stocks/MSFT/warnings', delayMs: 60_000 });
    const msft: Planned = { tag: 'msft', symbol: 'MSFT', side: 'BUY', quantity: '1', price: '300' };
    const first = s.run(1, { place: [msft], hold: join(s.dir, 'go') });
    const id = await s.idOf('msft');
    await waitFor('the strategy holding', () => s.heard().some((h) => h.hook === 'holding'));
    await s.kill(first);
    s.sim.clearFaults();
    // ctx.state holds the id; no row: the order never reached the broker
    const placed = storeRows<{ value: string }>(
      s,
      "SELECT value FROM strategy_state WHERE strategy_id = 'CrashPlan' AND key = 'placed'",
    ).map((r) => JSON.parse(r.value));
    expect(placed).toEqual([{ msft: id }]);
    expect(storeRows(s, 'SELECT client_order_id FROM orders')).toEqual([]);
    expect(noted(s)).toEqual([id]);
    await noOrderAtBroker(s);

    // started again: the strategy hears, before onStart, that the order was denied; it is stored so
    const second = s.run(2, { place: [msft] });
    await waitFor('the second start', () => starts(s.heard()).length === 2);
    await stopRun(second);
    const pids = [...new Set(s.heard().map((h) => h.pid))];
    const told = s.heard().filter((h) => h.hook === 'event' && h.id === id);
    expect(told.map((h) => [h.type, pids.indexOf(h.pid)])).toEqual([['OrderDenied', 1]]);
    // ctx.order(id) there is the order, denied
    expect(told[0]?.order).toMatchObject({ state: 'DENIED', filled: '0' });
    const afterDenial = s.heard().findIndex((h) => h.hook === 'event' && h.id === id);
    expect(s.heard()[afterDenial + 1]?.hook).toBe('start');
    expect(starts(s.heard()).at(-1)?.open).toEqual([]);
    const stored = storeRows<{ client_order_id: string; state: string; mode: string; reject_reason: string }>(
      s,
      'SELECT client_order_id, state, mode, reject_reason FROM orders',
    );
    expect(stored.map((r) => [r.client_order_id, r.state, r.mode])).toEqual([[id, 'DENIED', 'live']]);
    expect(stored[0]?.reject_reason).toMatch(/^run-ended: /);
    expect(storeRows(s, 'SELECT id FROM fills')).toEqual([]);
    expect(noted(s)).toEqual([]);
    await noOrderAtBroker(s);

    // a third start tells nothing again
    const third = s.run(3, { place: [msft] });
    await waitFor('the third start', () => starts(s.heard()).length === 3);
    await stopRun(third);
    expect(s.heard().filter((h) => h.hook === 'event' && h.id === id)).toHaveLength(1);
    await noOrderAtBroker(s);
  }, 120_000);

  it('after the order was checked and sent: the restart leaves it to the order manager, working, nothing denied', async () => {
    const s = await Session.open();
    // the resting AAPL buy placed and accepted by the broker, then killed: its note is still stored
    // (forgotten in memory when checked; the next create's note writes the list again)
    const rest = await s.restThenKill();
    expect(noted(s)).toEqual([rest]);
    const second = s.run(2, { place: [REST] });
    await waitFor('the second start', () => starts(s.heard()).length === 2);
    await stopRun(second);
    expect(s.heard().filter((h) => h.type === 'OrderDenied')).toEqual([]);
    expect(starts(s.heard()).at(-1)?.open).toEqual([
      { id: rest, state: 'ACCEPTED', filled: '0', price: '200' },
    ]);
    expect(storeRows<{ state: string }>(s, 'SELECT state FROM orders').map((r) => r.state)).toEqual([
      'ACCEPTED',
    ]);
    expect(noted(s)).toEqual([]);
    expect(s.sim.counters().ordersCreated).toBe(1);
  }, 120_000);
});

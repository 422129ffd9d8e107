/**
 * `hoga run --mode paper` killed with SIGKILL at points of its paper orders' lives and started again
 * on the same store, a strategy (`crash-plan.ts`) placing and cancelling through it: the real `hoga`
 * as a child process, the simulator over HTTP (its clock stopped, moved by the test), a real SQLite
 * file read afterwards. After each restart the strategy goes on with its `ctx.state`, its open paper
 * orders (same ids, nothing placed again), its positions and cash; each fill is stored once; and no
 * request of the broker's order group ever reached the simulator.
 */
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSessions,
  fillsToldNoted,
  heardIn,
  PART,
  type Plan,
  type Planned,
  REST,
  Session,
  stopRun,
  storeRows,
  waitFor,
} from './run-killed.test-helper.js';
import {
  kill,
  lastStart,
  ledgerUsd,
  logOf,
  noOrderRequests,
  paper,
  paperFills,
  runs,
  stateOf,
  stateOfOrder,
  sum,
} from './run-paper-killed.test-helper.js';
import { exitedWithin } from './run-process.test-helper.js';

afterEach(async () => {
  for (const r of runs.splice(0)) await exitedWithin(r, 0);
  await closeSessions();
});

describe('hoga run --mode paper killed with SIGKILL and started again', () => {
  it('after the place and before the fill, then between the fill and the next bar: one order, one fill', async () => {
    const s = await Session.open();
    // (a) the resting buy placed and accepted by the paper venue, then killed before any fill
    const first = paper(s, 1, { CrashPlan: { place: [REST] } });
    const rest = await s.idOf('rest');
    await waitFor('the paper order accepted', () =>
      s.heard().some((h) => h.type === 'OrderAccepted' && h.id === rest),
    );
    await kill(first);
    expect(paperFills(s)).toEqual([]);

    // (c) started again and killed during its start-up, as soon as it says what it runs
    const starting = paper(s, 2, { CrashPlan: { place: [REST] } });
    await waitFor('the start-up line', () => / paper on ZOM,AAPL /.test(starting.out.join('')));
    await kill(starting);

    // started again: the order is open as it was (same id, not placed again); the price falls
    // through its limit and it fills once
    const second = paper(s, 2, { CrashPlan: { place: [REST] } });
    await waitFor(
      'the next start',
      () =>
        s
          .heard()
          .filter((h) => h.hook === 'start')
          .at(-1)?.pid === second.child.pid,
    );
    expect(lastStart(s.heard())?.open).toEqual([{ id: rest, state: 'ACCEPTED', filled: '0', price: '200' }]);
    s.sim.setPrice('AAPL', '190');
    await waitFor('the fill stored', () => paperFills(s).length === 1);
    await waitFor('the fill told', () => s.fillsHeard(rest).length === 1);
    await waitFor('its telling noted', () => fillsToldNoted(s));
    // (b) killed between the fill and the next bar
    await kill(second);

    const third = paper(s, 3, { CrashPlan: { place: [REST] } });
    await waitFor(
      'the next start',
      () =>
        s
          .heard()
          .filter((h) => h.hook === 'start')
          .at(-1)?.pid === third.child.pid,
    );
    s.sim.advanceClock(60_000);
    await stopRun(third);

    const fills = paperFills(s);
    expect(fills.map((f) => [f.client_order_id, f.quantity])).toEqual([[rest, '1']]);
    expect(s.fillsHeard(rest).map((h) => h.cumulative)).toEqual(['1']);
    expect(s.heard().filter((h) => h.hook === 'placed')).toHaveLength(1);
    // no end of the order other than its fill, nothing told twice
    expect(
      s
        .heard()
        .filter((h) => h.hook === 'event' && h.id === rest)
        .map((h) => h.type),
    ).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
    const spent = new Decimal(fills[0]?.price ?? 0).plus(fills[0]?.commission ?? 0);
    const last = lastStart(s.heard());
    expect(last?.open).toEqual([]);
    expect(last?.positions).toEqual([{ symbol: 'AAPL', quantity: '1' }]);
    expect(last?.cash).toBe(new Decimal(10_000).minus(spent).toFixed());
    const orders = await s.hoga<{ clientOrderId: string; state: string }[]>([
      'db',
      'orders',
      '--mode',
      'paper',
    ]);
    expect(orders.map((o) => [o.clientOrderId, o.state])).toEqual([[rest, 'FILLED']]);
    noOrderRequests(s);
  }, 120_000);

  it('in onStart after the place, its ctx.state written: the order is there after the restart, once', async () => {
    const s = await Session.open();
    const hold = join(s.dir, 'go');
    const plans = (h?: string): Record<string, Plan> => ({
      CrashPlan: { place: [REST], ...(h === undefined ? {} : { hold: h }) },
      b: { place: [PART] },
    });
    // (c) killed while the first strategy's onStart waits, its order placed and ctx.state written;
    // the second strategy's onStart, beside it, has placed its buy
    const first = paper(s, 1, plans(hold));
    const rest = await s.idOf('rest');
    const bLog = { read: () => heardIn(logOf(s, 'b')) };
    const part = await waitFor('b placed', () => bLog.read().find((h) => h.hook === 'placed')?.id);
    await waitFor('the strategy holding', () => s.heard().some((h) => h.hook === 'holding'));
    // their events wait for the hook: the store says when the paper venue took each order (a kill
    // before it took b's would deny b's at the restart, as the next test has it)
    const taken = (id: string): boolean =>
      ['ACCEPTED', 'PARTIALLY_FILLED'].includes(stateOfOrder(s, id) ?? '');
    await waitFor('both orders stored as taken', () => taken(rest) && taken(part));
    await kill(first);
    expect(stateOf(s)).toEqual([{ rest }]);

    // started again: the first strategy finds its order open (not placed again), the second its buy,
    // which fills in part at once
    const second = paper(s, 2, plans());
    await waitFor('the second start', () => s.heard().filter((h) => h.hook === 'start').length === 2);
    expect(lastStart(s.heard())?.open).toEqual([{ id: rest, state: 'ACCEPTED', filled: '0', price: '200' }]);
    await waitFor('a fill of b stored', () => paperFills(s).length > 0);
    await waitFor('the fill told', () => bLog.read().some((h) => h.hook === 'fill'));
    await waitFor('its telling noted', () => fillsToldNoted(s));
    await kill(second);

    // started again: b's order is open with what filled of it; more fills once the clock moves
    const filledBefore = sum(paperFills(s).map((f) => f.quantity));
    const third = paper(s, 3, plans());
    await waitFor('b started again', () =>
      bLog.read().some((h) => h.hook === 'start' && h.pid === third.child.pid),
    );
    // the book the killed run took is polled again (the clock stopped): its levels are not taken twice
    await waitFor('three status lines', () => (third.out.join('').match(/holdings:/g) ?? []).length >= 3);
    expect(sum(paperFills(s).map((f) => f.quantity))).toBe(filledBefore);
    s.sim.advanceClock(1_000);
    await waitFor('another fill of b stored', () =>
      new Decimal(sum(paperFills(s).map((f) => f.quantity))).greaterThan(filledBefore),
    );
    await stopRun(third);

    const fills = paperFills(s);
    expect(new Set(fills.map((f) => f.client_order_id))).toEqual(new Set([part]));
    const cumulative = fills.map((_, i) => sum(fills.slice(0, i + 1).map((f) => f.quantity)));
    const told = bLog.read().filter((h) => h.hook === 'fill');
    expect(told.map((h) => h.cumulative)).toEqual(cumulative);
    expect(s.heard().filter((h) => h.hook === 'placed')).toHaveLength(1);
    expect(bLog.read().filter((h) => h.hook === 'placed')).toHaveLength(1);
    const starts = bLog.read().filter((h) => h.hook === 'start');
    expect(starts.at(-1)?.open).toEqual([
      { id: part, state: 'PARTIALLY_FILLED', filled: filledBefore, price: PART.price },
    ]);
    noOrderRequests(s);
  }, 120_000);

  it('in onStart after the place, before the order was checked: the order is denied at the restart, told once', async () => {
    const s = await Session.open();
    // the order's checks read MSFT's instrument (not among the run's symbols): held back, so the
    // order waits for its checks while the strategy writes its id to ctx.state and holds
    s.sim.injectFault({ kind: 'delay', path: '/api/v1/stocks/MSFT/warnings', delayMs: 60_000 });
    const msft: Planned = { tag: 'msft', symbol: 'MSFT', side: 'BUY', quantity: '1', price: '300' };
    const first = paper(s, 1, { CrashPlan: { place: [msft], hold: join(s.dir, 'go') } });
    const id = await s.idOf('msft');
    await waitFor('the strategy holding', () => s.heard().some((h) => h.hook === 'holding'));
    await kill(first);
    s.sim.clearFaults();
    // ctx.state holds the id; no row: the order never reached the paper venue
    expect(stateOf(s)).toEqual([{ msft: id }]);
    expect(storeRows(s, 'SELECT client_order_id FROM orders')).toEqual([]);

    // started again: the strategy hears, before onStart, that the order was denied; it is stored so
    const second = paper(s, 2, { CrashPlan: { place: [msft] } });
    await waitFor('the second start', () => s.heard().filter((h) => h.hook === 'start').length === 2);
    await stopRun(second);
    const pids = [...new Set(s.heard().map((h) => h.pid))];
    const told = s.heard().filter((h) => h.hook === 'event' && h.id === id);
    expect(told.map((h) => [h.type, pids.indexOf(h.pid)])).toEqual([['OrderDenied', 1]]);
    const afterDenial = s.heard().findIndex((h) => h.hook === 'event' && h.id === id);
    expect(s.heard()[afterDenial + 1]?.hook).toBe('start');
    expect(lastStart(s.heard())?.open).toEqual([]);
    const stored = storeRows<{ client_order_id: string; state: string; reject_reason: string }>(
      s,
      "SELECT client_order_id, state, reject_reason FROM orders WHERE mode = 'paper'",
    );
    expect(stored.map((r) => [r.client_order_id, r.state])).toEqual([[id, 'DENIED']]);
    expect(stored[0]?.reject_reason).toMatch(/^run-ended: /);
    expect(paperFills(s)).toEqual([]);
    noOrderRequests(s);

    // a third start tells nothing again
    const third = paper(s, 3, { CrashPlan: { place: [msft] } });
    await waitFor('the third start', () => s.heard().filter((h) => h.hook === 'start').length === 3);
    await stopRun(third);
    expect(s.heard().filter((h) => h.hook === 'event' && h.id === id)).toHaveLength(1);
  }, 120_000);

  it('started again on the next trading day: its DAY orders expired, told once, their cash back', async () => {
    const s = await Session.open();
    const plans = { CrashPlan: { place: [REST, PART] } };
    const first = paper(s, 1, plans);
    const rest = await s.idOf('rest');
    const part = await s.idOf('part');
    await waitFor('the resting buy stored', () => stateOfOrder(s, rest) === 'ACCEPTED');
    await waitFor('the ZOM buy partly filled', () => stateOfOrder(s, part) === 'PARTIALLY_FILLED');
    await waitFor('its fill told', () => s.fillsHeard(part).length > 0);
    await waitFor('its telling noted', () => fillsToldNoted(s));
    await kill(first);
    const fills = paperFills(s);
    expect(fills.length).toBeGreaterThan(0);
    const cashAtKill = ledgerUsd(s);

    // Tuesday 09:30 New York: the next US session
    s.sim.setClock('2026-11-24T23:30:00+09:00');
    const second = paper(s, 2, plans);
    await waitFor('the second start', () => s.heard().filter((h) => h.hook === 'start').length === 2);
    await stopRun(second);
    const pids = [...new Set(s.heard().map((h) => h.pid))];
    const expired = s.heard().filter((h) => h.type === 'OrderExpired');
    expect(expired.map((h) => [h.id, pids.indexOf(h.pid)]).sort()).toEqual(
      [
        [rest, 1],
        [part, 1],
      ].sort(),
    );
    // told before onStart, each with the order as it ended
    const filled = sum(fills.map((f) => f.quantity));
    expect(Object.fromEntries(expired.map((h) => [h.id, h.order]))).toEqual({
      [rest]: { state: 'EXPIRED', filled: '0' },
      [part]: { state: 'EXPIRED', filled, average: expect.any(String) },
    });
    const last = lastStart(s.heard());
    expect(last?.open).toEqual([]);
    expect(last?.positions).toEqual([{ symbol: 'ZOM', quantity: filled }]);
    // the cash the fills left (the ledger's, as the kill left it: what the open buys held is back)
    expect(last?.cash).toBe(cashAtKill);
    expect(ledgerUsd(s)).toBe(cashAtKill);
    const spent = fills.reduce(
      (t, f) => t.plus(new Decimal(f.quantity).times(f.price)).plus(f.commission),
      new Decimal(0),
    );
    // amounts settle in cents: at most a cent a fill from the unrounded sum
    expect(
      new Decimal(10_000)
        .minus(spent)
        .minus(cashAtKill ?? 'NaN')
        .abs()
        .lte(0.01 * fills.length),
    ).toBe(true);
    expect(paperFills(s)).toEqual(fills);
    expect([stateOfOrder(s, rest), stateOfOrder(s, part)]).toEqual(['EXPIRED', 'EXPIRED']);
    expect(s.heard().filter((h) => h.hook === 'placed')).toHaveLength(2);

    // once more: nothing told again, the books the same
    const third = paper(s, 3, plans);
    await waitFor('the third start', () => s.heard().filter((h) => h.hook === 'start').length === 3);
    await stopRun(third);
    expect(s.heard().filter((h) => h.type === 'OrderExpired')).toHaveLength(2);
    expect(lastStart(s.heard())?.cash).toBe(last?.cash);
    expect(paperFills(s)).toEqual(fills);
    noOrderRequests(s);
  }, 120_000);
});

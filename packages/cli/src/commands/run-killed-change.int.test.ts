/**
 * `hoga run --mode live` and `--mode paper` killed with SIGKILL while a cancel or modify the
 * strategy gave waits for its risk checks (the order's instrument read held back), then started
 * again on the same store: the real `hoga` as a child process, the simulator over HTTP (its clock
 * stopped), a real SQLite file read afterwards. The change never reached the venue (the broker, the
 * paper venue), and the order works on there; the strategy is told so once, before `onStart`
 * (`OrderCancelRejected` or `OrderModifyRejected`, code `run-ended`), and no start after tells it
 * again. Before, nothing told it: a strategy that had asked for the cancel found the order still
 * working with no word of why.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSessions,
  type Heard,
  type Planned,
  Session,
  starts,
  stopRun,
  storeRows,
  waitFor,
} from './run-killed.test-helper.js';

afterEach(closeSessions);

/** A resting MSFT buy (not among the run's symbols: its checks read its instrument, which a test holds back). */
const MSFT: Planned = { tag: 'msft', symbol: 'MSFT', side: 'BUY', quantity: '1', price: '200' };

type Mode = 'live' | 'paper';

/** Run 1 places the resting MSFT buy, the venue accepts it, the run is killed: the order's id. */
async function restingMsft(mode: Mode, s: Session): Promise<string> {
  const first = s.start(mode, 1, { place: [MSFT] });
  const id = await s.idOf('msft');
  await waitFor('the order accepted', () => s.heard().some((h) => h.type === 'OrderAccepted' && h.id === id));
  await s.kill(first);
  return id;
}

/** Whether `h` is the strategy hearing `type` of the order `id`. */
const isTold = (h: Heard, id: string, type: string) => h.hook === 'event' && h.id === id && h.type === type;

describe('hoga run killed while a change waits for its checks, and started again', () => {
  it.each([
    ['live', 'cancel', { cancel: ['msft'] }, 'OrderCancelRejected'],
    ['live', 'modify', { modify: [{ tag: 'msft', price: '201' }] }, 'OrderModifyRejected'],
    ['paper', 'cancel', { cancel: ['msft'] }, 'OrderCancelRejected'],
    ['paper', 'modify', { modify: [{ tag: 'msft', price: '201' }] }, 'OrderModifyRejected'],
  ] as const)(
    '%s, a %s: told once before onStart, code run-ended; the order works on at the venue',
    async (mode, change, plan, type) => {
      const s = await Session.open();
      const id = await restingMsft(mode, s);
      // run 2 gives the change in onStart and holds; the change's checks read MSFT's instrument, held back
      s.sim.injectFault({ kind: 'delay', path: '/api/v1/stocks/MSFT/warnings', delayMs: 60_000 });
      const second = s.start(mode, 2, { place: [MSFT], ...plan, hold: join(s.dir, 'go') });
      await waitFor('the strategy holding', () => s.heard().some((h) => h.hook === 'holding'));
      expect(s.heard().flatMap((h) => (h.hook === change ? [h.id] : []))).toEqual([id]);
      await s.kill(second);
      s.sim.clearFaults();

      // started again: the strategy hears, before onStart, that the change was never made
      const third = s.start(mode, 3, { place: [MSFT] });
      await waitFor('the third start', () => starts(s.heard()).length === 3);
      await stopRun(third);
      const pids = [...new Set(s.heard().map((h) => h.pid))];
      const told = s.heard().filter((h) => isTold(h, id, type));
      expect(told.map((h) => [h.code, pids.indexOf(h.pid)])).toEqual([['run-ended', 2]]);
      expect(told[0]?.order).toMatchObject({ state: 'ACCEPTED', filled: '0' });
      expect(s.heard()[s.heard().findIndex((h) => isTold(h, id, type)) + 1]?.hook).toBe('start');
      expect(starts(s.heard()).at(-1)?.open).toEqual([{ id, state: 'ACCEPTED', filled: '0', price: '200' }]);
      // the venue still works the order as it was placed: the change never reached it
      const atBroker = (await s.brokerOrders()).filter((o) => o.symbol === 'MSFT');
      if (mode === 'live') {
        expect(atBroker.map((o) => [o.status, o.price?.toFixed()])).toEqual([['PENDING', '200']]);
      } else {
        expect([atBroker, s.sim.counters().ordersCreated]).toEqual([[], 0]);
      }
      const stored = storeRows<{ state: string; price: string }>(s, 'SELECT state, price FROM orders');
      expect(stored).toEqual([{ state: 'ACCEPTED', price: '200' }]);

      // a fourth start tells nothing again
      const fourth = s.start(mode, 4, { place: [MSFT] });
      await waitFor('the fourth start', () => starts(s.heard()).length === 4);
      await stopRun(fourth);
      expect(s.heard().filter((h) => isTold(h, id, type))).toHaveLength(1);
    },
    180_000,
  );
});

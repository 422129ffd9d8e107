/**
 * What another process did to a strategy's orders while the strategy was down is told to it at its
 * next start, once: a fill another engine on the same store counted, an order `hoga order cancel`
 * ended. Its books and open orders held them already, but before, its `onFill` and
 * `onOrderEvent` never heard of them (`untold-events.ts`). The real `hoga` as child processes, the
 * simulator over HTTP, a real SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeSessions, REST, Session, waitFor } from './run-killed.test-helper.js';
import { exitedWithin, hogaToEnd } from './run-process.test-helper.js';

afterEach(closeSessions);

describe('hoga run --mode live started again after another process changed its orders', () => {
  it('a fill another engine on the store counted while it was down: told at its next start, once', async () => {
    const s = await Session.open();
    const { sim } = s;

    // the strategy places its resting buy; killed once the broker accepted it
    const rest = await s.restThenKill();

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
    const rest = await s.restThenKill();
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

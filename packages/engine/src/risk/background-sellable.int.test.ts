/**
 * The risk gate's background refresh (every `accountInfoMaxAgeMs`) re-reads the sellable quantity
 * of the run's symbols that may be held, not of every symbol every time: a symbol the broker says
 * none of can be sold of is read again by the sell order that needs it (an order re-reads what is
 * older than the age, at a priority ahead of the background's). Before, a live run over 100
 * symbols read 100 sellable quantities every 5 s, 20 requests a second wanted of the ORDER_INFO
 * group's 6 (3 between 09:00 and 09:10 KST), holding it busy for good. Over the simulator on
 * 127.0.0.1 (account 1 holds 005930, not the generated symbols).
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Closers,
  openTempDb,
  startSimulatedBroker,
  startTestRun,
  until,
} from '../live/live-run.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

class Idle extends Strategy {}

describe('the background refresh of sellable quantities', () => {
  it('reads a symbol the account holds none of once, and a held one every time', async () => {
    const s = await startSimulatedBroker(closers, { speed: 1, extraSymbols: 20 });
    const db = openTempDb(closers, 'hoga-bg-sellable-', s.clock);
    const generated = Array.from({ length: 20 }, (_, i) => String(400_001 + i));
    const sellable = vi.spyOn(s.client, 'getSellableQuantity');
    const run = await startTestRun(
      { ...s, db },
      {
        runId: 'bg-sellable',
        mode: 'live',
        symbols: ['005930', ...generated],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Idle }],
      },
      { risk: { accountInfoMaxAgeMs: 1_000 } },
    );
    closers.add(() => run.handle.stop());
    const readsOf = (symbol: string) => sellable.mock.calls.filter(([s]) => s === symbol).length;
    // three background refreshes or more: each reads the held symbol (before, they were counted by
    // the buying-power reads, which the account view the strategy reads now makes too)
    await until(() => readsOf('005930') >= 4, 60_000);
    expect(readsOf('005930')).toBeGreaterThanOrEqual(4);
    expect(generated.map(readsOf).filter((n) => n > 1)).toEqual([]);
  }, 90_000);
});

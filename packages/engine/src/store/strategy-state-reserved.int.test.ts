/**
 * A paper strategy's state is kept under `paper/<strategyId>`, and the paper account's own under
 * `paper/_account`: a strategy of id `_account` (a valid id) would share the account's rows. Found
 * in the live-mode audit: `hoga run x.ts:_account --mode paper` read the account's ledger as its own
 * `ctx.state.get('ledger')`, and its `ctx.state.set('ledger', …)`, killed before the paper store
 * wrote the account back, left a ledger every later paper run on the store failed to start on
 * (`unexpected error: Cannot convert undefined or null to object`, exit 1). Such an id is refused
 * before the run starts, naming it, and the account is left as it was. Likewise `__risk__`, the
 * owner of the risk module's trading states (paper: `paper/__risk__`): a live strategy of that id
 * that kept a `step` in its state made every later `hoga run` on the store fail (`risk scope key:
 * expected account, strategy:<id> or symbol:<code>, found step`), mid-run after its first order,
 * and `hoga risk status` with it.
 */
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  openTempDb,
  startSimulatedBroker,
  startTestRun,
  tempDbFile,
} from '../live/live-run.test-helper.js';
import { PAPER_STATE_ID } from '../live/paper-store.js';
import { Strategy } from '../strategy/strategy.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Keeps a `ledger` of its own in its state, at once. */
class KeepsALedger extends Strategy {
  override onStart(): void {
    this.ctx.state.set('ledger', { mine: 1 });
  }
}

describe('a paper strategy of the id the paper account is kept under', () => {
  it('is refused before it runs, naming the id; the paper account is left as it was', async () => {
    const s = await startSimulatedBroker(closers, { speed: 0 });
    const db = openTempDb(closers, 'hoga-state-reserved-', s.clock);
    const run = (id: string) =>
      startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: 't-paper',
          mode: 'paper',
          symbols: ['005930'],
          cashKrw: new Decimal(1_000_000),
          strategies: [{ strategyClass: KeepsALedger, id }],
        },
      );
    // an ordinary paper run leaves the account's ledger in the store
    const first = await run('mine');
    await first.handle.stop();
    const ledger = db.strategyState.get(PAPER_STATE_ID, 'ledger');
    expect(ledger).toMatchObject({ cash: { KRW: '1000000' } });

    await expect(run('_account')).rejects.toThrow(/strategy id _account .*paper account/);
    expect(db.strategyState.get(PAPER_STATE_ID, 'ledger')).toEqual(ledger);
    // and the next paper run starts on it
    const next = await run('mine');
    await next.handle.stop();
  }, 60_000);
});

describe.each(['live', 'paper'] as const)(
  'a %s strategy of the id the risk module keeps its states under',
  (mode) => {
    it('is refused before it runs, naming the id; the next run starts', async () => {
      const s = await startSimulatedBroker(closers, { speed: 0 });
      const file = tempDbFile('hoga-state-reserved-risk-');
      const db = HogaDatabase.open(file, { clock: s.clock });
      closers.add(() => db.close());
      const run = (id: string) =>
        startTestRun(
          { client: s.client, clock: s.clock, db },
          {
            runId: `t-${mode}`,
            mode,
            symbols: ['005930'],
            cashKrw: new Decimal(1_000_000),
            strategies: [{ strategyClass: KeepsALedger, id }],
          },
        );
      await expect(run('__risk__')).rejects.toThrow(/strategy id __risk__ .*risk module/);
      const next = await run('mine');
      await next.handle.stop();
    }, 60_000);
  },
);

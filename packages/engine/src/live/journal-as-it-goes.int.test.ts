/**
 * A live or paper run journals each order event as it is routed, not at the stop: the journal is
 * the run's record of what happened, and a process killed outright (SIGKILL, power loss) keeps what
 * it had journalled. Before, the events were buffered in memory until the run stopped (or 5,000 of
 * them): a run killed after a day of trading left none of that day's events in the journal. Over
 * the simulator on 127.0.0.1.
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  openTempDb,
  RestBelow,
  startSimulatedBroker,
  startTestRun,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe('the journal of a running session', () => {
  it.each(['paper', 'live'] as const)(
    '%s: holds the order events while the run works',
    async (mode) => {
      const s = await startSimulatedBroker(closers, { speed: 30 });
      const db = openTempDb(closers, `hoga-journal-${mode}-`, s.clock);
      const run = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `journal-${mode}`,
          mode,
          symbols: ['005930'],
          cashKrw: new Decimal(1_000_000),
          strategies: [{ strategyClass: RestBelow }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
      );
      closers.add(() => run.handle.stop());
      await until(() => run.events.some((e) => e.type === 'OrderAccepted'), 60_000);
      const accepted = run.events.find((e) => e.type === 'OrderAccepted');
      // what a process killed now would leave: the journal as committed, the run still working
      await until(() => db.journal.forOrder(accepted?.clientOrderId ?? '').length >= 2, 10_000);
      expect(db.journal.forOrder(accepted?.clientOrderId ?? '').map((e) => [e.type, e.mode])).toEqual([
        ['OrderSubmitted', mode],
        ['OrderAccepted', mode],
      ]);
    },
    120_000,
  );
});

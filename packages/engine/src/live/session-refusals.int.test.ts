/**
 * A live session's refused orders are its own orders' refusals, each counted once: an order the
 * session sent that the broker took and then rejected (a US amount order under $1: the broker's
 * record ends REJECTED) is heard from the order poll, or, its create's answer lost, from the
 * reconcile of the lost command (in the session that sent it, or, stopped before, in the next one
 * at its start); either way it is one `broker-rejected` refusal, of the session whose strategy was
 * told it, in its status line, its stop's summary and its stored run (`hoga db runs --id`), and
 * none of the other session. Over the simulator on 127.0.0.1, a real SQLite file.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { HogaDatabase, RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, startSimulatedBroker, startTestRun, tempDbFile, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys NVDA for 50 cents once, at its first start: the broker takes it, then rejects it. */
class Penny extends Strategy {
  static placed = false;
  override onStart(): void {
    if (Penny.placed) return;
    Penny.placed = true;
    this.ctx.buyAmount('NVDA', '0.5');
  }
}

/** The refusals a session's strategy was told, by code. */
function told(events: readonly OrderEvent[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of events) if (e.type === 'OrderRejected') out[e.code ?? ''] = (out[e.code ?? ''] ?? 0) + 1;
  return out;
}

describe('a live session: the broker rejecting an order it took', () => {
  it.each([
    ['heard from the order poll', { lost: false, stopAtOnce: false }],
    ['its create answer lost, found by the reconcile of the command', { lost: true, stopAtOnce: false }],
    [
      'its create answer lost, the session stopped at once: found at the next start',
      { lost: true, stopAtOnce: true },
    ],
  ])(
    '%s: one refusal, of the session told it',
    async (_, { lost, stopAtOnce }) => {
      Penny.placed = false;
      // 11:00 New York: the amount-order window is open
      const s = await startSimulatedBroker(closers, { start: '2026-11-23T11:00:00-05:00', speed: 1 });
      if (lost)
        s.sim.injectFault({ kind: 'drop-after-commit', path: '/api/v1/orders', method: 'post', count: 1 });
      const file = tempDbFile('hoga-session-refusals-');
      const figures: { told: Record<string, number>; status: unknown; stored: unknown }[] = [];
      for (const runId of ['refusals-1', 'refusals-2']) {
        const db = HogaDatabase.open(file, { clock: s.clock });
        closers.add(() => db.close());
        const { handle, events } = await startTestRun(
          { client: s.client, clock: s.clock, db },
          {
            runId,
            mode: 'live',
            symbols: ['NVDA'],
            cashKrw: new Decimal(0),
            strategies: [{ strategyClass: Penny }],
          },
          // the risk module off: the order under $1 goes to the broker (else denied before it)
          { pollIntervalMs: 200, risk: { enabled: false }, onError: () => undefined },
        );
        if (runId === 'refusals-1' && !stopAtOnce)
          await until(() => Object.keys(told(events)).length > 0, 30_000);
        if (runId === 'refusals-1' && stopAtOnce) {
          await until(() => s.sim.counters().ordersCreated === 1, 30_000);
          // the lost answer's fault was spent on the create
          expect(s.sim.control.faults()).toEqual([]);
          // the broker's order reads fail to the stop: the session ends as one killed would, unanswered
          s.sim.injectFault({
            kind: 'internal-error',
            path: '/api/v1/orders*',
            method: 'get',
            count: 10_000,
          });
        } else {
          // a few more requests (polls): the rejection is not heard again
          const requests = handle.status().requests;
          await until(() => handle.status().requests > requests + 5, 30_000);
        }
        await handle.stop();
        s.sim.clearFaults();
        const stats = new RunRepository(db.connection).get(runId)?.stats as { refused?: unknown } | undefined;
        figures.push({ told: told(events), status: handle.status().refused, stored: stats?.refused });
        db.close();
      }
      // each session counts what its strategy was told, in its status and its stored run
      for (const f of figures) expect([f.status, f.stored]).toEqual([f.told, f.told]);
      // the rejection is counted once, in all: by the session whose strategy was told it
      expect(figures.map((f) => f.told)).toEqual(
        stopAtOnce ? [{}, { 'broker-rejected': 1 }] : [{ 'broker-rejected': 1 }, {}],
      );
    },
    90_000,
  );
});

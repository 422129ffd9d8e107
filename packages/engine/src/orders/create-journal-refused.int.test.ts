/**
 * A live create whose command-journal line the disk refuses (`ENOSPC`: the journal's path made a
 * link to `/dev/full` just before the strategy buys, so the journal, finding its file replaced,
 * writes the line again there). The line is written before the request leaves, so nothing may be
 * sent; the strategy is told (`OrderDenied`, code `store-unavailable`, the reason naming the
 * store's refusal) and the run goes on. Before, the store's error rejected the venue's promise and
 * the run failed as for a throw in the strategy's hook (`strategy buys threw in venue: ENOSPC`).
 * Over the simulator (HTTP) and a real SQLite file.
 */
import { renameSync, rmSync, symlinkSync } from 'node:fs';
import type { ClientOrderId } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  startSimulatedBroker,
  startWatchedRun,
  tempDbFile,
  until,
  waitUntil,
} from '../live/live-run.test-helper.js';
import type { TimerFired } from '../strategy/market-events.js';
import { Strategy } from '../strategy/strategy.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys once at its start, the disk full for the journal first; notes each later timer. */
class BuysOnce extends Strategy {
  static fillDisk: () => void = () => undefined;
  static id: ClientOrderId | null = null;
  static state: string | undefined;
  static later = 0;
  override onStart(): void {
    this.ctx.setTimer('buy', { at: this.ctx.now() });
  }
  override onTimer(timer: TimerFired): void {
    if (timer.name === 'buy') {
      BuysOnce.fillDisk();
      BuysOnce.id = this.ctx.buy('005930', 1, 55_000);
    } else {
      BuysOnce.later++;
    }
  }
  override onOrderEvent(): void {
    const id = BuysOnce.id;
    if (id !== null) BuysOnce.state = this.ctx.order(id)?.state;
    // the run goes on: its hooks are still called
    this.ctx.setTimer('later', { at: this.ctx.now() });
  }
}

describe('a live create whose command-journal line the disk refuses', () => {
  it('is denied store-unavailable, nothing sent, and the run goes on', async () => {
    const broker = await startSimulatedBroker(closers, { speed: 1, control: true, rateLimit: false });
    const file = tempDbFile('hoga-create-disk-full-');
    const db = HogaDatabase.open(file, { clock: broker.clock });
    closers.add(() => db.close());
    const journal = `${file}-commands`;
    let full = false;
    const restore = (): void => {
      if (!full) return;
      full = false;
      rmSync(journal);
      renameSync(`${journal}.kept`, journal);
    };
    closers.add(restore);
    BuysOnce.fillDisk = () => {
      renameSync(journal, `${journal}.kept`);
      symlinkSync('/dev/full', journal);
      full = true;
    };
    BuysOnce.id = null;
    BuysOnce.state = undefined;
    BuysOnce.later = 0;
    const run = await startWatchedRun(closers, { ...broker, db }, 'disk-full', {
      strategyClass: BuysOnce,
      id: 'buys',
    });
    const told = await waitUntil(() => run.failure() !== null || run.events.length > 0, 30_000);
    restore(); // nothing reads the journal's path while it names /dev/full
    expect({ told, failure: run.failure() }).toEqual({ told: true, failure: null });
    await until(() => BuysOnce.later > 0, 30_000);
    await run.stop();
    expect(run.failure()).toBeNull();
    expect(run.events.map((e) => ('code' in e ? `${e.type} ${e.code}: ${e.reason}` : e.type))).toEqual([
      'OrderDenied store-unavailable: the order was not sent: the store refuses writes (ENOSPC: no space left on device, write)',
    ]);
    expect(BuysOnce.state).toBe('DENIED');
    expect(broker.sim.counters().ordersCreated).toBe(0);
    expect(db.connection.prepare('SELECT count(*) AS n FROM order_commands').get()).toEqual({ n: 0 });
  }, 120_000);
});

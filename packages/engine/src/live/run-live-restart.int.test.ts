/**
 * A live run restarted on the same store: the strategy's resting broker order of the first run is
 * tracked again by its strategy in the second (`openOrders()` shows it in `onStart`), and its fill
 * in the second run reaches the strategy's order view, its `onFill` and its position.
 */
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrategySpec } from '../runtime/engine-runtime.js';
import {
  Closers,
  RestBelow,
  type StartedRun,
  startRunOf005930,
  startSimulatedBroker,
  tempDbFile,
  until,
  Watch,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe('startLiveRun after a restart', () => {
  it('live: the strategy tracks its resting broker order again, and gets its fill', async () => {
    const { sim, clock, client } = await startSimulatedBroker(closers, { speed: 30 });
    const file = tempDbFile('hoga-live-restart-');
    let db = HogaDatabase.open(file, { clock });
    closers.add(() => db.close());

    const run = (strategy: StrategySpec): Promise<StartedRun> =>
      startRunOf005930({ client, clock, db }, 'live', strategy);

    const first = await run({ strategyClass: RestBelow });
    await until(() => first.events.some((e) => e.type === 'OrderAccepted'));
    await first.handle.stop(); // no cancel-on-stop: the order stays open at the broker
    const submitted = first.events.find((e) => e.type === 'OrderSubmitted');
    if (submitted?.type !== 'OrderSubmitted' || submitted.intent.orderType !== 'LIMIT')
      throw new Error('no limit order');
    const limit = submitted.intent.price;

    // the engine restarts on the same SQLite file: the same strategy id, a strategy that places nothing
    db.close();
    db = HogaDatabase.open(file, { clock });
    const second = await run({ strategyClass: Watch, id: 'RestBelow' });
    try {
      expect(Watch.found).toEqual([`${submitted.clientOrderId} BUY 2 @ ${limit.toFixed()} ACCEPTED`]);
      // the market falls through the limit: the broker fills the order of the first run
      sim.setPrice('005930', limit.minus(1_000));
      await until(() => Watch.fills.length > 0);
    } finally {
      await second.handle.stop();
    }
    const fill = second.events.find((e) => e.type === 'OrderFilled');
    if (fill?.type !== 'OrderFilled') throw new Error('no fill event');
    expect(fill.clientOrderId).toBe(submitted.clientOrderId);
    expect(fill.strategyId).toBe('RestBelow');
    expect(Watch.fills.map((f) => f.quantity.toFixed())).toEqual(['2']);
    const ctx = Watch.ctx;
    if (ctx === null) throw new Error('no context');
    expect(ctx.openOrders()).toEqual([]);
    expect(ctx.order(submitted.clientOrderId)?.state).toBe('FILLED');
    expect(ctx.order(submitted.clientOrderId)?.filledQuantity.toFixed()).toBe('2');
    expect(ctx.position('005930')?.quantity.toFixed()).toBe('2');
  }, 120_000);
});

/**
 * `--cancel-on-stop` on a store that holds more than 1,000 live orders (a few weeks of trading):
 * the run's resting order is cancelled. Before, the orders to cancel were looked for among the
 * store's first 1,000 live orders (the list's default limit, oldest first): the newest, among them
 * every order still working, were never looked at, and the run stopped with its order resting at
 * the broker and `{ open: 0, canceled: 0 }`. Over the simulator (HTTP) and a real SQLite file.
 */
import { Currency, Decimal, Market } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  openTempDb,
  RestBelow,
  startRunOf005930,
  startSimulatedBroker,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe('cancelOpenOrders on a store of many orders', () => {
  it('cancels the run’s resting order past the first 1,000 stored', async () => {
    const s = await startSimulatedBroker(closers, { speed: 1 });
    const db = openTempDb(closers, 'hoga-cancel-many-', s.clock);
    // 1,000 filled orders of earlier weeks, of the same strategy
    const earlier = s.clock.nowMs() - 30 * 86_400_000;
    db.durableTransaction(() => {
      for (let i = 0; i < 1_000; i++) {
        db.orders.recordIntent({
          clientOrderId: `old-${i}`,
          strategyId: 'RestBelow',
          mode: 'live',
          symbol: '005930',
          market: Market.KR,
          currency: Currency.KRW,
          side: 'BUY',
          orderType: 'LIMIT',
          timeInForce: 'DAY',
          price: new Decimal(60_000),
          quantity: new Decimal(1),
          amount: null,
          state: 'FILLED',
          createdAt: earlier + i,
        });
      }
    });
    const { handle, events } = await startRunOf005930({ ...s, db }, 'live', { strategyClass: RestBelow });
    closers.add(() => handle.stop());
    await until(() => events.some((e) => e.type === 'OrderAccepted'), 60_000);

    const result = await handle.cancelOpenOrders();

    expect(result).toMatchObject({ open: 1, canceled: 1 });
    expect((await s.client.listOrders({ status: 'OPEN' })).orders).toEqual([]);
  }, 120_000);
});

import { Decimal, newClientOrderId, type OrderEvent } from '@hoga/core';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type OrderTracker, orderUpdates, PollScheduler } from '../src/index.js';
import { frozenMarketFixture, placeRestingBuy, type SimFixture } from './simulator-fixture.js';

/** A KR stock whose lowest bid rests without filling in a frozen market. */
const SYMBOL = '035420';
const MODIFIES = 25;
const DAY_MS = 86_400_000;

// a frozen market: the resting order never fills
const frozen = frozenMarketFixture();
let fx: SimFixture;
beforeEach(() => {
  fx = frozen();
});

/** Waits until `predicate` holds (polled every 25 ms), at most `ms`. */
async function until(predicate: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
}

describe('orderUpdates over a long run', () => {
  it('forgets an order modified many times once it and its replacements ended and a day passed', async () => {
    let polls = 0;
    const list = fx.client.listOrders.bind(fx.client);
    vi.spyOn(fx.client, 'listOrders').mockImplementation(async (query, options) => {
      const result = await list(query, options);
      polls++;
      return result;
    });
    // the stream's time, moved a day on below (ended orders are remembered for a day)
    let skewMs = 0;
    const scheduler: SchedulerLike = {
      now: () => asyncScheduler.now() + skewMs,
      schedule: asyncScheduler.schedule.bind(asyncScheduler),
    };
    let tracker: OrderTracker | undefined;
    const events: OrderEvent[] = [];
    const sub = orderUpdates(fx.client, new PollScheduler({ rateOf: () => 20 }), 50, {
      scheduler,
      onTracker: (t) => {
        tracker = t;
      },
    }).subscribe((e) => events.push(e));

    const clientOrderId = newClientOrderId('churn');
    const created = await placeRestingBuy(fx, SYMBOL, clientOrderId);
    const { low, nextUp } = created;
    let current = created.orderId;
    for (let i = 0; i < MODIFIES; i++) {
      const modified = await fx.client.modifyOrder(current, {
        orderType: 'LIMIT',
        price: i % 2 === 0 ? nextUp : low,
        quantity: new Decimal(2),
      });
      if (modified.kind !== 'acknowledged') throw new Error(`modify ${i} not acknowledged`);
      current = modified.orderId;
    }
    const mine = () => events.filter((e) => e.clientOrderId === clientOrderId).map((e) => e.type);
    await until(() => mine().filter((t) => t === 'OrderModified').length === MODIFIES);
    await fx.client.cancelOrder(current);
    await until(() => mine().includes('OrderCanceled'));
    // two more polls: every ended order was seen ended by a poll before the day passes
    const seen = polls;
    await until(() => polls >= seen + 2);
    const withinTheDay = tracker!.sizes();

    skewMs = DAY_MS + 60_000;
    const after = polls;
    await until(() => polls >= after + 2);
    sub.unsubscribe();

    expect(mine()).toEqual(['OrderAccepted', ...Array(MODIFIES).fill('OrderModified'), 'OrderCanceled']);
    // within the day the chain is remembered (a late report of it is not a new order) ...
    expect(withinTheDay.replacements).toBe(MODIFIES);
    expect(withinTheDay.orders).toBeGreaterThanOrEqual(MODIFIES + 1);
    // ... and once it ended and a day passed, nothing of it is kept
    expect(tracker!.sizes()).toEqual({ orders: 0, replacements: 0, held: 0 });
    expect(events.filter((e) => e.clientOrderId !== clientOrderId)).toEqual([]);
  }, 60_000);
});

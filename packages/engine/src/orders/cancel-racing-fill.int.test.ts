/**
 * A cancel racing its order's complete fill, over real HTTP against the simulator and a real
 * SQLite file: the broker fills the order whole, a poll reports the fill while the cancel's answer
 * is still on its way, then the broker refuses the cancel (`already-filled`). The strategy must
 * hear the order end filled (`OrderFilled`), as paper and backtests end it. Before, the fill counted
 * while the cancel was unsettled was told as `OrderPartiallyFilled` and nothing followed the
 * cancel's refusal: the store held the order FILLED, the strategy's view stayed PARTIALLY_FILLED
 * (among its open orders) for good.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cancelOf, KR_OPEN, priceLimits, submitLimit, useLiveFixtures } from './live-fixture.test-helper.js';

const live = useLiveFixtures(afterEach);

describe('a cancel racing its order’s complete fill', () => {
  it('ends the order with OrderFilled, then the cancel refused already-filled', async () => {
    const f = await live(KR_OPEN);
    const { upper } = await priceLimits(f.client, '005930');
    // a buy at the upper limit fills whole at once
    const order = submitLimit('005930', 'BUY', '2', upper);
    await f.manager.execute(order);
    const id = order.intent.clientOrderId;
    // the cancel held back at the broker while the order's report (filled whole) is read and
    // applied, as a poll applies it
    f.sim.injectFault({ kind: 'delay', path: '/api/v1/orders/*/cancel', count: 1, delayMs: 1_000 });
    const cancelling = f.manager.execute(cancelOf(order));
    const brokerOrderId = f.manager.currentExecution(id)?.brokerOrderId ?? '';
    f.manager.applyRecord(await f.client.getOrder(brokerOrderId));
    await cancelling;
    const seen = f.events
      .filter((e) => e.clientOrderId === id)
      .map((e) => (e.type === 'OrderCancelRejected' ? `${e.type} ${e.code}` : e.type));
    expect(seen).toEqual([
      'OrderSubmitted',
      'OrderAccepted',
      'OrderCancelRequested',
      'OrderFilled',
      'OrderCancelRejected already-filled',
    ]);
    expect(f.db.orders.get(id)?.state).toBe('FILLED');
  });
});

/**
 * `orderUpdates$` over the simulator when the answer of a modify is lost after the broker took it
 * (the connection reset, a timeout): the client reads the order, finds it `REPLACED`, and the
 * replacement the broker made is known only by its terms. Polls run one at a time
 * (`driven-order-stream.ts`).
 */
import { Decimal, newClientOrderId, ScaledClock } from '@hoga/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallSpec } from '../src/client/request-executor.js';
import { NetworkError, NetworkFailure } from '../src/index.js';
import { type DrivenStream, drivenStream, gate, summary } from './driven-order-stream.js';
import { frozenMarketFixture, placeRestingBuy, type SimFixture } from './simulator-fixture.js';

/** A KR stock whose lowest bid rests without filling in a frozen market. */
const SYMBOL = '035420';

// a frozen market: the resting order never fills
const frozen = frozenMarketFixture();
let fx: SimFixture;
beforeEach(() => {
  fx = frozen();
  // the client's clock stands with the simulator's (the modify's send time is compared with orderedAt)
  if (fx.clock instanceof ScaledClock) {
    fx.clock.setSpeed(0);
    fx.clock.set(fx.sim.now());
  }
});

/** How many times the stream read the CLOSED list. */
const closedReads = () =>
  vi.mocked(fx.client.listOrders).mock.calls.filter(([query]) => query.status === 'CLOSED').length;

/** The broker's OPEN orders (read past the driven stream's gate). */
function openOrders(list: SimFixture['client']['listOrders']) {
  return async () => (await list({ status: 'OPEN' })).orders.map((o) => o.orderId);
}

/**
 * Loses the answer of the next modify after the broker took it: the client sees a reset
 * connection once `lose` is called (a poll can run in between).
 */
function loseModifyAnswerLater(): { applied: Promise<void>; lose: () => void } {
  const applied = gate();
  const lose = gate();
  const executor = fx.client.executor;
  const execute = executor.execute.bind(executor);
  vi.spyOn(executor, 'execute').mockImplementation(async (spec, options) => {
    const answer = await execute(spec as CallSpec<unknown>, options);
    if (spec.endpoint !== 'modifyOrder') return answer as never;
    applied.open();
    await lose.promise;
    throw new NetworkError('modifyOrder', NetworkFailure.CONNECTION, 'socket hang up (test)');
  });
  return { applied: applied.promise, lose: lose.open };
}

/**
 * A driven stream that has seen a resting buy of 2 shares placed at the lowest bid
 * ({@link placeRestingBuy}), and the steps of a test on it: `modify` asks for 1 share one level up
 * (`nextUp`), `replacement` reads the broker's OPEN orders for the order that replaced it.
 */
async function restingBuyWatched(prefix: string) {
  const open = openOrders(fx.client.listOrders.bind(fx.client));
  const stream = drivenStream(fx);
  await stream.poll();
  const id = newClientOrderId(prefix);
  const { orderId, nextUp } = await placeRestingBuy(fx, SYMBOL, id);
  await stream.poll();
  return {
    stream,
    id,
    orderId,
    nextUp,
    modify: (options?: Parameters<SimFixture['client']['modifyOrder']>[2]) =>
      fx.client.modifyOrder(
        orderId,
        { orderType: 'LIMIT', price: nextUp, quantity: new Decimal(1) },
        options,
      ),
    replacement: async () => (await open())[0],
  };
}

/** The stream's two last polls (the second finds nothing new), then its end. */
async function lastPolls(stream: DrivenStream): Promise<void> {
  await stream.poll();
  await stream.poll();
  stream.stop();
}

/** What the stream reports of a resting order whose modify it tied to `replacement`. */
function tiedTo(
  replacement: string | undefined,
  { id, orderId, nextUp }: { id: string; orderId: string; nextUp: Decimal },
): string[] {
  return [`OrderAccepted ${id}`, `OrderModified ${id} ${replacement}<-${orderId} ${nextUp.toFixed()} 1`];
}

describe('orderUpdates when a modify answer is lost and the order is read instead', () => {
  it('ties the replacement to the original order when the connection dropped after the broker took it', async () => {
    const order = await restingBuyWatched('lost');
    const { stream, orderId } = order;

    fx.sim.injectFault({ kind: 'drop-after-commit', path: '/api/v1/orders/*/modify', count: 1 });
    const outcome = await order.modify();
    expect(outcome).toMatchObject({ kind: 'resolved-by-state', applied: true });
    const replacement = await order.replacement();
    expect(replacement).not.toBe(orderId);
    await lastPolls(stream);

    expect(summary(stream.events)).toEqual(tiedTo(replacement, order));
    expect(stream.errors).toEqual([]);
    expect(stream.tracker().sizes().held).toBe(0);
    expect(closedReads()).toBe(1); // the poll that found it; none after
  }, 20_000);

  it('waits for a replacement the lists show late, and says nothing of the original meanwhile', async () => {
    const order = await restingBuyWatched('lag');
    const { stream, id } = order;

    const path = '/api/v1/orders/*/modify';
    fx.sim.injectFault({ kind: 'hide-new-orders', path, count: 1, durationMs: 30_000 });
    fx.sim.injectFault({ kind: 'drop-after-commit', path, count: 1 });
    const outcome = await order.modify();
    expect(outcome).toMatchObject({ kind: 'resolved-by-state', applied: true });
    await stream.poll();
    await stream.poll();
    expect(summary(stream.events)).toEqual([`OrderAccepted ${id}`]); // the original's REPLACED waits
    fx.sim.advanceClock(31_000);
    const replacement = await order.replacement();
    await lastPolls(stream);

    expect(summary(stream.events)).toEqual(tiedTo(replacement, order));
    expect(stream.errors).toEqual([]);
    expect(closedReads()).toBe(3); // while it was looked for
  }, 20_000);

  it('ties the replacement of a modify the broker was still processing when its answer was lost', async () => {
    const order = await restingBuyWatched('slow');
    const { stream, orderId } = order;

    const path = '/api/v1/orders/*/modify';
    // the broker works on the modify for 3 s (real time); the client gives up on its answer after 0.2 s
    fx.sim.injectFault({ kind: 'slow-order', path, count: 1, delayMs: 3_000 });
    const outcome = await order.modify({ timeoutMs: 200 });
    expect(outcome).toMatchObject({
      kind: 'resolved-by-state',
      applied: true,
      order: { status: 'PENDING_REPLACE' },
    });
    await stream.poll();
    // the broker ends the modify once its 3 s are over
    while ((await fx.client.getOrder(orderId)).status === 'PENDING_REPLACE')
      await new Promise((r) => setTimeout(r, 25));
    const replacement = await order.replacement();
    await lastPolls(stream);

    expect(summary(stream.events)).toEqual(tiedTo(replacement, order));
    expect(stream.errors).toEqual([]);
  }, 20_000);

  it('ties it when a poll saw the replacement listed and the original REPLACED before the answer was lost', async () => {
    const order = await restingBuyWatched('lost');
    const { stream } = order;

    const answer = loseModifyAnswerLater();
    const modify = order.modify();
    await answer.applied;
    await stream.poll(); // both held: the modify is in flight
    expect(stream.events).toHaveLength(1);
    answer.lose();
    expect(await modify).toMatchObject({ kind: 'resolved-by-state', applied: true });
    const replacement = await order.replacement();
    await lastPolls(stream);

    expect(summary(stream.events)).toEqual(tiedTo(replacement, order));
    expect(stream.errors).toEqual([]);
  }, 20_000);

  it.each([
    { label: 'its answer lost', lost: true },
    { label: 'answered before any poll', lost: false },
  ])(
    'counts the fills of a replacement that filled at once on top of what the original filled, $label',
    async ({ lost }) => {
      const stream = drivenStream(fx);
      await stream.poll();
      const [first, second] = (await fx.client.getOrderbook(SYMBOL)).asks;
      if (first === undefined || second === undefined) throw new Error('the book has no two ask levels');
      const id = newClientOrderId('fills');
      // takes the lowest ask level at once; 2 shares rest
      const { orderId } = await fx.client.createOrder({
        symbol: SYMBOL,
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: first.volume.plus(2),
        price: first.price,
        clientOrderId: id,
      });
      if (lost) fx.sim.injectFault({ kind: 'drop-after-commit', path: '/api/v1/orders/*/modify', count: 1 });
      // one share at the next level up: it fills at once and is never listed OPEN
      const outcome = await fx.client.modifyOrder(orderId, {
        orderType: 'LIMIT',
        price: second.price,
        quantity: new Decimal(1),
      });
      expect(outcome.kind).toBe(lost ? 'resolved-by-state' : 'acknowledged');
      await lastPolls(stream);

      const modified = stream.events.find((e) => e.type === 'OrderModified');
      const replacement = modified?.type === 'OrderModified' ? modified.brokerOrderId : '';
      expect(replacement).not.toBe(orderId);
      expect((await fx.client.getOrder(replacement)).status).toBe('FILLED');
      expect(summary(stream.events)).toEqual([
        `OrderAccepted ${id}`,
        `OrderPartiallyFilled ${id}`,
        `OrderModified ${id} ${replacement}<-${orderId} ${second.price.toFixed()} 1`,
        `OrderFilled ${id}`,
      ]);
      const fills = stream.events.flatMap((e) =>
        'fill' in e
          ? [[e.fill.brokerOrderId, e.fill.quantity.toFixed(), e.fill.cumulativeQuantity.toFixed()]]
          : [],
      );
      // the strategy's filled quantity: the original's fills, then the replacement's on top
      expect(fills).toEqual([
        [orderId, first.volume.toFixed(), first.volume.toFixed()],
        [replacement, '1', first.volume.plus(1).toFixed()],
      ]);
      expect(stream.errors).toEqual([]);
    },
    20_000,
  );
});

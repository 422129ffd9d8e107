/**
 * `orderUpdates$` over the simulator, one poll at a time: each poll of the stream starts when the
 * test lets it, and a modify's answer reaches the client when the test lets it, so the order of
 * the broker's reports and the client's answers is the test's, not the timers'.
 */
import { Decimal, newClientOrderId } from '@hoga/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { drivenStream as driven, holdModifyAnswer, summary } from './driven-order-stream.js';
import { frozenMarketFixture, placeRestingBuy, type SimFixture } from './simulator-fixture.js';

/** A KR stock whose lowest bid rests without filling in a frozen market. */
const SYMBOL = '035420';

// a frozen market: the resting order never fills
const frozen = frozenMarketFixture();
let fx: SimFixture;
beforeEach(() => {
  fx = frozen();
});

const drivenStream = () => driven(fx);
const placeResting = (clientOrderId: string) => placeRestingBuy(fx, SYMBOL, clientOrderId);

describe('orderUpdates over the simulator, poll by poll', () => {
  it.each([
    { label: 'the modify answered before the next poll', pollFirst: false },
    { label: 'the poll saw the original REPLACED before the answer', pollFirst: true },
  ])(
    'links the replacement to the original order when $label',
    async ({ pollFirst }) => {
      const stream = drivenStream();
      await stream.poll();
      const id = newClientOrderId('chain');
      const { orderId, nextUp } = await placeResting(id);
      await stream.poll();

      const answer = holdModifyAnswer(fx);
      const modify = fx.client.modifyOrder(orderId, {
        orderType: 'LIMIT',
        price: nextUp,
        quantity: new Decimal(1),
      });
      await answer.applied;
      if (pollFirst) await stream.poll();
      answer.release();
      const modified = await modify;
      if (modified.kind !== 'acknowledged') throw new Error('modify not acknowledged');
      await stream.poll();
      await stream.poll();
      stream.stop();

      expect(summary(stream.events)).toEqual([
        `OrderAccepted ${id}`,
        `OrderModified ${id} ${modified.orderId}<-${orderId} ${nextUp.toFixed()} 1`,
      ]);
      expect(stream.errors).toEqual([]);
    },
    20_000,
  );

  it.each([2, 3])(
    'tells an order modified %i times between two polls in the order it happened: accepted, then each link',
    async (modifies) => {
      const stream = drivenStream();
      await stream.poll();
      const id = newClientOrderId('links');
      const { orderId, low, nextUp } = await placeResting(id);
      const chain = [orderId];
      const prices: Decimal[] = [];
      for (let i = 0; i < modifies; i++) {
        const price = i % 2 === 0 ? nextUp : low;
        const modified = await fx.client.modifyOrder(chain.at(-1)!, {
          orderType: 'LIMIT',
          price,
          quantity: new Decimal(2),
        });
        if (modified.kind !== 'acknowledged') throw new Error(`modify ${i} not acknowledged`);
        chain.push(modified.orderId);
        prices.push(price);
      }
      // the first poll after the create sees the last replacement listed, the rest ended
      await stream.poll();
      await stream.poll();
      stream.stop();

      expect(summary(stream.events)).toEqual([
        `OrderAccepted ${id}`,
        ...prices.map((price, i) => `OrderModified ${id} ${chain[i + 1]}<-${chain[i]} ${price.toFixed()} 2`),
      ]);
      expect(stream.errors).toEqual([]);
    },
    20_000,
  );

  /** Places a resting order, lets a poll accept it, cancels it and counts the detail reads of the cancel's id. */
  async function cancelAfterAccepted(stream: ReturnType<typeof drivenStream>, answer404: boolean) {
    const id = newClientOrderId('cancel');
    const { orderId } = await placeResting(id);
    await stream.poll();
    let cancelId: string | null = null;
    let cancelReads = 0;
    const read = fx.client.getOrder.bind(fx.client);
    vi.spyOn(fx.client, 'getOrder').mockImplementation((orderId, options) => {
      if (orderId !== cancelId) return read(orderId, options);
      cancelReads++;
      // a broker that keeps no order under the id a cancel answered: 404 order-not-found over HTTP
      return read(answer404 ? `gone-${orderId}` : orderId, options);
    });
    const canceled = await fx.client.cancelOrder(orderId);
    if (canceled.kind !== 'acknowledged') throw new Error('cancel not acknowledged');
    cancelId = canceled.orderId;
    return { id, orderId, cancelId: canceled.orderId, reads: () => cancelReads };
  }

  it('forgets a cancel whose id the broker answers 404 order-not-found for, and says OrderCanceled once', async () => {
    const stream = drivenStream();
    await stream.poll();
    const cancel = await cancelAfterAccepted(stream, true);
    for (let i = 0; i < 4; i++) await stream.poll();
    stream.stop();

    expect(summary(stream.events)).toEqual([`OrderAccepted ${cancel.id}`, `OrderCanceled ${cancel.id}`]);
    // read once, never again, and not reported as a failed poll
    expect(cancel.reads()).toBe(1);
    expect(stream.errors).toEqual([]);
    expect(stream.tracker().liveOrderIds()).toEqual([]);
  }, 20_000);

  it('stops reading a cancel whose detail keeps failing once its original is read cancelled', async () => {
    const stream = drivenStream();
    await stream.poll();
    const cancel = await cancelAfterAccepted(stream, false);
    fx.sim.injectFault({ kind: 'internal-error', path: `/api/v1/orders/${cancel.cancelId}`, method: 'GET' });
    for (let i = 0; i < 4; i++) await stream.poll();
    stream.stop();

    expect(summary(stream.events)).toEqual([`OrderAccepted ${cancel.id}`, `OrderCanceled ${cancel.id}`]);
    // the poll that read the original cancelled still read the cancel's record; no poll after it
    expect(cancel.reads()).toBe(1);
    expect(stream.errors).toHaveLength(1);
    expect((stream.errors[0] as Error).message).toMatch(/internal-error/);
    expect(stream.tracker().liveOrderIds()).toEqual([]);
  }, 30_000);

  it("still reads a readable cancel's record: OrderCanceled once, nothing reported", async () => {
    const stream = drivenStream();
    await stream.poll();
    const cancel = await cancelAfterAccepted(stream, false);
    for (let i = 0; i < 3; i++) await stream.poll();
    stream.stop();

    expect(summary(stream.events)).toEqual([`OrderAccepted ${cancel.id}`, `OrderCanceled ${cancel.id}`]);
    expect(cancel.reads()).toBe(1);
    expect(stream.errors).toEqual([]);
  }, 20_000);

  /**
   * Places a resting order, lets a poll accept it, then cancels it so it leaves the OPEN list and
   * is read by its detail; counts those reads. With `answer404` the broker answers that it has no
   * such order (404 `order-not-found` over HTTP).
   */
  async function leaveListAfterAccepted(stream: ReturnType<typeof drivenStream>, answer404: boolean) {
    const id = newClientOrderId('lost');
    const { orderId } = await placeResting(id);
    await stream.poll();
    let reads = 0;
    const read = fx.client.getOrder.bind(fx.client);
    vi.spyOn(fx.client, 'getOrder').mockImplementation((readId, options) => {
      if (readId !== orderId) return read(readId, options);
      reads++;
      return read(answer404 ? `gone-${readId}` : readId, options);
    });
    const canceled = await fx.client.cancelOrder(orderId);
    if (canceled.kind !== 'acknowledged') throw new Error('cancel not acknowledged');
    return { id, orderId, reads: () => reads };
  }

  it('drops an order the broker no longer knows after listing it, with one plain error', async () => {
    const stream = drivenStream();
    await stream.poll();
    const lost = await leaveListAfterAccepted(stream, true);
    for (let i = 0; i < 6; i++) await stream.poll();
    stream.stop();

    expect(summary(stream.events)).toEqual([`OrderAccepted ${lost.id}`]);
    // read once, then never again
    expect(lost.reads()).toBe(1);
    expect(stream.errors).toHaveLength(1);
    const error = stream.errors[0] as Error & { code?: string };
    expect(error.code).toBe('order-dropped');
    expect(error.message).toContain(lost.orderId);
    expect(error.message).toContain(lost.id);
    expect(stream.tracker().has(lost.orderId)).toBe(false);
    expect(stream.tracker().liveOrderIds()).toEqual([]);
  }, 30_000);

  it('reads an order whose detail keeps failing with 5xx less and less often, and on once it reads', async () => {
    const stream = drivenStream();
    await stream.poll();
    const failing = await leaveListAfterAccepted(stream, false);
    fx.sim.injectFault({ kind: 'internal-error', path: `/api/v1/orders/${failing.orderId}`, method: 'GET' });
    for (let i = 0; i < 12; i++) await stream.poll();

    // read on polls 1, 2, 4 and 8 of the twelve (skipping 0, 1, 3, then 7 polls), each read reported
    expect(failing.reads()).toBe(4);
    expect(stream.errors).toHaveLength(4);
    expect((stream.errors[0] as Error).message).toMatch(/internal-error/);
    // still tracked: its outcome is not lost
    expect(stream.tracker().liveOrderIds()).toContain(failing.orderId);

    fx.sim.clearFaults();
    for (let i = 0; i < 4; i++) await stream.poll();
    stream.stop();
    expect(failing.reads()).toBe(5);
    expect(summary(stream.events)).toEqual([`OrderAccepted ${failing.id}`, `OrderCanceled ${failing.id}`]);
    expect(stream.errors).toHaveLength(4);
  }, 60_000);
});

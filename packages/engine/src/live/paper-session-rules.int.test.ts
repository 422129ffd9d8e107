/**
 * Paper with the risk module disabled still refuses what the broker refuses for the session, as
 * the broker does with the risk module off live: a `MARKET` order outside the regular session
 * (`order-type-not-allowed`) and any order outside order hours (`order-hours-closed`); a limit order
 * in the pre-market is taken. Before, the paper venue took them: a market buy placed in the
 * pre-market held cash at the last price and filled against the pre-market book, where the broker
 * answers 422. Over the simulator on 127.0.0.1 (whose own answer to the same orders is checked).
 */
import { BrokerApiError } from '@hoga/connector';
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

const LIMIT = 60_000;

/** The ids of {@link TwoBuys}'s orders, in order. */
const ids: string[] = [];

/** A market buy of 1 005930, then a limit buy of 1 at `LIMIT`. */
class TwoBuys extends Strategy {
  override onStart(): void {
    ids.push(this.ctx.buy('005930', 1), this.ctx.buy('005930', 1, LIMIT));
  }
}

const outcome = (e: OrderEvent) =>
  e.type === 'OrderAccepted' || e.type === 'OrderDenied' || e.type === 'OrderRejected';

/** Each order's outcome (its code, or `accepted`) in a paper run of {@link TwoBuys} at `start`, risk off. */
async function paperOutcomes(start: string): Promise<{ paper: string[]; broker: string[] }> {
  ids.length = 0;
  const s = await startSimulatedBroker(closers, { start, speed: 1 });
  const db = openTempDb(closers, 'hoga-paper-session-', s.clock);
  const { handle, events } = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: 'paper-session-rules',
      mode: 'paper',
      symbols: ['005930'],
      cashKrw: new Decimal(10_000_000),
      strategies: [{ strategyClass: TwoBuys }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, risk: { enabled: false } },
  );
  closers.add(() => handle.stop());
  await until(() => events.filter(outcome).length === 2, 20_000);
  const paper = ids.map((id) => {
    const e = events.find((x) => x.clientOrderId === id && outcome(x));
    return e?.type === 'OrderAccepted'
      ? 'accepted'
      : e !== undefined && 'code' in e
        ? String(e.code)
        : 'none';
  });
  // paper: nothing reached the broker
  expect(s.sim.counters().ordersCreated).toBe(0);
  // the broker's own answers to the same orders
  const broker: string[] = [];
  for (const price of [undefined, new Decimal(LIMIT)]) {
    try {
      await s.client.createOrder({
        symbol: '005930',
        side: 'BUY',
        orderType: price === undefined ? 'MARKET' : 'LIMIT',
        quantity: new Decimal(1),
        ...(price === undefined ? {} : { price }),
      });
      broker.push('accepted');
    } catch (error) {
      broker.push(error instanceof BrokerApiError ? String(error.code) : String(error));
    }
  }
  return { paper, broker };
}

describe('paper with the risk module disabled', () => {
  it('refuses a market order in the pre-market as the broker does, and takes a limit order', async () => {
    const { paper, broker } = await paperOutcomes('2026-11-23T08:30:00+09:00');
    expect(broker).toEqual(['order-type-not-allowed', 'accepted']);
    expect(paper).toEqual(broker);
  }, 60_000);

  it('refuses any order outside order hours as the broker does', async () => {
    const { paper, broker } = await paperOutcomes('2026-11-23T03:00:00+09:00');
    expect(broker).toEqual(['order-hours-closed', 'order-hours-closed']);
    expect(paper).toEqual(broker);
  }, 60_000);
});

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

/** One order: a market buy of `symbol` by quantity (1) or, with `amount`, by amount; a limit buy at `limit`. */
interface Buy {
  readonly symbol: string;
  readonly limit?: number;
  readonly amount?: number;
}

/** The orders of a run, and their ids once placed. */
let buys: readonly Buy[] = [];
const ids: string[] = [];

/** Places {@link buys} at its start. */
class PlaceBuys extends Strategy {
  override onStart(): void {
    for (const b of buys) {
      ids.push(
        b.amount === undefined ? this.ctx.buy(b.symbol, 1, b.limit) : this.ctx.buyAmount(b.symbol, b.amount),
      );
    }
  }
}

const outcome = (e: OrderEvent) =>
  e.type === 'OrderAccepted' || e.type === 'OrderDenied' || e.type === 'OrderRejected';

/**
 * Each order's outcome (its code, or `accepted`) in a paper run placing `orders` at `start`, risk
 * off, and the broker's answer to each sent straight to it.
 */
async function outcomes(
  start: string,
  orders: readonly Buy[],
): Promise<{ paper: string[]; broker: string[] }> {
  buys = orders;
  ids.length = 0;
  const s = await startSimulatedBroker(closers, { start, speed: 1 });
  const db = openTempDb(closers, 'hoga-paper-session-', s.clock);
  const { handle, events } = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: 'paper-session-rules',
      mode: 'paper',
      symbols: [...new Set(orders.map((o) => o.symbol))],
      cashKrw: new Decimal(10_000_000),
      cashUsd: new Decimal(10_000),
      strategies: [{ strategyClass: PlaceBuys }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, risk: { enabled: false } },
  );
  closers.add(() => handle.stop());
  await until(() => events.filter(outcome).length === orders.length, 20_000);
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
  const broker: string[] = [];
  for (const o of orders) {
    try {
      await s.client.createOrder({
        symbol: o.symbol,
        side: 'BUY',
        ...(o.amount !== undefined
          ? { orderType: 'MARKET', orderAmount: new Decimal(o.amount) }
          : o.limit !== undefined
            ? { orderType: 'LIMIT', quantity: new Decimal(1), price: new Decimal(o.limit) }
            : { orderType: 'MARKET', quantity: new Decimal(1) }),
      });
      broker.push('accepted');
    } catch (error) {
      broker.push(error instanceof BrokerApiError ? String(error.code) : String(error));
    }
  }
  return { paper, broker };
}

/** A market buy of 1 005930, then a limit buy of 1 at 60,000 KRW. */
const KR_BUYS: readonly Buy[] = [{ symbol: '005930' }, { symbol: '005930', limit: 60_000 }];

describe('paper with the risk module disabled', () => {
  it('refuses a market order in the pre-market as the broker does, and takes a limit order', async () => {
    const { paper, broker } = await outcomes('2026-11-23T08:30:00+09:00', KR_BUYS);
    expect(broker).toEqual(['order-type-not-allowed', 'accepted']);
    expect(paper).toEqual(broker);
  }, 60_000);

  it('refuses any order outside order hours as the broker does', async () => {
    const { paper, broker } = await outcomes('2026-11-23T03:00:00+09:00', KR_BUYS);
    expect(broker).toEqual(['order-hours-closed', 'order-hours-closed']);
    expect(paper).toEqual(broker);
  }, 60_000);

  it('refuses a US amount buy outside the regular session, as the broker does, and takes one inside', async () => {
    // 19:00 KST: the US pre-market; 01:00 KST: the US regular session
    const before = await outcomes('2026-11-23T19:00:00+09:00', [{ symbol: 'AAPL', amount: 100 }]);
    expect(before.broker).toEqual(['amount-order-outside-regular-hours']);
    expect(before.paper).toEqual(before.broker);
    const during = await outcomes('2026-11-24T01:00:00+09:00', [{ symbol: 'AAPL', amount: 100 }]);
    expect(during.paper).toEqual(['accepted']);
    expect(during.broker).toEqual(['accepted']);
  }, 60_000);
});

/**
 * Paper with the risk module disabled still refuses what the broker refuses for the session, as
 * the broker does with the risk module off live: a `MARKET` order outside the regular session
 * (`order-type-not-allowed`) and any order outside order hours (`order-hours-closed`); a limit order
 * in the pre-market is taken. Before, the paper venue took them: a market buy placed in the
 * pre-market held cash at the last price and filled against the pre-market book, where the broker
 * answers 422. And as live's strategy hears it: the order is taken (`OrderSubmitted`), then
 * rejected (`OrderRejected`) with the broker's code, and stored REJECTED; before, paper denied it
 * (`OrderDenied`, stored DENIED) and only the code was live's. Over the simulator on 127.0.0.1
 * (whose own answer to the same orders is checked), differential against a live run of the same
 * strategy.
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

/** What a run's strategy heard of an order up to its outcome, and what the store holds of it. */
function heard(events: readonly OrderEvent[], id: string, state: string | undefined): string {
  const told = events.filter(
    (x) =>
      x.clientOrderId === id && (x.type === 'OrderSubmitted' || outcome(x)) && x.type !== 'OrderAccepted',
  );
  const end = events.find((x) => x.clientOrderId === id && outcome(x));
  if (end?.type === 'OrderAccepted') return 'accepted';
  const code = end !== undefined && 'code' in end ? ` ${String(end.code)}` : '';
  return `${told.map((x) => x.type).join(' ')}${code} (stored ${state ?? 'none'})`;
}

/**
 * Each order's outcome in a `mode` run placing `orders` at `start`, risk off: `accepted`, or the
 * events its strategy heard with the code and the state the store holds of it; and (paper) the
 * broker's answer to each sent straight to it.
 */
async function outcomes(
  start: string,
  orders: readonly Buy[],
  mode: 'live' | 'paper' = 'paper',
): Promise<{ run: string[]; broker: string[] }> {
  buys = orders;
  ids.length = 0;
  const s = await startSimulatedBroker(closers, { start, speed: 1 });
  const db = openTempDb(closers, `hoga-${mode}-session-`, s.clock);
  const { handle, events } = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: `${mode}-session-rules`,
      mode,
      symbols: [...new Set(orders.map((o) => o.symbol))],
      cashKrw: new Decimal(10_000_000),
      cashUsd: new Decimal(10_000),
      strategies: [{ strategyClass: PlaceBuys }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, risk: { enabled: false } },
  );
  closers.add(() => handle.stop());
  await until(() => events.filter(outcome).length === orders.length, 20_000);
  // the store holds each order's outcome once its strategy heard it
  await until(() => ids.every((id) => db.orders.get(id) !== undefined), 5_000).catch(() => undefined);
  const run = ids.map((id) => heard(events, id, db.orders.get(id)?.state));
  const broker: string[] = [];
  if (mode === 'live') return { run, broker };
  // paper: nothing reached the broker
  expect(s.sim.counters().ordersCreated).toBe(0);
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
  return { run, broker };
}

/** How a strategy hears an order the broker refuses with `code`, and what is stored of it. */
const rejected = (code: string) => `OrderSubmitted OrderRejected ${code} (stored REJECTED)`;

/** The same orders' outcomes in a live run and in a paper run (see {@link outcomes}). */
async function liveAndPaper(start: string, orders: readonly Buy[]) {
  const live = await outcomes(start, orders, 'live');
  await closers.closeAll();
  const paper = await outcomes(start, orders);
  return { live: live.run, paper: paper.run, broker: paper.broker };
}

/** A market buy of 1 005930, then a limit buy of 1 at 60,000 KRW. */
const KR_BUYS: readonly Buy[] = [{ symbol: '005930' }, { symbol: '005930', limit: 60_000 }];

describe('paper with the risk module disabled', () => {
  it('refuses a market order in the pre-market as the broker does, and takes a limit order', async () => {
    const { live, paper, broker } = await liveAndPaper('2026-11-23T08:30:00+09:00', KR_BUYS);
    expect(broker).toEqual(['order-type-not-allowed', 'accepted']);
    // as live: taken (OrderSubmitted), then rejected with the broker's code, stored REJECTED
    expect(live).toEqual([rejected('order-type-not-allowed'), 'accepted']);
    expect(paper).toEqual(live);
  }, 90_000);

  it('refuses any order outside order hours as the broker does', async () => {
    const { live, paper, broker } = await liveAndPaper('2026-11-23T03:00:00+09:00', KR_BUYS);
    expect(broker).toEqual(['order-hours-closed', 'order-hours-closed']);
    expect(live).toEqual([rejected('order-hours-closed'), rejected('order-hours-closed')]);
    expect(paper).toEqual(live);
  }, 90_000);

  it('refuses a US amount buy outside the regular session, as the broker does, and takes one inside', async () => {
    // 19:00 KST: the US pre-market; 01:00 KST: the US regular session
    const before = await outcomes('2026-11-23T19:00:00+09:00', [{ symbol: 'AAPL', amount: 100 }]);
    expect(before.broker).toEqual(['amount-order-outside-regular-hours']);
    expect(before.run).toEqual([rejected('amount-order-outside-regular-hours')]);
    const during = await outcomes('2026-11-24T01:00:00+09:00', [{ symbol: 'AAPL', amount: 100 }]);
    expect(during.run).toEqual(['accepted']);
    expect(during.broker).toEqual(['accepted']);
  }, 60_000);
});

/**
 * Paper refuses what live would: the same orders a paper run places are sent straight to the
 * simulator over HTTP, and each refusal of the broker (its code) is the refusal paper gave, while
 * no order request of the paper run reached the broker. The cases: a price off the tick grid, a
 * price above the daily upper limit, a sell of shares not held, an order while the market is
 * closed (a Sunday); an order the broker accepts is accepted by paper too.
 */
import { BrokerApiError, type BrokerClient } from '@hoga/connector';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import {
  Closers,
  openTempDb,
  type SimulatedBroker,
  startSimulatedBroker,
  startTestRun,
} from './live-run.test-helper.js';

interface Order {
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: number;
  readonly price: Decimal;
}

const closers = new Closers();
afterEach(() => closers.closeAll());

function simulatorAt(start: string): Promise<SimulatedBroker> {
  return startSimulatedBroker(closers, { start, speed: 1 });
}

/** Places `orders` in a paper run (in `onStart`); answers each order's outcome: its code, or `accepted`. */
async function paperOutcomes(s: SimulatedBroker, orders: readonly Order[]): Promise<string[]> {
  const db = openTempDb(closers, 'hoga-paper-rules-', s.clock);
  const ids: string[] = [];
  class PlaceOrders extends Strategy {
    override onStart(): void {
      for (const o of orders) {
        ids.push(
          o.side === 'BUY'
            ? this.ctx.buy(o.symbol, o.quantity, o.price)
            : this.ctx.sell(o.symbol, o.quantity, o.price),
        );
      }
    }
  }
  const { handle, events } = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: 'paper-rules',
      mode: 'paper',
      symbols: [...new Set(orders.map((o) => o.symbol))],
      cashKrw: new Decimal(10_000_000),
      strategies: [{ strategyClass: PlaceOrders }],
    },
  );
  await handle.stop();
  return ids.map((id) => {
    for (const e of events) {
      if (e.clientOrderId !== id) continue;
      if (e.type === 'OrderAccepted') return 'accepted';
      if (e.type === 'OrderDenied' || e.type === 'OrderRejected') return e.code ?? 'no code';
    }
    return 'no outcome';
  });
}

/** The broker's answer to each order sent straight to it: its error code, or `accepted`. */
async function brokerOutcomes(client: BrokerClient, orders: readonly Order[]): Promise<string[]> {
  const out: string[] = [];
  for (const o of orders) {
    try {
      await client.createOrder({
        symbol: o.symbol,
        side: o.side,
        orderType: 'LIMIT',
        quantity: new Decimal(o.quantity),
        price: o.price,
      });
      out.push('accepted');
    } catch (error) {
      if (!(error instanceof BrokerApiError)) throw error;
      out.push(error.code);
    }
  }
  return out;
}

describe('paper mode and the broker rules', () => {
  it('refuses with the broker code what the broker refuses, and takes what it takes, with no order request at the broker', async () => {
    const s = await simulatorAt('2026-11-23T10:00:00+09:00');
    const limits = await s.client.getPriceLimits('005930');
    const upper = limits.upperLimitPrice ?? new Decimal(0);
    const lower = limits.lowerLimitPrice ?? new Decimal(0);
    const last = (await s.client.getPrices(['005930']))[0]?.lastPrice ?? new Decimal(0);
    const orders: Order[] = [
      // off the 100-won grid of prices from 50,000 to 200,000 (005930 trades around 65,000)
      { symbol: '005930', side: 'BUY', quantity: 1, price: last.div(100).floor().times(100).minus(50) },
      { symbol: '005930', side: 'BUY', quantity: 1, price: upper.plus(1_000) }, // above the upper limit
      { symbol: '035420', side: 'SELL', quantity: 5, price: new Decimal(200_000) }, // not held
      { symbol: '005930', side: 'BUY', quantity: 1, price: lower.div(100).ceil().times(100).plus(1_000) }, // rests
    ];
    const paper = await paperOutcomes(s, orders);
    expect(s.sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);
    const broker = await brokerOutcomes(s.client, orders);
    expect(broker.slice(0, 3).every((code) => code !== 'accepted')).toBe(true);
    expect(broker[3]).toBe('accepted');
    expect(paper).toEqual(broker);
  }, 60_000);

  it('refuses an order while the market is closed (a Sunday) with the broker code', async () => {
    const s = await simulatorAt('2026-11-22T12:00:00+09:00');
    const last = (await s.client.getPrices(['005930']))[0]?.lastPrice ?? new Decimal(0);
    const orders: Order[] = [
      { symbol: '005930', side: 'BUY', quantity: 1, price: last.div(100).floor().times(100) },
    ];
    const paper = await paperOutcomes(s, orders);
    expect(s.sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);
    const broker = await brokerOutcomes(s.client, orders);
    expect(broker).toEqual(['order-hours-closed']);
    expect(paper).toEqual(broker);
  }, 60_000);
});

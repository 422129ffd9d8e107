/**
 * A US limit order at the close (`timeInForce: 'CLS'`) in paper trades as the broker trades it: not
 * against the book during the session, but in the closing auction, at the day's closing price when
 * that price satisfies its limit (the rest canceled at the close). The same order sent straight to
 * the simulator over HTTP fills at the same price and time. Over the simulator on 127.0.0.1.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** 16:00 New York on Monday 2026-11-23: the regular close. */
const CLOSE = Date.parse('2026-11-23T16:00:00-05:00');

describe('a CLS order in paper', () => {
  it('waits for the close and fills at the closing price, as the broker fills it; a limit the close misses is canceled', async () => {
    // four minutes before the close, at ten times real speed: the run must start and send its orders
    // in the 24 real seconds before the close (two minutes gave 12 s, and the run's start took up to
    // 2 s of them with two cores busy: a machine five times slower would have sent them after it)
    const s = await startSimulatedBroker(closers, { start: '2026-11-23T15:56:00-05:00', speed: 10 });
    const [quote] = await s.client.getPrices(['AAPL']);
    const last = quote?.lastPrice ?? new Decimal(0);
    const generous = last.times(1.2).toDecimalPlaces(2);
    const stingy = last.times(0.8).toDecimalPlaces(2);
    // the same order at the broker itself
    const live = await s.client.createOrder({
      symbol: 'AAPL',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: new Decimal(2),
      price: generous,
      timeInForce: 'CLS',
    });

    const ids: string[] = [];
    class AtTheClose extends Strategy {
      override onStart(): void {
        for (const price of [generous, stingy]) {
          ids.push(this.ctx.submit({ symbol: 'AAPL', side: 'BUY', quantity: 2, price, timeInForce: 'CLS' }));
        }
      }
    }
    const db = openTempDb(closers, 'hoga-paper-cls-', s.clock);
    const { handle, events } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'paper-cls',
        mode: 'paper',
        symbols: ['AAPL'],
        cashKrw: new Decimal(0),
        cashUsd: new Decimal(10_000),
        strategies: [{ strategyClass: AtTheClose }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
    );
    closers.add(() => handle.stop());
    const ended = (id: string) => (e: OrderEvent) =>
      e.clientOrderId === id && (e.type === 'OrderFilled' || e.type === 'OrderCanceled');
    await until(() => ids.length === 2 && events.some(ended(ids[0] ?? '')), 90_000);
    const filled = events.find(ended(ids[0] ?? ''));
    expect(filled?.type).toBe('OrderFilled');
    // nothing traded against the book before the close
    expect(events.filter((e) => e.type === 'OrderFilled' && e.tsEvent < CLOSE)).toEqual([]);
    expect(filled?.tsEvent).toBe(CLOSE);
    await until(() => events.some(ended(ids[1] ?? '')), 10_000);
    const canceled = events.find(ended(ids[1] ?? ''));
    expect(canceled).toMatchObject({ type: 'OrderCanceled', reason: 'close' });

    // the closing price: the day's official close, and what the broker filled its own order at
    const daily = await s.client.getCandles('AAPL', { interval: '1d', count: 1 });
    const close = daily.candles[0]?.closePrice.toFixed();
    const broker = await s.client.getOrder(live.orderId);
    expect(broker.status).toBe('FILLED');
    expect(broker.execution.averageFilledPrice?.toFixed()).toBe(close);
    expect(filled?.type === 'OrderFilled' ? filled.fill.price.toFixed() : null).toBe(close);
    expect(filled?.type === 'OrderFilled' ? filled.fill.quantity.toFixed() : null).toBe('2');
  }, 150_000);
});

/**
 * An order worth 100,000,000 KRW or more in a paper run over the simulator: the broker's rule
 * (`confirm-high-value-required`) applies unless the strategy confirms it on the order
 * (`confirmHighValue: true`); before, a strategy had no way to confirm one, so every such order was
 * denied.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** On its first bar: 2,000 005930 (about 130,000,000 KRW) at the bar's close, unconfirmed, then the same confirmed. */
class BuysBig extends Strategy {
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    const price = Math.floor(bar.close / 100) * 100;
    this.ctx.submit({ symbol: '005930', side: 'BUY', quantity: 2_000, price });
    this.ctx.submit({ symbol: '005930', side: 'BUY', quantity: 2_000, price, confirmHighValue: true });
  }
}

describe('a high-value order', () => {
  it('is denied unless the strategy confirms it on the order, and taken when it does', async () => {
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-high-value-', s.clock);
    const { handle, events } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-high-value',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(500_000_000),
        strategies: [{ strategyClass: BuysBig }],
      },
      {
        streamIntervals: { candles1m: 300, orderbook: 200 },
        // the owner's guards let an order of this size through: the broker's rule is what is tested
        risk: {
          defaults: {
            maxOrderValueKrw: '300000000',
            maxPositionValuePerSymbolKrw: '300000000',
            maxTotalPositionValueKrw: '300000000',
          },
        },
      },
    );
    const firstOf = (type: OrderEvent['type']) => events.find((e) => e.type === type);
    try {
      await until(
        () => firstOf('OrderDenied') !== undefined && firstOf('OrderAccepted') !== undefined,
        60_000,
      );
    } finally {
      await handle.stop();
    }
    const submitted = events.filter((e) => e.type === 'OrderSubmitted');
    expect(submitted).toHaveLength(1);
    const denied = firstOf('OrderDenied');
    expect(denied).toMatchObject({ code: 'confirm-high-value-required' });
    expect(firstOf('OrderAccepted')?.clientOrderId).toBe(submitted[0]?.clientOrderId);
    expect(denied?.clientOrderId).not.toBe(submitted[0]?.clientOrderId);
  }, 90_000);
});

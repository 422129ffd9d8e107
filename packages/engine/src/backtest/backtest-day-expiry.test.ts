/**
 * A backtest ends a DAY order at the end of its trading day (KR 20:00 KST of its order date), as
 * paper and live do (the broker cancels it then): `OrderExpired` stamped at that time, before any
 * later timer or bar of any symbol. Before, the order expired only at the first bar of its own
 * symbol in the next session: a timer that evening, and the next morning's bars of other symbols,
 * saw it working (its cash still held), and its `OrderExpired` was stamped the next morning.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, MINUTE, minuteBars, T0 } from './backtest-fixture.test-helper.js';

/** 20:00 KST on T0's date: the end of the KR trading day. */
const DAY_END = Date.parse('2026-02-23T20:00:00+09:00');
const TUESDAY = T0 + 86_400_000;

describe('a backtest DAY order at the end of its trading day', () => {
  it('expires at 20:00 KST, before an evening timer and the next morning bars of other symbols', async () => {
    const seen: string[] = [];
    let expiredAt = 0;
    class RestsBelow extends Strategy {
      private placed = false;
      override onBar(bar: Bar): void {
        if (bar.ts >= TUESDAY) seen.push(`bar ${bar.symbol}: ${this.ctx.openOrders('000660').length} open`);
        if (this.placed || bar.symbol !== '000660') return;
        this.placed = true;
        this.ctx.buy('000660', 1, 90_000);
        this.ctx.setTimer('evening', { at: Date.parse('2026-02-23T21:00:00+09:00') });
      }
      override onTimer(): void {
        seen.push(`timer: ${this.ctx.openOrders('000660').length} open`);
      }
      override onOrderEvent(event: OrderEvent): void {
        if (event.type === 'OrderExpired') expiredAt = event.tsEvent;
      }
    }
    const bars = [
      ...minuteBars('005930', [70_000, 70_000, 70_000]),
      ...minuteBars('000660', [100_000, 100_000, 100_000]),
      // Tuesday: 005930 from 09:01, 000660 only from 09:05
      ...minuteBars('005930', [70_000, 70_000], TUESDAY),
      ...minuteBars('000660', [100_000], TUESDAY + 4 * MINUTE),
    ];
    const { outcome } = await backtestBars([{ strategyClass: RestsBelow }], bars);
    expect(outcome.status).toBe('completed');
    expect(expiredAt).toBe(DAY_END);
    expect(seen).toEqual(['timer: 0 open', 'bar 005930: 0 open', 'bar 005930: 0 open', 'bar 000660: 0 open']);
  });

  it('still matches the order against the bar that ends at 20:00', async () => {
    const types: string[] = [];
    class LastMinute extends Strategy {
      private placed = false;
      override onBar(bar: Bar): void {
        if (this.placed) return;
        this.placed = true;
        this.ctx.buy(bar.symbol, 1, 69_000);
      }
      override onOrderEvent(event: OrderEvent): void {
        types.push(event.type);
      }
    }
    // 19:59 and 20:00 (NXT after-market), the second trading through the limit
    const start = Date.parse('2026-02-23T19:59:00+09:00');
    const bars = [
      ...minuteBars('005930', [70_000, 68_000], start),
      ...minuteBars('005930', [70_000], TUESDAY),
    ];
    const { outcome } = await backtestBars([{ strategyClass: LastMinute }], bars, { start });
    expect(outcome.status).toBe('completed');
    expect(types).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
  });

  // Before: a run whose last bar ended at 20:00 (a KR minute run to the day's end) left the DAY
  // order working at its end: `onStop` saw it open, and the run warned it was "still working".
  it('expires at the end of a run whose last bar closes at 20:00, before onStop', async () => {
    const types: string[] = [];
    let openAtStop = -1;
    let expiredAt = 0;
    class RestsBelow extends Strategy {
      private placed = false;
      override onBar(bar: Bar): void {
        if (this.placed) return;
        this.placed = true;
        this.ctx.buy(bar.symbol, 1, 60_000);
      }
      override onOrderEvent(event: OrderEvent): void {
        types.push(event.type);
        if (event.type === 'OrderExpired') expiredAt = event.tsEvent;
      }
      override onStop(): void {
        openAtStop = this.ctx.openOrders('005930').length;
      }
    }
    // the bars closing at 19:59 and 20:00, the run's last
    const start = Date.parse('2026-02-23T19:59:00+09:00');
    const bars = minuteBars('005930', [70_000, 70_000], start);
    const { outcome } = await backtestBars([{ strategyClass: RestsBelow }], bars, { start });
    expect(outcome.status).toBe('completed');
    expect(types).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderExpired']);
    expect(expiredAt).toBe(DAY_END);
    expect(openAtStop).toBe(0);
  });
});

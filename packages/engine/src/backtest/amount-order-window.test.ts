/**
 * `ctx.amountOrderAllowed` in a minute backtest: a strategy that asks it before each `buyAmount`
 * and fractional sell has none refused over a whole US day (pre-market to after-market), and
 * trades through the broker's window (the regular open to an hour before the close). Asking
 * `ctx.marketOrderAllowed` instead, as a strategy had to before, sent an amount order on each bar
 * of the session's last hour, each refused `amount-order-outside-regular-hours`.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, MINUTE, minuteBars } from './backtest-fixture.test-helper.js';

/** Monday 2026-12-07, New York: the first minute bar closes at 04:01 (the pre-market), the last at 20:00. */
const FIRST_BAR = Date.parse('2026-12-07T04:01:00-05:00');
const BARS = 16 * 60;
/** 2026-12-07 12:00 New York: buys before it, fractional sells from it. */
const NOON = Date.parse('2026-12-07T12:00:00-05:00');

/** New York `HH:MM` of an instant (2026-12-07 is in standard time, UTC−5). */
const ny = (ms: number): string => new Date(ms - 5 * 3_600_000).toISOString().slice(11, 16);

/** AAPL's minute bars of the day, its price moving between 200 and 201. */
function aaplDay(): Bar[] {
  const closes = Array.from({ length: BARS }, (_, i) => 200 + (i % 5) * 0.25);
  return minuteBars('AAPL', closes, FIRST_BAR, 100_000);
}

/** What each run's strategy placed (`HH:MM buy|sell`) and heard refused (`HH:MM code`). */
const placed: string[] = [];
const refused: string[] = [];

/**
 * Before noon, buys $100 of AAPL on each bar; from noon, sells a quarter share on each bar while it
 * holds one: each only when `allowed` says the broker takes such an order now.
 */
function dollarAverager(allowed: (ctx: Strategy['ctx'], symbol: string) => boolean) {
  return class DollarAverager extends Strategy {
    override onBar(bar: Bar): void {
      if (!allowed(this.ctx, bar.symbol)) return;
      if (bar.closeTime < NOON) {
        this.ctx.buyAmount(bar.symbol, 100);
        placed.push(`${ny(bar.closeTime)} buy`);
      } else if ((this.ctx.position(bar.symbol)?.quantity.toNumber() ?? 0) >= 1) {
        this.ctx.sell(bar.symbol, 0.25);
        placed.push(`${ny(bar.closeTime)} sell`);
      }
    }
    override onOrderEvent(event: OrderEvent): void {
      if (event.type === 'OrderDenied' || event.type === 'OrderRejected') {
        refused.push(`${ny(this.ctx.now())} ${event.code}`);
      }
    }
  };
}

async function runDay(allowed: (ctx: Strategy['ctx'], symbol: string) => boolean) {
  placed.length = 0;
  refused.length = 0;
  const { outcome } = await backtestBars([{ strategyClass: dollarAverager(allowed) }], aaplDay(), {
    start: FIRST_BAR,
  });
  expect(outcome.status).toBe('completed');
  return outcome;
}

describe('ctx.amountOrderAllowed in a minute backtest', () => {
  it('a strategy asking it before each amount buy and fractional sell has none refused over a whole US day', async () => {
    const outcome = await runDay((ctx, symbol) => ctx.amountOrderAllowed(symbol));
    expect(outcome.refused).toEqual({});
    expect(refused).toEqual([]);
    // the window: the bar closing at the regular open (09:30) to the one closing at 14:59
    const buys = placed.filter((p) => p.endsWith('buy'));
    const sells = placed.filter((p) => p.endsWith('sell'));
    expect(buys[0]).toBe('09:30 buy');
    expect(buys.at(-1)).toBe('11:59 buy');
    expect(buys).toHaveLength((NOON - Date.parse('2026-12-07T09:30:00-05:00')) / MINUTE);
    expect(sells[0]).toBe('12:00 sell');
    expect(sells.at(-1)).toBe('14:59 sell');
    expect(sells).toHaveLength(180);
    // every order placed filled: $100 at ~$200 is about half a share, and the sells take a quarter each
    expect(outcome.trades).toHaveLength(placed.length);
    expect(
      outcome.trades.filter((t) => t.side === 'SELL').every((t) => t.quantity.toFixed() === '0.25'),
    ).toBe(true);
  });

  it('asking marketOrderAllowed instead sends one on each bar of the last regular hour, each refused', async () => {
    const outcome = await runDay((ctx, symbol) => ctx.marketOrderAllowed(symbol));
    expect(outcome.refused).toEqual({ 'amount-order-outside-regular-hours': 60 });
    expect(refused[0]).toBe('15:00 amount-order-outside-regular-hours');
    expect(refused.at(-1)).toBe('15:59 amount-order-outside-regular-hours');
  });
});

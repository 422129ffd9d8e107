/**
 * A backtest denies, before its venue and with the broker's codes and messages, the orders paper
 * and live deny by the broker's rules of price and funds: a KR limit off the tick grid
 * (`invalid-request`), a KR limit outside the day's price limits, ±30 % of the previous day's
 * close (`price-out-of-range`), a buy whose reservation (a KR market buy at the upper limit, with
 * its commission) is over the buying power, and a sell of more than is sellable
 * (`insufficient-buying-power`). Before, the first three reached the venue (the grid refused as
 * `OrderRejected`, the others taken: a limit at 1 KRW worked until it expired, a market buy of
 * 98,000,000 KRW with 100,000,000 KRW of cash filled).
 */
import type { Bar, ClientOrderId, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, dailyKrBar, minuteBars } from './backtest-fixture.test-helper.js';

/** Each order's outcome, in order: `type code` (a denial, a rejection) or `accepted`. */
const outcomes: string[] = [];
const reasons: string[] = [];
/** The account's KRW cash as each order was accepted (net of what its working buys hold back). */
const cashWhileWorking: string[] = [];

/** Places `plan`'s orders on the first bar of the day it names (`YYYY-MM-DD` in KST). */
function placing(day: string, plan: (ctx: Strategy['ctx'], bar: Bar) => void) {
  return class Placing extends Strategy {
    private done = false;
    override onBar(bar: Bar): void {
      const date = new Date(bar.closeTime + 9 * 3_600_000).toISOString().slice(0, 10);
      if (this.done || date !== day) return;
      this.done = true;
      plan(this.ctx, bar);
    }
    override onOrderEvent(event: OrderEvent): void {
      if (event.type === 'OrderDenied' || event.type === 'OrderRejected') {
        outcomes.push(`${event.type} ${event.code}`);
        reasons.push(event.reason);
      }
      if (event.type === 'OrderAccepted') outcomes.push('accepted');
      if (event.type === 'OrderAccepted') cashWhileWorking.push(this.ctx.account.cash('KRW').toFixed());
    }
  };
}

/** The owner's limits out of the way (the default's order value limit is below these orders). */
const OWNER_LIMITS_WIDE = {
  defaults: {
    maxOrderValueKrw: '100000000000000',
    maxPositionValuePerSymbolKrw: '100000000000000',
    maxTotalPositionValueKrw: '100000000000000',
  },
};

const dailyBar = (date: string, close: number): Bar => dailyKrBar(date, close, close);

describe('a backtest judges the broker’s price and funds rules before its venue', () => {
  it('judges a modify’s new price by the day’s limits and its new reservation by the buying power, the old one given back', async () => {
    outcomes.length = 0;
    reasons.length = 0;
    const changes: string[] = [];
    const monday = minuteBars('005930', [70_000, 70_000], Date.parse('2026-03-02T15:19:00+09:00'));
    const tuesday = minuteBars('005930', [70_000, 70_100, 70_200], Date.parse('2026-03-03T09:01:00+09:00'));
    class Modifying extends placing('2026-03-03', () => undefined) {
      private id: ClientOrderId | undefined;
      override onBar(bar: Bar): void {
        if (this.id === undefined && bar.closeTime === tuesday[0]?.closeTime) {
          // 1,200 at 60,000: 72,010,800 KRW held of 100,000,000
          this.id = this.ctx.buy(bar.symbol, 1_200, 60_000);
          this.ctx.modify(this.id, { price: 91_100 }); // above the upper limit (91,000)
          this.ctx.modify(this.id, { price: 84_000 }); // 100,815,120 KRW: over the buying power
          this.ctx.modify(this.id, { price: 65_000 }); // 78,011,700 KRW: taken
        }
      }
      override onOrderEvent(event: OrderEvent): void {
        super.onOrderEvent(event);
        if (event.type === 'OrderModifyRejected')
          changes.push(`${event.code} sent ${event.sent}: ${event.reason}`);
        if (event.type === 'OrderModified') changes.push(`modified ${event.price?.toFixed()}`);
      }
    }
    await backtestBars([{ strategyClass: Modifying }], [...monday, ...tuesday], {
      start: monday[0]?.ts as number,
      risk: OWNER_LIMITS_WIDE,
    });
    expect(changes).toEqual([
      'price-out-of-range sent false: price 91100 is outside the daily limits, 49000 to 91000',
      'insufficient-buying-power sent false: The order needs 100815120 KRW with its commission, more than the cash buying power of 100000000 KRW',
      'modified 65000',
    ]);
  });

  it('denies a KR limit off the grid or outside the day’s limits, as paper and live do (minute bars)', async () => {
    outcomes.length = 0;
    reasons.length = 0;
    // Monday closes at 70,000: Tuesday's limits are 49,000 to 91,000
    const monday = minuteBars('005930', [70_000, 70_000], Date.parse('2026-03-02T15:19:00+09:00'));
    const tuesday = minuteBars('005930', [70_000, 70_100, 70_200], Date.parse('2026-03-03T09:01:00+09:00'));
    const Placing = placing('2026-03-03', (ctx, bar) => {
      ctx.buy(bar.symbol, 1, 70_050); // off the 100-won grid
      ctx.buy(bar.symbol, 1, 48_900); // below the lower limit
      ctx.buy(bar.symbol, 1, 91_100); // above the upper limit
      ctx.buy(bar.symbol, 1, 91_000); // at the upper limit: taken
    });
    const { outcome } = await backtestBars([{ strategyClass: Placing }], [...monday, ...tuesday], {
      start: monday[0]?.ts as number,
    });
    expect(outcome.status).toBe('completed');
    expect(outcomes).toEqual([
      'OrderDenied invalid-request',
      'OrderDenied price-out-of-range',
      'OrderDenied price-out-of-range',
      'accepted',
    ]);
    expect(reasons.slice(0, 3)).toEqual([
      'price 70050 is off the tick grid (tick 100 at this price): the nearest prices are 70000 and 70100',
      'price 48900 is outside the daily limits, 49000 to 91000',
      'price 91100 is outside the daily limits, 49000 to 91000',
    ]);
  });

  it('denies a buy its buying power cannot reserve and a sell of shares not held (daily bars)', async () => {
    outcomes.length = 0;
    reasons.length = 0;
    cashWhileWorking.length = 0;
    const bars = ['2026-03-02', '2026-03-03', '2026-03-04'].map((d) => dailyBar(d, 70_000));
    const Placing = placing('2026-03-03', (ctx, bar) => {
      // 1,400 at the last close is 98,000,000 KRW, but a KR market buy reserves at the upper limit
      // (91,000: 127,400,000 KRW with its commission) and the account holds 100,000,000 KRW
      ctx.buy(bar.symbol, 1_400);
      ctx.sell(bar.symbol, 5); // none held
      ctx.buy(bar.symbol, 1, 1); // far below the next day's lower limit (49,000)
      ctx.buy(bar.symbol, 1_000); // 91,013,650 KRW reserved: taken
    });
    const { outcome } = await backtestBars([{ strategyClass: Placing }], bars, {
      start: bars[0]?.ts as number,
      interval: '1d',
      risk: OWNER_LIMITS_WIDE,
    });
    expect(outcome.status).toBe('completed');
    expect(outcomes).toEqual([
      'OrderDenied insufficient-buying-power',
      'OrderDenied insufficient-buying-power',
      'OrderDenied price-out-of-range',
      'accepted',
    ]);
    expect(reasons.slice(0, 2)).toEqual([
      'The order needs 127419110 KRW with its commission, more than the cash buying power of 100000000 KRW',
      'Only 0 005930 can be sold',
    ]);
    expect(outcome.trades.map((t) => `${t.side} ${t.quantity.toFixed()} @ ${t.price.toFixed()}`)).toEqual([
      'BUY 1000 @ 70000',
    ]);
    // once taken, the working market buy holds 70,010,500 KRW back (the last close, its commission),
    // as the risk module of paper and live counts an order it let through until the broker's next
    // read: a broker fills a market order in the regular session at once, and a second buy placed
    // right after it is judged on the cash the fill leaves, not on the upper limit's hold
    expect(cashWhileWorking).toEqual(['29989500']);
  });
});

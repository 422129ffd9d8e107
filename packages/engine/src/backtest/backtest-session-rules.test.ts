/**
 * A minute backtest refuses what the broker refuses by the session, with its codes: an order
 * outside order hours, a `MARKET` order outside the regular session, a US amount order in the
 * regular session's last hour. A daily backtest places its market orders for the next open (as
 * paper and live hand a day's bar over at the open), so they are not refused at the bar's close.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, dailyKrBar, minuteBars } from './backtest-fixture.test-helper.js';

/** What happened to each order: `time KST side type: outcome`. */
const outcomes: string[] = [];
const kst = (ms: number): string => new Date(ms + 9 * 3_600_000).toISOString().slice(11, 16);

/** Places the orders `plan` says on the bars closing at the times given (KST `HH:MM`). */
function placing(plan: Record<string, (ctx: Strategy['ctx'], bar: Bar) => void>) {
  return class Placing extends Strategy {
    override onBar(bar: Bar): void {
      plan[kst(bar.closeTime)]?.(this.ctx, bar);
    }
    override onOrderEvent(event: OrderEvent): void {
      const at = kst(this.ctx.now());
      if (event.type === 'OrderDenied') outcomes.push(`${at} denied ${event.code}`);
      if (event.type === 'OrderAccepted') outcomes.push(`${at} accepted`);
      if (event.type === 'OrderFilled') outcomes.push(`${at} filled`);
    }
  };
}

describe('a minute backtest judges the session rules', () => {
  it('takes a market order in the regular session only, and a limit order in the extended ones', async () => {
    outcomes.length = 0;
    // 005930 minute bars closing 08:58 … 09:02 and 15:28 … 15:32 KST
    const morning = minuteBars(
      '005930',
      [70_000, 70_000, 70_100, 70_100, 70_200],
      Date.parse('2026-03-03T08:58:00+09:00'),
    );
    const afternoon = minuteBars(
      '005930',
      [70_300, 70_300, 70_400, 70_400, 70_500],
      Date.parse('2026-03-03T15:28:00+09:00'),
    );
    const Placing = placing({
      '08:59': (ctx, bar) => ctx.buy(bar.symbol, 1), // pre-market: refused
      '09:00': (ctx, bar) => ctx.buy(bar.symbol, 1), // the regular session opens at 09:00
      '15:29': (ctx, bar) => ctx.buy(bar.symbol, 1),
      '15:30': (ctx, bar) => {
        ctx.buy(bar.symbol, 1); // after-market: refused
        ctx.buy(bar.symbol, 1, 70_400); // a limit order is taken
      },
    });
    const { outcome } = await backtestBars([{ strategyClass: Placing }], [...morning, ...afternoon], {
      start: Date.parse('2026-03-03T08:58:00+09:00'),
    });
    expect(outcome.status).toBe('completed');
    expect(outcome.refused).toEqual({ 'order-type-not-allowed': 2 });
    expect(outcomes).toEqual([
      '08:59 denied order-type-not-allowed',
      '09:00 accepted',
      '09:01 filled',
      '15:29 accepted',
      '15:30 filled',
      '15:30 denied order-type-not-allowed',
      '15:30 accepted',
      '15:31 filled',
    ]);
  });

  it('with the risk module disabled, takes a market order in the pre-market and rejects it, as the broker does live', async () => {
    const seen: string[] = [];
    class Early extends Strategy {
      override onBar(bar: Bar): void {
        if (kst(bar.closeTime) === '08:59' || kst(bar.closeTime) === '09:00') this.ctx.buy(bar.symbol, 1);
      }
      override onOrderEvent(event: OrderEvent): void {
        const code = 'code' in event ? ` ${event.code}` : '';
        seen.push(`${kst(this.ctx.now())} ${event.type}${code}`);
      }
    }
    const start = Date.parse('2026-03-03T08:58:00+09:00');
    const bars = minuteBars('005930', [70_000, 70_000, 70_100, 70_100], start);
    const { outcome } = await backtestBars([{ strategyClass: Early }], bars, {
      start,
      risk: { enabled: false },
    });
    expect(outcome.status).toBe('completed');
    expect(outcome.refused).toEqual({ 'order-type-not-allowed': 1 });
    // live's strategy hears the same of the broker's 422 (before: `OrderDenied`, only the code was live's)
    expect(seen).toEqual([
      '08:59 OrderSubmitted',
      '08:59 OrderRejected order-type-not-allowed',
      '09:00 OrderSubmitted',
      '09:00 OrderAccepted',
      '09:01 OrderFilled',
    ]);
  });

  it('follows the KRX late opening of the CSAT day (regular 10:00–16:30 KST), saying when it opens', async () => {
    outcomes.length = 0;
    const reasons: string[] = [];
    // 005930 minute bars closing 09:58 … 10:01 and 16:28 … 16:31 KST of Thursday 2026-11-19
    const morning = minuteBars(
      '005930',
      [70_000, 70_000, 70_100, 70_100],
      Date.parse('2026-11-19T09:58:00+09:00'),
    );
    const afternoon = minuteBars(
      '005930',
      [70_300, 70_300, 70_400, 70_400],
      Date.parse('2026-11-19T16:28:00+09:00'),
    );
    const Placing = placing({
      '09:59': (ctx, bar) => ctx.buy(bar.symbol, 1), // pre-market on that day: refused
      '10:00': (ctx, bar) => ctx.buy(bar.symbol, 1), // the regular session opens at 10:00
      '16:29': (ctx, bar) => ctx.buy(bar.symbol, 1), // still regular (closes 16:30)
    });
    class Noting extends Placing {
      override onOrderEvent(event: OrderEvent): void {
        super.onOrderEvent(event);
        if (event.type === 'OrderDenied') reasons.push(event.reason);
      }
    }
    const { outcome } = await backtestBars([{ strategyClass: Noting }], [...morning, ...afternoon], {
      start: Date.parse('2026-11-19T09:58:00+09:00'),
    });
    expect(outcome.status).toBe('completed');
    expect(outcomes).toEqual([
      '09:59 denied order-type-not-allowed',
      '10:00 accepted',
      '10:01 filled',
      '16:29 accepted',
      '16:30 filled',
    ]);
    expect(reasons).toEqual([
      'MARKET orders are accepted in the regular session only; the regular session opens at 2026-11-19 10:00 KST (Thu)',
    ]);
  });

  it('names the opening each refused market order waits for, from one bar to the next of a stretch outside the regular session and into the next stretch', async () => {
    // the opening is worked out once per stretch (it holds until that opening): market orders in
    // Tuesday's pre-market, its after-market, then Wednesday's pre-market, each told its own
    const reasons: string[] = [];
    const buyAt = (ctx: Strategy['ctx'], bar: Bar) => ctx.buy(bar.symbol, 1);
    const Placing = placing({ '08:58': buyAt, '08:59': buyAt, '15:31': buyAt, '15:32': buyAt });
    class Noting extends Placing {
      override onOrderEvent(event: OrderEvent): void {
        if (event.type === 'OrderDenied') reasons.push(`${kst(this.ctx.now())} ${event.reason}`);
      }
    }
    const bars = [
      ...minuteBars('005930', [70_000, 70_000, 70_100], Date.parse('2026-03-03T08:58:00+09:00')),
      ...minuteBars('005930', [70_300, 70_300, 70_400], Date.parse('2026-03-03T15:31:00+09:00')),
      ...minuteBars('005930', [70_500, 70_500], Date.parse('2026-03-04T08:58:00+09:00')),
    ];
    const { outcome } = await backtestBars([{ strategyClass: Noting }], bars, {
      start: Date.parse('2026-03-03T08:58:00+09:00'),
    });
    expect(outcome.status).toBe('completed');
    const tuesday = 'the regular session opens at 2026-03-03 09:00 KST (Tue)';
    const wednesday = 'the regular session opens at 2026-03-04 09:00 KST (Wed)';
    const refused = 'MARKET orders are accepted in the regular session only';
    expect(reasons).toEqual([
      `08:58 ${refused}; ${tuesday}`,
      `08:59 ${refused}; ${tuesday}`,
      `15:31 ${refused}; ${wednesday}`,
      `15:32 ${refused}; ${wednesday}`,
      `08:58 ${refused}; ${wednesday}`,
      `08:59 ${refused}; ${wednesday}`,
    ]);
  });

  it('refuses any order outside order hours (a limit order from a timer at 20:30 KST)', async () => {
    const reasons: string[] = [];
    class AtNight extends Strategy {
      override onStart(): void {
        this.ctx.setTimer('night', { at: Date.parse('2026-03-03T20:30:00+09:00') });
      }
      override onTimer(): void {
        this.ctx.buy('005930', 1, 70_000);
      }
      override onOrderEvent(event: OrderEvent): void {
        if (event.type === 'OrderDenied') reasons.push(`${event.code}: ${event.reason}`);
      }
    }
    const bars = minuteBars('005930', [70_000, 70_100], Date.parse('2026-03-03T19:59:00+09:00'));
    bars.push(...minuteBars('005930', [70_200], Date.parse('2026-03-04T08:01:00+09:00')));
    await backtestBars([{ strategyClass: AtNight }], bars, {
      start: Date.parse('2026-03-03T19:59:00+09:00'),
    });
    expect(reasons).toEqual([
      'order-hours-closed: KR orders are not accepted at 2026-03-03 20:30 KST (Tue); they are taken again from 2026-03-04 08:00 KST (Wed)',
    ]);
  });

  it.each([
    ['on', {}, []],
    // off, the venue judges them as the broker does live: asked for, then refused (sent)
    ['disabled', { enabled: false }, ['OrderModifyRequested', 'OrderCancelRequested']],
  ])(
    'refuses to modify or cancel a working order outside order hours (the risk module %s)',
    async (_name, risk, requested) => {
      const seen: string[] = [];
      let id = '';
      class ChangesAtNight extends Strategy {
        override onStart(): void {
          // 18:30 New York: the after-market ended at 18:00, the day market opens at 20:00
          this.ctx.setTimer('night', { at: Date.parse('2026-03-03T18:30:00-05:00') });
        }
        override onBar(bar: Bar): void {
          if (id === '') id = this.ctx.buy(bar.symbol, 1, 150);
        }
        override onTimer(): void {
          this.ctx.modify(id as never, { price: 151 });
          this.ctx.cancel(id as never);
        }
        override onOrderEvent(event: OrderEvent): void {
          const code = 'code' in event ? ` ${event.code}` : '';
          seen.push(`${event.type}${code}`);
        }
      }
      const start = Date.parse('2026-03-03T17:58:00-05:00');
      // then the day market's first bar: a timer fires before the bar it precedes
      const bars = [
        ...minuteBars('AAPL', [200, 200, 200], start),
        ...minuteBars('AAPL', [200], Date.parse('2026-03-03T20:01:00-05:00')),
      ];
      await backtestBars([{ strategyClass: ChangesAtNight }], bars, { start, risk });
      expect(seen).toEqual([
        'OrderSubmitted',
        'OrderAccepted',
        ...requested.slice(0, 1),
        'OrderModifyRejected order-hours-closed',
        ...requested.slice(1),
        'OrderCancelRejected order-hours-closed',
        // still working: a DAY order, it ends with its trading day (before the next one's first bar)
        'OrderExpired',
      ]);
    },
  );

  it('refuses a US amount order in the regular session’s last hour', async () => {
    outcomes.length = 0;
    // AAPL minute bars closing 14:59 … 15:01 New York (04:59 … 05:01 KST the next day)
    const Placing = placing({
      '04:59': (ctx, bar) => ctx.buyAmount(bar.symbol, 100),
      '05:00': (ctx, bar) => ctx.buyAmount(bar.symbol, 100),
    });
    const start = Date.parse('2026-03-03T14:59:00-05:00');
    await backtestBars([{ strategyClass: Placing }], minuteBars('AAPL', [200, 201, 202], start), { start });
    expect(outcomes).toEqual([
      '04:59 accepted',
      '05:00 filled',
      '05:00 denied amount-order-outside-regular-hours',
    ]);
  });

  it('ends the US regular session at 13:00 New York on an early close (the day after Thanksgiving)', async () => {
    outcomes.length = 0;
    // AAPL minute bars closing 12:59 … 13:01 New York (02:59 … 03:01 KST the next day)
    const Placing = placing({
      '02:59': (ctx, bar) => ctx.buy(bar.symbol, 1),
      '03:00': (ctx, bar) => ctx.buy(bar.symbol, 1), // the after-market: refused
      '03:01': (ctx, bar) => ctx.buy(bar.symbol, 1, 199), // a limit order is taken
    });
    const start = Date.parse('2026-11-27T12:59:00-05:00');
    await backtestBars([{ strategyClass: Placing }], minuteBars('AAPL', [200, 201, 202, 203], start), {
      start,
    });
    expect(outcomes).toEqual([
      '02:59 accepted',
      '03:00 filled',
      '03:00 denied order-type-not-allowed',
      '03:01 accepted',
    ]);
  });
});

describe('a daily backtest', () => {
  it('fills a market order placed on a day’s bar (closing 15:30) at the next day’s open', async () => {
    outcomes.length = 0;
    const day = (date: string, open: number, close: number): Bar =>
      dailyKrBar(date, open, close, { volume: 1_000_000 });
    const Placing = placing({
      '15:30': (ctx, bar) => (outcomes.length === 0 ? ctx.buy(bar.symbol, 1) : undefined),
    });
    const [first, second] = [day('2026-03-03', 70_000, 70_500), day('2026-03-04', 71_000, 71_500)];
    const { outcome } = await backtestBars([{ strategyClass: Placing }], [first, second], {
      start: first.ts,
      interval: '1d',
    });
    expect(outcomes).toEqual(['15:30 accepted', '15:30 filled']);
    expect(outcome.trades.map((t) => [t.time, t.price.toFixed()])).toEqual([[second.closeTime, '71000']]);
  });
});

import type { Bar, OrderEvent } from '@hoga/core';
import { Decimal, instrumentOf, SecurityType } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import {
  BuyFirstBar,
  backtestBars,
  MINUTE,
  minuteBars,
  T0,
  US_OPEN,
} from './backtest-fixture.test-helper.js';

describe('runBacktest', () => {
  it('fills a market order placed in onBar at the next bar open, never on the bar that produced it', async () => {
    const { outcome } = await backtestBars(
      [{ strategyClass: BuyFirstBar }],
      minuteBars('005930', [70000, 70100, 70200, 70300]),
    );
    expect(outcome.status).toBe('completed');
    expect(outcome.trades).toHaveLength(1);
    const [trade] = outcome.trades;
    expect(trade?.time).toBe(T0 + MINUTE);
    expect(trade?.price.toFixed()).toBe('70000');
    expect(trade?.quantity.toFixed()).toBe('10');
    // KR commission 0.015 % of 700,000, truncated to the won.
    expect(trade?.commission.toFixed()).toBe('105');
    expect(outcome.totals.KRW.cash.toFixed()).toBe(
      new Decimal(100_000_000).minus(700_000).minus(105).toFixed(),
    );
  });

  it('keeps KR fills inside the daily price limits of the previous close (a gap through +30 % fills at the upper limit)', async () => {
    class BuyThirdBar extends Strategy {
      n = 0;
      override onBar(bar: Bar): void {
        if (++this.n === 3) this.ctx.buy(bar.symbol, 10);
      }
    }
    const day = 86_400_000;
    const monday = minuteBars('005930', [10_000, 10_000, 10_000]);
    // Tuesday opens at 14,000: +40 % over Monday's close, past the +30 % limit (13,000)
    const tuesday = minuteBars('005930', [14_000, 14_100], T0 + day).map((b, i) =>
      i === 0 ? { ...b, open: 14_000, high: 14_000, low: 14_000 } : b,
    );
    const { outcome } = await backtestBars([{ strategyClass: BuyThirdBar }], [...monday, ...tuesday]);
    expect(outcome.status).toBe('completed');
    expect(outcome.trades.map((t) => [t.time, t.price.toFixed(), t.quantity.toFixed()])).toEqual([
      [T0 + day, '13000', '10'],
    ]);
  });

  it('fills a gap at the open when no previous close is known (no reference, no limit)', async () => {
    class BuyFirstBarOnly extends Strategy {
      n = 0;
      override onBar(bar: Bar): void {
        if (++this.n === 1) this.ctx.buy(bar.symbol, 10);
      }
    }
    const bars = minuteBars('005930', [10_000, 14_000]).map((b, i) =>
      i === 1 ? { ...b, open: 14_000, low: 14_000 } : b,
    );
    const { outcome } = await backtestBars([{ strategyClass: BuyFirstBarOnly }], bars);
    expect(outcome.trades.map((t) => t.price.toFixed())).toEqual(['14000']);
  });

  it('stops cleanly when a hook throws, naming the strategy and the hook; what was stored stays consistent', async () => {
    class Throws extends Strategy {
      n = 0;
      stopped = false;
      override onBar(bar: Bar): void {
        if (++this.n === 1) this.ctx.buy(bar.symbol, 1);
        if (this.n === 3) throw new Error('boom');
      }
      override onStop(): void {
        this.stopped = true;
      }
    }
    const { outcome, db } = await backtestBars(
      [{ strategyClass: Throws }],
      minuteBars('005930', [70000, 70100, 70200, 70300, 70400]),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.failure?.message).toBe('strategy Throws threw in onBar: boom');
    expect(outcome.failure?.hook).toBe('onBar');
    expect(outcome.bars).toBe(3);
    const journal = db.journal.readFrom(1);
    expect(journal.map((e) => e.type)).toEqual(['OrderSummary']);
    expect(journal[0]?.payload).toMatchObject({
      symbol: '005930',
      side: 'BUY',
      quantity: '1',
      last: 'OrderFilled',
      events: [
        ['OrderSubmitted', T0],
        ['OrderAccepted', T0],
        ['OrderFilled', T0 + MINUTE],
      ],
      fills: [[T0 + MINUTE, '1', '70000', '10', '0']],
    });
    expect(outcome.trades).toHaveLength(1);
  });

  it('keeps the clock and the last equity point at the bar that failed (they went back to the bar before)', async () => {
    const stops: number[] = [];
    class ThrowsOnFillBar extends Strategy {
      n = 0;
      override onBar(bar: Bar): void {
        if (++this.n === 1) this.ctx.buy(bar.symbol, 1);
        if (this.n === 2) throw new Error('boom');
      }
      override onStop(): void {
        stops.push(this.ctx.now());
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: ThrowsOnFillBar }],
      minuteBars('005930', [70000, 70100, 70200]),
    );
    expect(outcome.status).toBe('failed');
    // the order filled on the second bar, at its open (70,000), commission 10; marked at its close
    expect(outcome.trades.map((t) => t.time)).toEqual([T0 + MINUTE]);
    expect(stops).toEqual([T0 + MINUTE]);
    expect(outcome.equity.map((p) => [p.time, p.equity])).toEqual([
      [T0, 240_000_000],
      [T0 + MINUTE, 240_000_000 - 70_000 - 10 + 70_100],
    ]);
  });

  it('fills nothing after a timer hook failed, and ends the run at the timer', async () => {
    const stops: number[] = [];
    class ThrowsOnTimer extends Strategy {
      override onStart(): void {
        this.ctx.setTimer('t', { at: T0 + 30_000 });
      }
      override onBar(bar: Bar): void {
        if (this.ctx.openOrders(bar.symbol).length === 0 && this.ctx.position(bar.symbol) === undefined) {
          this.ctx.buy(bar.symbol, 1);
        }
      }
      override onTimer(): void {
        throw new Error('tick');
      }
      override onStop(): void {
        stops.push(this.ctx.now());
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: ThrowsOnTimer }],
      minuteBars('005930', [70000, 70100, 70200]),
    );
    expect(outcome.failure?.message).toBe('strategy ThrowsOnTimer threw in onTimer: tick');
    // the buy of the first bar would have filled on the second, after the failure
    expect(outcome.trades).toEqual([]);
    expect(stops).toEqual([T0 + 30_000]);
    expect(outcome.equity.map((p) => p.time)).toEqual([T0, T0 + 30_000]);
    // the second bar, the timer's, never reached the strategy: one bar (before: 2)
    expect(outcome.bars).toBe(1);
  });

  it("keeps a US DAY order working through its trading day's day market (20:00 New York the evening before) and regular session", async () => {
    const types: string[] = [];
    let open = -1;
    let expiredAt = 0;
    class RestsBelow extends Strategy {
      override onBar(bar: Bar): void {
        if (types.length === 0) this.ctx.buy(bar.symbol, 1, new Decimal(200));
      }
      override onOrderEvent(event: OrderEvent): void {
        types.push(event.type);
        if (event.type === 'OrderExpired') expiredAt = event.tsEvent;
      }
      override onStop(): void {
        open = this.ctx.openOrders('AAPL').length;
      }
    }
    // trading day 2026-11-20: day market from 20:00 New York on the 19th (01:00 UTC) to 10:00 (15:00 UTC)
    const start = Date.parse('2026-11-19T20:01:00-05:00');
    const closes = Array.from({ length: 14 * 60 }, (_, i) => 225 + (i % 7) / 100);
    // then the first bar of the next trading day (day market from 20:00 on the 20th)
    const next = Date.parse('2026-11-20T20:01:00-05:00');
    const bars = [...minuteBars('AAPL', closes, start), ...minuteBars('AAPL', [225], next)];
    const { outcome } = await backtestBars([{ strategyClass: RestsBelow }], bars, { start });
    expect(outcome.status).toBe('completed');
    expect(types).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderExpired']);
    // ended at the end of its trading day, 20:00 New York, as paper and live stamp it (handed over
    // before the next day's first bar; before: stamped at that bar, 20:01)
    expect(expiredAt).toBe(Date.parse('2026-11-20T20:00:00-05:00'));
    expect(expiredAt).toBe(next - 60_000);
    expect(open).toBe(0);
  });

  it("ends a US trading day's equity point at its last after-market bar in winter (18:00 New York is 23:00 UTC)", async () => {
    class Idle extends Strategy {}
    const start = Date.parse('2026-11-19T20:01:00-05:00');
    const last = Date.parse('2026-11-20T18:00:00-05:00');
    const next = Date.parse('2026-11-20T20:01:00-05:00');
    const bars = [
      ...minuteBars('AAPL', [225], start),
      ...minuteBars('AAPL', [226], Date.parse('2026-11-20T16:59:00-05:00')),
      ...minuteBars('AAPL', [227], last),
      ...minuteBars('AAPL', [228], next),
    ];
    const { outcome } = await backtestBars([{ strategyClass: Idle }], bars, { start });
    expect(outcome.equity.map((p) => p.time)).toEqual([start, last, next]);
  });

  it('calls onStop after a failure, and a failing onStart runs no bar', async () => {
    const calls: string[] = [];
    class FailsAtStart extends Strategy {
      override onStart(): void {
        throw new Error('no');
      }
      override onBar(): void {
        calls.push('bar');
      }
      override onStop(): void {
        calls.push('stop');
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: FailsAtStart }],
      minuteBars('005930', [1, 2, 3]),
    );
    expect(outcome.failure?.message).toBe('strategy FailsAtStart threw in onStart: no');
    expect(calls).toEqual(['stop']);
  });

  it('delivers order events after onBar returns (not inside it), then onFill after the portfolio has the fill', async () => {
    const log: string[] = [];
    class Traces extends Strategy {
      n = 0;
      override onBar(bar: Bar): void {
        log.push(`bar ${++this.n}`);
        if (this.n === 1) {
          this.ctx.buy(bar.symbol, 2);
          log.push('bought');
        }
      }
      override onOrderEvent(event: { type: string }): void {
        log.push(event.type);
      }
      override onFill(): void {
        log.push(`fill position=${this.ctx.position('005930')?.quantity.toFixed()}`);
      }
    }
    await backtestBars([{ strategyClass: Traces }], minuteBars('005930', [100, 101, 102]));
    expect(log).toEqual([
      'bar 1',
      'bought',
      'OrderSubmitted',
      'OrderAccepted',
      'OrderFilled',
      'fill position=2',
      'bar 2',
      'bar 3',
    ]);
  });

  // the owner's limits out of the way (140,000,000 KRW is over the 30,000,000 default), or the risk
  // module disabled: the broker's rules judge all the same (they are the broker's, not the owner's).
  // On, the risk module denies before the venue, as in paper and live (`OrderDenied`); off, the
  // venue takes the order and rejects it with the broker's code, as live's broker answers it
  // (`OrderSubmitted`, then `OrderRejected`; before, `OrderDenied`: only the code was live's)
  const LIMIT = '1000000000000';
  it.each([
    [
      'with the owner’s limits out of the way',
      {
        defaults: {
          maxOrderValueKrw: LIMIT,
          maxPositionValuePerSymbolKrw: LIMIT,
          maxTotalPositionValueKrw: LIMIT,
        },
      },
      'OrderDenied',
    ],
    ['with the risk module disabled', { enabled: false }, 'OrderSubmitted OrderRejected'],
  ])(
    'refuses what the broker refuses whatever the session (%s): an unconfirmed order of 100,000,000 KRW or more, a KR order against an open one of the other side',
    async (_name, risk, refused) => {
      const seen: string[] = [];
      const submitted = new Set<string>();
      class Large extends Strategy {
        n = 0;
        override onBar(bar: Bar): void {
          this.n++;
          if (this.n === 1) {
            this.ctx.buy(bar.symbol, 2_000); // 2,000 × 70,000 = 140,000,000 KRW at the last price
            this.ctx.submit({ symbol: bar.symbol, side: 'BUY', quantity: 2_000, confirmHighValue: true });
            this.ctx.submit({ symbol: bar.symbol, side: 'BUY', quantity: 50_000, confirmHighValue: true });
          }
          if (this.n === 3) {
            this.ctx.buy(bar.symbol, 10, 60_000); // rests below the market
            this.ctx.sell(bar.symbol, 10); // the broker refuses a KR sell while a buy is open
          }
        }
        override onOrderEvent(event: OrderEvent): void {
          if (event.type === 'OrderSubmitted') submitted.add(event.clientOrderId);
          if (event.type === 'OrderDenied' || event.type === 'OrderRejected') {
            const told = submitted.has(event.clientOrderId) ? 'OrderSubmitted ' : '';
            seen.push(`${told}${event.type} ${event.code}`);
          }
          if (event.type === 'OrderFilled') seen.push(`${event.type} ${event.fill.quantity.toFixed()}`);
        }
      }
      const { outcome } = await backtestBars(
        [{ strategyClass: Large }],
        minuteBars('005930', [70_000, 70_000, 70_100, 70_200], T0, 100_000_000),
        {
          cash: { KRW: new Decimal('1e12'), USD: new Decimal(0) },
          risk,
        },
      );
      expect(outcome.status).toBe('completed');
      expect(seen).toEqual([
        `${refused} confirm-high-value-required`,
        // 50,000 × 70,000 = 3,500,000,000 KRW: over the broker's maximum, confirmed or not
        `${refused} max-order-amount-exceeded`,
        'OrderFilled 2000',
        `${refused} opposite-pending-order-exists`,
      ]);
    },
  );

  it('delivers warm-up bars before the start with orders denied, and trades from the start on', async () => {
    const seen: string[] = [];
    class WarmsUp extends Strategy {
      static readonly warmupBars = 2;
      override onBar(bar: Bar): void {
        seen.push(`${bar.close}:${this.ctx.isWarmingUp}`);
        this.ctx.buy(bar.symbol, 1);
      }
      override onOrderEvent(event: { type: string; code?: string }): void {
        if (event.type === 'OrderDenied') seen.push(`denied ${event.code}`);
      }
    }
    const bars = minuteBars('005930', [10, 11, 12, 13]);
    const { outcome } = await backtestBars([{ strategyClass: WarmsUp }], bars, { start: T0 + 2 * MINUTE });
    expect(seen).toEqual(['10:true', 'denied warm-up', '11:true', 'denied warm-up', '12:false', '13:false']);
    // The order of the bar closing at 12 fills on the next bar (open 12); the last one never fills.
    expect(outcome.trades.map((t) => t.price.toFixed())).toEqual(['12']);
    expect(outcome.bars).toBe(2);
    expect(outcome.warmupBars).toBe(2);
  });

  it('fires timers in time order before the bar at or after their time', async () => {
    const seen: string[] = [];
    class Timed extends Strategy {
      override onStart(): void {
        this.ctx.setTimer('tick', { at: T0 + 30_000, every: MINUTE });
      }
      override onBar(bar: Bar): void {
        seen.push(`bar ${bar.closeTime - T0}`);
      }
      override onTimer(timer: { name: string; tsEvent: number }): void {
        seen.push(`${timer.name} ${timer.tsEvent - T0} at ${this.ctx.now() - T0}`);
      }
    }
    await backtestBars([{ strategyClass: Timed }], minuteBars('005930', [1, 2, 3]));
    expect(seen).toEqual(['bar 0', 'tick 30000 at 30000', 'bar 60000', 'tick 90000 at 90000', 'bar 120000']);
  });
});

describe('runBacktest (US orders, state, account)', () => {
  it("names the instrument's real security type in the order's intent (a KR ETF is not a stock)", async () => {
    const types: string[] = [];
    class WatchesIntents extends BuyFirstBar {
      override onOrderEvent(event: OrderEvent): void {
        if (event.type === 'OrderSubmitted') types.push(event.intent.instrument.securityType);
      }
    }
    const bars = minuteBars('069500', [24_545, 24_550, 24_560]);
    const etf = await backtestBars([{ strategyClass: WatchesIntents }], bars, {
      instruments: new Map([['069500', instrumentOf('069500', SecurityType.ETF)]]),
    });
    // unknown to the run: taken for a stock
    await backtestBars([{ strategyClass: WatchesIntents }], bars);
    expect(types).toEqual(['ETF', 'STOCK']);
    // the ETF's 5-won grid: the fill at the next open (24,545) is on it, no rounding to the stock grid
    expect(etf.outcome.trades.map((t) => t.price.toFixed())).toEqual(['24545']);
  });

  it('buys for a USD amount and sells the fractional position at market', async () => {
    const seen: string[] = [];
    class AmountTrader extends Strategy {
      n = 0;
      override onBar(bar: Bar): void {
        this.n++;
        if (this.n === 1) this.ctx.buyAmount(bar.symbol, 1000);
        if (this.n === 3) {
          const position = this.ctx.position(bar.symbol);
          seen.push(`held ${position?.quantity.toFixed()}`);
          if (position !== undefined) this.ctx.sell(bar.symbol, position.quantity);
        }
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: AmountTrader }],
      minuteBars('AAPL', [150, 160, 170, 180], US_OPEN),
    );
    // 1000 USD at the second bar's open (150): 6.666666 shares (6 decimals, rounded down).
    expect(seen).toEqual(['held 6.666666']);
    expect(outcome.trades.map((t) => [t.side, t.quantity.toFixed(), t.price.toFixed(), t.currency])).toEqual([
      ['BUY', '6.666666', '150', 'USD'],
      ['SELL', '6.666666', '170', 'USD'],
    ]);
  });

  it("keeps state per run and shows the account read-only beside the strategy's own position", async () => {
    const seen: unknown[] = [];
    class Stateful extends Strategy {
      override onStart(): void {
        seen.push(this.ctx.state.get('count') ?? 'empty');
      }
      override onBar(bar: Bar): void {
        this.ctx.state.set('count', (this.ctx.state.get<number>('count') ?? 0) + 1);
        if (this.ctx.state.get('count') === 1) this.ctx.buy(bar.symbol, 2);
      }
      override onStop(): void {
        seen.push(this.ctx.state.get('count'));
        seen.push(this.ctx.account.holdings().map((h) => `${h.symbol}:${h.quantity.toFixed()}`));
        seen.push(this.ctx.cash('KRW').toFixed(), this.ctx.mode, this.ctx.universe.symbols);
      }
    }
    const { db } = await backtestBars([{ strategyClass: Stateful }], minuteBars('005930', [100, 100, 100]), {
      cash: { KRW: new Decimal(1_000) },
    });
    expect(seen).toEqual(['empty', 3, ['005930:2'], '800', 'backtest', ['005930']]);
    expect(db.strategyState.get('backtest/test-run/Stateful', 'count')).toBe(3);
  });
});

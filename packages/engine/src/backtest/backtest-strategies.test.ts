/**
 * Several strategies in one backtest: each keeps its own positions and cash (its share of the
 * run's, counted once in the equity curve), and is told its own equity and unrealized PnL.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import {
  BuyFirstBar,
  backtestBars,
  dailyKrBar,
  minuteBars,
  US_OPEN,
} from './backtest-fixture.test-helper.js';

describe('runBacktest with several strategies', () => {
  it("keeps each strategy's positions its own when several run in one engine", async () => {
    class BuyTwo extends Strategy {
      done = false;
      override onBar(bar: Bar): void {
        if (!this.done) {
          this.done = true;
          this.ctx.buy(bar.symbol, 2);
        }
      }
    }
    const { outcome } = await backtestBars(
      [
        { strategyClass: BuyFirstBar, id: 'a' },
        { strategyClass: BuyTwo, id: 'b' },
      ],
      minuteBars('005930', [100, 101, 102]),
    );
    const bySide = outcome.trades.map((t) => `${t.strategyId}:${t.quantity.toFixed()}`);
    expect(bySide).toEqual(['a:10', 'b:2']);
  });

  it("shares the run's cash between its strategies: the equity curve starts at the account's cash, counted once", async () => {
    const bars = minuteBars('005930', [100, 101, 102]);
    const cash = { KRW: new Decimal(10_000_001), USD: new Decimal(0) };
    const one = await backtestBars([{ strategyClass: BuyFirstBar, id: 'a' }], bars, { cash });
    const two = await backtestBars(
      [
        { strategyClass: BuyFirstBar, id: 'a' },
        { strategyClass: BuyFirstBar, id: 'b' },
      ],
      bars,
      { cash },
    );
    expect(one.outcome.equity[0]?.equity).toBe(10_000_001);
    // two strategies of 5,000,000 won each: the odd won stays the account's, in no strategy's books,
    // and in the account's equity (before: 10,000,000, a won short of the account's cash)
    expect(two.outcome.equity[0]?.equity).toBe(10_000_001);
    expect(two.outcome.trades.map((t) => t.strategyId)).toEqual(['a', 'b']);
  });

  it("keeps each of several strategies within its own cash: a buy past a strategy's share is denied risk-strategy-cash", async () => {
    const refused: string[] = [];
    /** Buys its config's quantity of 005930 at market on each of the first two bars. */
    class Buys extends Strategy<{ quantity: number }> {
      n = 0;
      override onBar(bar: Bar): void {
        if (++this.n <= 2) this.ctx.buy(bar.symbol, this.config.quantity);
      }
      override onOrderEvent(e: OrderEvent): void {
        if (e.type === 'OrderDenied') refused.push(`${this.ctx.strategyId} ${e.code}: ${e.reason}`);
      }
    }
    const bars = minuteBars('005930', [70_000, 70_000, 70_000, 70_000]);
    const cash = { KRW: new Decimal(10_000_000), USD: new Decimal(0) };
    const { outcome } = await backtestBars(
      [
        // 100 × 70,000 is 7,000,000: more than its 5,000,000 share (the account has 10,000,000)
        { strategyClass: Buys, id: 'big', config: { quantity: 100 } },
        // 40 × 70,000 twice: the first fits its share, the second no longer
        { strategyClass: Buys, id: 'small', config: { quantity: 40 } },
      ],
      bars,
      { cash },
    );
    expect(outcome.status).toBe('completed');
    expect(outcome.trades.map((t) => `${t.strategyId} ${t.quantity.toFixed()}`)).toEqual(['small 40']);
    expect(refused).toEqual([
      "big risk-strategy-cash: the buy needs 7,001,050 KRW with its commission, more than the strategy's own cash of 5,000,000 KRW less 0 KRW held by its open buys",
      "big risk-strategy-cash: the buy needs 7,001,050 KRW with its commission, more than the strategy's own cash of 5,000,000 KRW less 0 KRW held by its open buys",
      // its first buy filled at the second bar's open: 5,000,000 - 2,800,000 - 420 commission
      "small risk-strategy-cash: the buy needs 2,800,420 KRW with its commission, more than the strategy's own cash of 2,199,580 KRW less 0 KRW held by its open buys",
    ]);
    expect(outcome.refused).toEqual({ 'risk-strategy-cash': 3 });
  });

  it('counts the commission the broker holds back on a buy: the whole share at market is denied, and a strategy never spends below zero', async () => {
    const refused: string[] = [];
    const cashSeen: string[] = [];
    /** Buys 71 of 005930 at market on its first bar: 4,970,000 KRW at 70,000, 745 commission on top. */
    class Whole extends Strategy {
      done = false;
      override onBar(bar: Bar): void {
        if (this.done) return;
        this.done = true;
        this.ctx.buy(bar.symbol, 71);
      }
      override onOrderEvent(e: OrderEvent): void {
        if (e.type === 'OrderDenied') refused.push(`${e.code}: ${e.reason}`);
      }
      override onStop(): void {
        cashSeen.push(this.ctx.cash('KRW').toFixed());
      }
    }
    class Idle extends Strategy {}
    const bars = minuteBars('005930', [70_000, 70_000, 70_000]);
    // 4,970,500 KRW each: 71 shares fit without the commission, not with it
    const cash = { KRW: new Decimal(9_941_000), USD: new Decimal(0) };
    const { outcome } = await backtestBars(
      [
        { strategyClass: Whole, id: 'whole' },
        { strategyClass: Idle, id: 'idle' },
      ],
      bars,
      { cash },
    );
    expect(outcome.status).toBe('completed');
    // before: the buy went through and filled; the strategy's cash ended at -245 (the idle one's share paid it)
    expect(outcome.trades).toEqual([]);
    expect(cashSeen).toEqual(['4970500']);
    expect(refused).toEqual([
      "risk-strategy-cash: the buy needs 4,970,746 KRW with its commission, more than the strategy's own cash of 4,970,500 KRW less 0 KRW held by its open buys",
    ]);
  });

  it('holds a market buy to its strategy’s cash at the price the broker holds it at (KR: the upper limit), so a gap up never takes the cash below zero', async () => {
    const refused: string[] = [];
    const cashSeen: string[] = [];
    /** Buys 70, then 54, of 005930 at market on its first bar (a daily bar closing at 70,000). */
    class Gap extends Strategy {
      done = false;
      override onBar(bar: Bar): void {
        cashSeen.push(this.ctx.cash('KRW').toFixed());
        if (this.done) return;
        this.done = true;
        this.ctx.buy(bar.symbol, 70);
        this.ctx.buy(bar.symbol, 54);
      }
      override onOrderEvent(e: OrderEvent): void {
        if (e.type === 'OrderDenied') refused.push(`${e.code}: ${e.reason}`);
      }
    }
    class Idle extends Strategy {}
    // the next day opens 20 % higher (its upper limit is 91,000: 70,000 + 30 %)
    const bars = [
      dailyKrBar('2026-03-02', 70_000, 70_000),
      dailyKrBar('2026-03-03', 84_000, 84_000),
      dailyKrBar('2026-03-04', 84_000, 84_000),
    ];
    // 4,970,500 KRW each: 70 shares fit at the last close (4,900,735 with the commission), not at
    // the upper limit the broker holds a KR market buy at (6,370,956); 54 do (4,914,738)
    const { outcome } = await backtestBars(
      [
        { strategyClass: Gap, id: 'gap' },
        { strategyClass: Idle, id: 'idle' },
      ],
      bars,
      {
        cash: { KRW: new Decimal(9_941_000), USD: new Decimal(0) },
        start: bars[0]?.ts as number,
        interval: '1d',
      },
    );
    expect(outcome.status).toBe('completed');
    // before: the 70 went through at the last close and filled at the next open, 84,000: the
    // strategy's cash went to -910,382 KRW, the idle strategy's share paying the difference
    expect(refused).toEqual([
      "risk-strategy-cash: the buy needs 6,370,956 KRW with its commission, more than the strategy's own cash of 4,970,500 KRW less 0 KRW held by its open buys",
    ]);
    expect(
      outcome.trades.map((t) => `${t.strategyId} ${t.quantity.toFixed()} @ ${t.price.toFixed()}`),
    ).toEqual(['gap 54 @ 84000']);
    // 4,970,500 - 54 × 84,000 - 680 commission (680.4, cut to the won)
    expect(cashSeen).toEqual(['4970500', '433820', '433820']);
  });

  it("tells each strategy its own equity and unrealized PnL at the last prices (USD through the run's rate)", async () => {
    const seen: string[] = [];
    /** Buys 10 of each symbol on its first bar; reads its equity and unrealized PnL on every bar. */
    class Reads extends Strategy {
      readonly bought = new Set<string>();
      override onBar(bar: Bar): void {
        seen.push(
          `${this.ctx.strategyId} ${bar.symbol} ${bar.close}: ${this.ctx.equity()} ${this.ctx.unrealizedPnl('KRW').toFixed()} ${this.ctx.unrealizedPnl('USD').toFixed()}`,
        );
        if (this.bought.has(bar.symbol)) return;
        this.bought.add(bar.symbol);
        this.ctx.buy(bar.symbol, 10);
      }
    }
    const bars = [
      ...minuteBars('005930', [70_000, 70_100, 70_300]),
      // in New York's regular session of the same date (23:31 KST): a market order is
      // accepted in the regular session only
      ...minuteBars('AAPL', [200, 201.5, 199.25], US_OPEN),
    ];
    const cash = { KRW: new Decimal(10_000_000), USD: new Decimal(10_000) };
    const { outcome } = await backtestBars([{ strategyClass: Reads, id: 'only' }], bars, { cash });
    expect(outcome.status).toBe('completed');
    // bought at the second bar's opens (the first closes): 10 × 70,000 + 105 won commission;
    // 10 × $200 + $2 commission (0.1 %); USD at 1,400 won
    const krwCash = 10_000_000 - 700_000 - 105;
    const usdCash = 10_000 - 2_000 - 2;
    expect(seen).toEqual([
      `only 005930 70000: ${10_000_000 + 10_000 * 1_400} 0 0`,
      `only 005930 70100: ${krwCash + 701_000 + 10_000 * 1_400} 1000 0`,
      `only 005930 70300: ${krwCash + 703_000 + 10_000 * 1_400} 3000 0`,
      `only AAPL 200: ${krwCash + 703_000 + 10_000 * 1_400} 3000 0`,
      `only AAPL 201.5: ${krwCash + 703_000 + (usdCash + 2_015) * 1_400} 3000 15`,
      `only AAPL 199.25: ${krwCash + 703_000 + (usdCash + 1_992.5) * 1_400} 3000 -7.5`,
    ]);
  });

  it("keeps a strategy from selling another's shares: its sell past its own position is denied risk-strategy-shares, fromAccount or not", async () => {
    const refused: string[] = [];
    /** Sells 2 005930 at market on its third bar (it buys nothing), then 2 more asking for the account's. */
    class SellsOthers extends Strategy {
      n = 0;
      override onBar(bar: Bar): void {
        if (++this.n !== 3) return;
        this.ctx.sell(bar.symbol, 2);
        this.ctx.submit({ symbol: bar.symbol, side: 'SELL', quantity: 2, fromAccount: true });
      }
      override onOrderEvent(e: OrderEvent): void {
        if (e.type === 'OrderDenied') refused.push(`${e.code}: ${e.reason}`);
      }
    }
    const bars = minuteBars('005930', [54_000, 54_000, 54_000, 54_000, 54_000]);
    const cash = { KRW: new Decimal(10_000_000), USD: new Decimal(0) };
    const { outcome } = await backtestBars(
      [
        { strategyClass: BuyFirstBar, id: 'buyer' },
        { strategyClass: SellsOthers, id: 'seller' },
      ],
      bars,
      { cash },
    );
    expect(outcome.status).toBe('completed');
    // before: the seller's sell filled from the buyer's shares; its cash rose by the proceeds with
    // no position, and the equity curve jumped by them (the buyer still counted its 10 shares)
    expect(outcome.trades.map((t) => `${t.strategyId} ${t.side} ${t.quantity.toFixed()}`)).toEqual([
      'buyer BUY 10',
    ]);
    expect(refused).toEqual([
      "risk-strategy-shares: the sell of 2 005930 is more than the strategy's own 0 less 0 held by its open sells (fromAccount: true sells the account's shares)",
      // the account holds 10, all the buyer's: none is the account's alone
      "risk-strategy-shares: the sell of 2 005930 is more than the strategy's own 0 less 0 held by its open sells and the account's 0 that no strategy of the run holds or sells",
    ]);
    const equity = outcome.equity.map((p) => p.equity);
    expect(Math.max(...equity)).toBe(equity[0]);
  });
});

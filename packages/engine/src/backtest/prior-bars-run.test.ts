/**
 * A backtest's prices before its first bars (`BacktestOptions.priorBars`): the run's symbols are
 * marked at their last daily close before `onStart`, and a KR one's first day has its price limits;
 * the symbols a strategy subscribes to in `onStart` get theirs once the stream opens, before the
 * first bar. Before, a symbol had no price until its first bar: two strategies' market buys in
 * `onStart` were denied `risk-strategy-cash`, and a first-day limit order far beyond the limits was
 * taken.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, dailyKrBar, minuteBars, T0 } from './backtest-fixture.test-helper.js';

/** The Friday before T0's Monday: each symbol's last daily bar before the run. */
const PRIOR: Record<string, Bar> = {
  '005930': dailyKrBar('2026-02-20', 69_000, 70_000),
  '000660': dailyKrBar('2026-02-20', 199_000, 200_000, { symbol: '000660' }),
};

class BuysAtStart extends Strategy {
  static equity: number[] = [];
  override onStart(): void {
    this.ctx.buy('005930', 10);
    BuysAtStart.equity.push(this.ctx.equity());
  }
}

/** Subscribes to 000660 in onStart; on its first 005930 bar, a limit buy of 000660 at 150 % of 200,000. */
class BuysSubscribed extends Strategy {
  static events: string[] = [];
  private placed = false;
  override onStart(): void {
    this.ctx.subscribeBars('000660');
  }
  override onBar(bar: Bar): void {
    if (bar.symbol !== '005930' || this.placed) return;
    this.placed = true;
    this.ctx.buy('000660', 1, 300_000);
  }
  override onOrderEvent(event: OrderEvent): void {
    BuysSubscribed.events.push(event.type === 'OrderDenied' ? `${event.type} ${event.code}` : event.type);
  }
}

/** Subscribes to 000660 in onStart and buys its config's quantity of it there, at market. */
class SubscribesAndBuys extends Strategy<{ quantity: number }> {
  static events: string[] = [];
  override onStart(): void {
    this.ctx.subscribeBars('000660');
    this.ctx.buy('000660', this.config.quantity);
  }
  override onOrderEvent(event: OrderEvent): void {
    SubscribesAndBuys.events.push(event.type === 'OrderDenied' ? `${event.type} ${event.code}` : event.type);
  }
}

const bars = [
  ...minuteBars('005930', [70_500, 70_600, 70_700]),
  ...minuteBars('000660', [201_000, 202_000, 203_000]),
];

describe('a backtest with the prices before its first bars', () => {
  it("asks for the run's symbols before onStart, then for those subscribed to there", async () => {
    const asked: string[][] = [];
    await backtestBars([{ strategyClass: BuysSubscribed, id: 's' }], bars, {
      start: T0,
      symbols: ['005930'],
      priorBars: (symbols) => {
        asked.push([...symbols]);
        return symbols.flatMap((s) => (PRIOR[s] === undefined ? [] : [PRIOR[s]]));
      },
    });
    expect(asked).toEqual([['005930'], ['000660']]);
  });

  it("fills two strategies' market buys placed in onStart, valued at the last close", async () => {
    BuysAtStart.equity = [];
    const run = (priorBars?: (symbols: readonly string[]) => readonly Bar[]) =>
      backtestBars(
        [
          { strategyClass: BuysAtStart, id: 'a' },
          { strategyClass: BuysAtStart, id: 'b' },
        ],
        bars,
        { start: T0, symbols: ['005930'], ...(priorBars === undefined ? {} : { priorBars }) },
      );
    const { outcome } = await run((symbols) => symbols.map((s) => PRIOR[s] as Bar));
    expect(outcome.refused).toEqual({});
    expect(outcome.trades.map((t) => [t.strategyId, t.quantity.toFixed()])).toEqual([
      ['a', '10'],
      ['b', '10'],
    ]);
    // without them: no price to hold the buys at against each strategy's own cash
    const { outcome: before } = await run();
    expect(before.refused).toEqual({ 'risk-strategy-cash': 2 });
    expect(before.trades).toEqual([]);
  });

  it("bounds a subscribed symbol's first day by its limits (30 % over its last close)", async () => {
    BuysSubscribed.events = [];
    await backtestBars([{ strategyClass: BuysSubscribed, id: 's' }], bars, {
      start: T0,
      symbols: ['005930'],
      priorBars: (symbols) => symbols.map((s) => PRIOR[s] as Bar),
    });
    expect(BuysSubscribed.events).toEqual(['OrderDenied price-out-of-range']);
    // without its last close, the first day had no limits: the buy was taken
    BuysSubscribed.events = [];
    await backtestBars([{ strategyClass: BuysSubscribed, id: 's' }], bars, {
      start: T0,
      symbols: ['005930'],
    });
    expect(BuysSubscribed.events.slice(0, 2)).toEqual(['OrderSubmitted', 'OrderAccepted']);
  });

  it.each([
    { quantity: 10, expected: ['OrderSubmitted', 'OrderAccepted', 'OrderFilled'] },
    // 100,000 × 200,000 KRW: far beyond the cash, and over the high-value threshold
    { quantity: 100_000, expected: ['OrderDenied confirm-high-value-required'] },
  ])(
    'judges a market buy of $quantity placed in onStart for a symbol subscribed to there at its last close',
    async ({ quantity, expected }) => {
      SubscribesAndBuys.events = [];
      const { outcome } = await backtestBars(
        [{ strategyClass: SubscribesAndBuys, id: 's', config: { quantity } }],
        bars,
        { start: T0, symbols: ['005930'], priorBars: (symbols) => symbols.map((s) => PRIOR[s] as Bar) },
      );
      expect(SubscribesAndBuys.events).toEqual(expected);
      expect(outcome.trades.map((t) => t.quantity.toFixed())).toEqual(quantity === 10 ? ['10'] : []);
    },
  );

  it('judges the orders after a waiting one in the order given, each by the bars subscribed to before it', async () => {
    const seen: string[] = [];
    class InOrder extends Strategy {
      override onStart(): void {
        this.ctx.subscribeBars('000660');
        this.ctx.buy('000660', 1); // waits for 000660's close
        this.ctx.buy('005930', 1); // a --symbols symbol: waits behind it
        this.ctx.buy('035420', 1); // no bars yet: denied, though subscribed to below
        this.ctx.subscribeBars('035420');
      }
      override onOrderEvent(event: OrderEvent): void {
        const symbol = this.ctx.order(event.clientOrderId)?.symbol ?? '?';
        seen.push(`${event.type === 'OrderDenied' ? `${event.type} ${event.code}` : event.type} ${symbol}`);
      }
    }
    await backtestBars(
      [{ strategyClass: InOrder, id: 's' }],
      [...bars, ...minuteBars('035420', [50_000, 50_100])],
      {
        start: T0,
        symbols: ['005930'],
        priorBars: (symbols) => symbols.flatMap((s) => (PRIOR[s] === undefined ? [] : [PRIOR[s]])),
      },
    );
    expect(seen.filter((e) => !e.startsWith('OrderAccepted') && !e.startsWith('OrderFilled'))).toEqual([
      'OrderSubmitted 000660',
      'OrderSubmitted 005930',
      'OrderDenied no-market-data 035420',
    ]);
  });
});

import type { Bar, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { FixedFxRates } from '../portfolio/fx-rates.js';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, minuteBars, T0, US_OPEN } from './backtest-fixture.test-helper.js';

/** Buys `quantity` at market on the first bar and notes what became of it. */
function buysAtMarket(symbol: string, quantity: number) {
  return class BuysAtMarket extends Strategy {
    readonly seen: string[] = [];
    n = 0;
    override onBar(bar: Bar): void {
      if (bar.symbol === symbol && ++this.n === 1) this.ctx.buy(symbol, quantity);
    }
    override onOrderEvent(event: OrderEvent): void {
      if (event.type === 'OrderDenied') this.seen.push(`${event.type} ${event.code}`);
      if (event.type === 'OrderFilled') this.seen.push(`${event.type} ${event.fill.quantity.toFixed()}`);
    }
  };
}

const RICH = { KRW: new Decimal('1e12'), USD: new Decimal('1e9') };

describe('the risk module in a backtest', () => {
  it('values a market order at the last close, as live values it at the last price: 1,000 × 60,000 KRW is over the 30,000,000 KRW default', async () => {
    const Cls = buysAtMarket('005930', 1_000);
    const { outcome } = await backtestBars(
      [{ strategyClass: Cls }],
      minuteBars('005930', [60_000, 60_100, 60_200]),
      {
        cash: RICH,
      },
    );
    expect(outcome.status).toBe('completed');
    expect(outcome.trades).toHaveLength(0);
    expect(outcome.refused).toEqual({ 'risk-max-order-value': 1 });
  });

  it('values a US market order at the last close through the run’s rate (200 × $200 × 1,400 = 56,000,000 KRW)', async () => {
    const Cls = buysAtMarket('AAPL', 200);
    const { outcome } = await backtestBars(
      [{ strategyClass: Cls }],
      minuteBars('AAPL', [200, 201, 202], US_OPEN),
      {
        start: US_OPEN,
        cash: RICH,
      },
    );
    expect(outcome.refused).toEqual({ 'risk-max-order-value': 1 });
  });

  it("keeps a market order's position within the per-symbol maximum, the position valued at the last close", async () => {
    // 400 × 60,000 = 24,000,000 per order (under 30,000,000); the third would hold 72,000,000 > 50,000,000
    class Accumulates extends Strategy {
      override onBar(bar: Bar): void {
        this.ctx.buy(bar.symbol, 400);
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: Accumulates }],
      minuteBars('005930', [60_000, 60_000, 60_000, 60_000]),
      { cash: RICH },
    );
    expect(outcome.trades.map((t) => t.quantity.toFixed())).toEqual(['400', '400']);
    expect(outcome.refused).toEqual({ 'risk-max-position-value-symbol': 2 });
  });

  it('applies the risk configuration given to the run: higher limits let the same order fill', async () => {
    const Cls = buysAtMarket('005930', 1_000);
    const { outcome } = await backtestBars(
      [{ strategyClass: Cls }],
      minuteBars('005930', [60_000, 60_100, 60_200]),
      {
        cash: RICH,
        risk: { defaults: { maxOrderValueKrw: '100000000', maxPositionValuePerSymbolKrw: '100000000' } },
      },
    );
    expect(outcome.refused).toEqual({});
    expect(outcome.trades.map((t) => [t.time, t.quantity.toFixed(), t.price.toFixed()])).toEqual([
      [T0 + 60_000, '1000', '60000'],
    ]);
  });

  it('counts a US loss against the daily limit at the run’s rate, not at a fixed 1,400', async () => {
    // buys 10 AAPL at $200, sells them at $120, buys again: a loss of $800 and charges, 0.9M KRW at
    // 1,100 (under the 1,000,000 KRW default), 1.1M KRW at 1,400 (over: as the price fell to 120 the
    // unrealised loss halted the strategy, and its sell and second buy were denied, as live would)
    class BuySellBuy extends Strategy {
      n = 0;
      override onBar(): void {
        this.n += 1;
        if (this.n === 1 || this.n === 5) this.ctx.buy('AAPL', 10);
        if (this.n === 3) this.ctx.sell('AAPL', 10);
      }
    }
    const bars = minuteBars('AAPL', [200, 200, 120, 120, 120, 120, 120], US_OPEN);
    const at = async (rate: number) =>
      (
        await backtestBars([{ strategyClass: BuySellBuy }], bars, {
          start: US_OPEN,
          fx: new FixedFxRates(rate),
        })
      ).outcome;
    const run = await at(1_100);
    expect(run.trades.map((t) => `${t.side} ${t.price.toFixed()}`)).toEqual([
      'BUY 200',
      'SELL 120',
      'BUY 120',
    ]);
    expect(run.refused).toEqual({});
    // the same run at 1,400 is past the limit: the kill switch denies the sell and the second buy
    const over = await at(1_400);
    expect(over.refused).toEqual({ 'risk-daily-loss-strategy': 2 });
    expect(over.trades.map((t) => `${t.side} ${t.price.toFixed()}`)).toEqual(['BUY 200']);
  });

  it('denies what the configuration does not allow (a symbol outside allowedSymbols)', async () => {
    const Cls = buysAtMarket('005930', 1);
    const { outcome } = await backtestBars([{ strategyClass: Cls }], minuteBars('005930', [60_000, 60_100]), {
      risk: { defaults: { allowedSymbols: ['000660'] } },
    });
    expect(outcome.refused).toEqual({ 'risk-symbol-not-allowed': 1 });
  });
});

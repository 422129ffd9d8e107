/**
 * A strategy's realized PnL, commissions and taxes per currency, read through its context in a
 * backtest over the real engine. Before, a strategy could read its unrealized PnL per currency but
 * not what it realized nor what it paid: a position's `realizedPnl` went with the position once
 * flat, so after a round trip nothing of it was left to read.
 */
import { type Bar, Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

const seen: string[] = [];

/** Buys 10 on its first bar, sells them on its third, reads its figures on its fourth. */
class RoundTrip extends Strategy {
  private n = 0;
  override onBar(bar: Bar): void {
    this.n++;
    if (this.n === 1) this.ctx.buy(bar.symbol, 10);
    if (this.n === 3) this.ctx.sell(bar.symbol, 10);
    if (this.n === 4) {
      const c = this.ctx;
      seen.push(
        `position ${String(c.position(bar.symbol))}`,
        `KRW realized ${c.realizedPnl('KRW').toFixed()} commissions ${c.commissions('KRW').toFixed()} taxes ${c.taxes('KRW').toFixed()}`,
        `USD realized ${c.realizedPnl('USD').toFixed()} commissions ${c.commissions('USD').toFixed()} taxes ${c.taxes('USD').toFixed()}`,
        `cash ${c.cash('KRW').toFixed()}`,
      );
    }
  }
}

describe("a strategy's realized PnL, commissions and taxes", () => {
  it('are read per currency after the position is flat: realized before charges, the charges apart', async () => {
    seen.length = 0;
    const bars = minuteBars('005930', [70_000, 70_100, 70_200, 70_300, 70_400]);
    const { outcome } = await backtestBars([{ strategyClass: RoundTrip }], bars, {
      cash: { KRW: new Decimal(10_000_000), USD: new Decimal(0) },
    });
    expect(
      outcome.trades.map((t) => `${t.side} ${t.quantity} @ ${t.price} ${t.commission} ${t.tax}`),
    ).toEqual([
      'BUY 10 @ 70000 105 0', // 700,000 × 0.015 % = 105
      'SELL 10 @ 70200 105 1053', // 702,000 × 0.015 % = 105.3 → 105; × 0.15 % = 1,053
    ]);
    expect(seen).toEqual([
      'position undefined',
      'KRW realized 2000 commissions 210 taxes 1053', // 702,000 − 700,000
      'USD realized 0 commissions 0 taxes 0',
      'cash 10000737', // 10,000,000 + 2,000 − 210 − 1,053
    ]);
  });

  it('name a currency that is not one in a clear error', async () => {
    seen.length = 0;
    class Asks extends Strategy {
      override onStart(): void {
        for (const call of [
          () => this.ctx.realizedPnl('EUR' as 'KRW'),
          () => this.ctx.taxes('eur' as 'KRW'),
        ]) {
          try {
            call();
          } catch (error) {
            seen.push((error as Error).message);
          }
        }
        seen.push(this.ctx.commissions('krw' as 'KRW').toFixed());
      }
    }
    await backtestBars([{ strategyClass: Asks }], minuteBars('005930', [70_000]));
    expect(seen).toEqual([
      expect.stringMatching(/realizedPnl.*EUR/),
      expect.stringMatching(/taxes.*eur/),
      '0',
    ]);
  });
});

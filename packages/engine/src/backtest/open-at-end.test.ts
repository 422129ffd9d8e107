/**
 * Orders still working when a backtest ends are said once: an order placed on the last bar or in
 * `onStop` (a strategy liquidating as it stops) has no later bar to fill it. Before, the run ended
 * without a word and its report read as if the liquidation had happened.
 */
import type { Bar } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, minuteBars, recordingLogger } from './backtest-fixture.test-helper.js';

/** Buys 10 on its first bar; sells what it holds at market in onStop. */
class SellsOnStop extends Strategy {
  override onBar(bar: Bar): void {
    if (this.ctx.position(bar.symbol) === undefined && this.ctx.openOrders(bar.symbol).length === 0)
      this.ctx.buy(bar.symbol, 10);
  }
  override onStop(): void {
    for (const p of this.ctx.positions()) this.ctx.sell(p.symbol, p.quantity);
  }
}

/** Buys 10 on its first bar and stops quietly. */
class Holds extends Strategy {
  override onBar(bar: Bar): void {
    if (this.ctx.position(bar.symbol) === undefined && this.ctx.openOrders(bar.symbol).length === 0)
      this.ctx.buy(bar.symbol, 10);
  }
}

const BARS = minuteBars('005930', [70_000, 70_100, 70_200, 70_300]);

function openSaid(records: readonly Record<string, unknown>[]): string[] {
  return records.map((r) => String(r.msg)).filter((m) => m.includes('still working'));
}

describe('orders working at the end of a backtest', () => {
  it('are said once with their count, and stay open in the journal', async () => {
    const { logger, records } = recordingLogger('info');
    const { outcome, db } = await backtestBars([{ strategyClass: SellsOnStop, id: 'liq' }], BARS, { logger });
    expect(outcome.status).toBe('completed');
    expect(outcome.trades.map((t) => t.side)).toEqual(['BUY']);
    expect(openSaid(records)).toEqual([
      '1 order still working when the backtest ended (an order placed on the last bar or in onStop has no later ' +
        'bar to fill it): SELL 10 005930 MARKET (strategy liq)',
    ]);
    db.close();
  });

  it('say nothing when every order ended', async () => {
    const { logger, records } = recordingLogger('info');
    const { outcome, db } = await backtestBars([{ strategyClass: Holds, id: 'holds' }], BARS, { logger });
    expect(outcome.trades).toHaveLength(1);
    expect(openSaid(records)).toEqual([]);
    db.close();
  });
});

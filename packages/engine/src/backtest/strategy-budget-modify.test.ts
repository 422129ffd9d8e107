import type { Bar, ClientOrderId, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, minuteBars } from './backtest-fixture.test-helper.js';

describe('several strategies in one backtest', () => {
  it("denies a modify that raises a buy past its strategy's own cash, as it denies such a buy (risk-strategy-cash)", async () => {
    const seen: string[] = [];
    /** Rests a limit buy of 60 under the market, then raises its price to 90,000, then lowers it to 60,000. */
    class Raises extends Strategy {
      n = 0;
      id: ClientOrderId | null = null;
      override onBar(bar: Bar): void {
        this.n++;
        if (this.n === 1) this.id = this.ctx.buy(bar.symbol, 60, 50_000);
        // 60 × 90,000 = 5,400,000: more than its 5,000,000 share (the account's 10,000,000 would cover it)
        if (this.n === 2 && this.id !== null) this.ctx.modify(this.id, { price: 90_000 });
        // 60 × 60,000 = 3,600,000: within its share
        if (this.n === 3 && this.id !== null) this.ctx.modify(this.id, { price: 60_000 });
      }
      override onOrderEvent(e: OrderEvent): void {
        if (e.type === 'OrderModifyRejected') seen.push(`${e.type} ${e.code}: ${e.reason}`);
        if (e.type === 'OrderModified') seen.push(e.type);
      }
    }
    class Idle extends Strategy {}
    const { outcome } = await backtestBars(
      [
        { strategyClass: Raises, id: 'raises' },
        { strategyClass: Idle, id: 'idle' },
      ],
      minuteBars('005930', [70_000, 70_000, 70_000, 70_000, 70_000]),
      { cash: { KRW: new Decimal(10_000_000), USD: new Decimal(0) } },
    );
    expect(outcome.status).toBe('completed');
    expect(seen).toEqual([
      "OrderModifyRejected risk-strategy-cash: the buy needs 5,400,810 KRW with its commission, more than the strategy's own cash of 5,000,000 KRW less 0 KRW held by its open buys",
      'OrderModified',
    ]);
    expect(outcome.trades).toEqual([]);
  });
});

/**
 * An order a strategy asks for in a shape the broker refuses (a fractional buy, a fractional sell
 * with 7 decimals, a quantity of 0, an amount order of a KR stock) is denied with the broker's code
 * `invalid-request` and what was found, the same in live and paper (over the simulator, HTTP) and in
 * a backtest, and the run goes on: nothing reaches the broker, and the strategy's next order is
 * placed. Before, `ctx.buy('AAPL', 0.5)` threw from the strategy's hook and the run stopped
 * (`hoga run` and `hoga backtest` exit 1), though the broker would only have refused the order. A
 * quantity that is not a finite number (NaN), or a time in force the API does not have (`GTC`), is a
 * programmer error: it still stops the run, naming the field and the value (before, `GTC` was sent:
 * paper took it, live ended it rejected with a StoreError), and so is an amount sell (before, it
 * was sent as a buy of the amount). The denial of an amount order of a KR stock names what the
 * strategy wrote (`amount`) and what to do (before, the broker's `orderAmount is only for US market
 * orders`).
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { backtestBars, minuteBars } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** On its first bar of 005930: four orders the broker refuses for their shape, then a limit buy well below. */
class AsksMalformed extends Strategy {
  static events: OrderEvent[] = [];
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    this.ctx.buy('AAPL', 0.5);
    this.ctx.submit({ symbol: 'AAPL', side: 'SELL', quantity: 0.1234567, fromAccount: true });
    this.ctx.buy('005930', 0);
    this.ctx.buyAmount('005930', 100_000);
    this.ctx.buy('005930', 1, Math.floor((bar.close * 0.9) / 100) * 100);
  }
  override onOrderEvent(event: OrderEvent): void {
    AsksMalformed.events.push(event);
  }
}

const EXPECTED = [
  'invalid-request: A fractional quantity is only allowed for US market sells, found 0.5',
  'invalid-request: A fractional quantity has at most 6 decimals, found 0.1234567',
  'invalid-request: quantity must be greater than 0, found 0',
  'invalid-request: amount is only for US market buys, found 100000 for 005930 (KR): give a quantity',
];

function denials(events: readonly OrderEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'OrderDenied' ? [`${e.code}: ${e.reason}`] : []));
}

describe('an order of a shape the broker refuses', () => {
  for (const mode of ['live', 'paper'] as const) {
    it(`is denied invalid-request in ${mode}, nothing sent, and the run goes on`, async () => {
      AsksMalformed.events = [];
      const s = await startSimulatedBroker(closers, { speed: 30 });
      const db = openTempDb(closers, `hoga-shape-${mode}-`, s.clock);
      const { handle } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `t-shape-${mode}`,
          mode,
          symbols: ['005930'],
          cashKrw: new Decimal(1_000_000),
          cashUsd: new Decimal(1_000),
          strategies: [{ strategyClass: AsksMalformed, id: 'asks' }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
      );
      let failure: unknown = null;
      void handle.failed.then((f) => {
        failure = f;
      });
      try {
        await until(() => AsksMalformed.events.some((e) => e.type === 'OrderAccepted'), 60_000);
      } finally {
        await handle.stop();
      }
      expect(failure).toBeNull();
      expect(denials(AsksMalformed.events)).toEqual(EXPECTED);
      expect(AsksMalformed.events.filter((e) => e.type === 'OrderSubmitted')).toHaveLength(1);
      // the denied orders are stored as such, with the broker's code
      const stored = db.orders.list({ state: 'DENIED' }).map((o) => o.rejectReason);
      expect(stored.sort()).toEqual([...EXPECTED].sort());
      if (mode === 'live') {
        const open = await s.client.listOrders({ status: 'OPEN' });
        expect(open.orders.map((o) => `${o.symbol} ${o.side} ${o.quantity?.toFixed()}`)).toEqual([
          '005930 BUY 1',
        ]);
      }
    });
  }

  it('is denied invalid-request in a backtest, and the run completes', async () => {
    AsksMalformed.events = [];
    const { outcome } = await backtestBars(
      [{ strategyClass: AsksMalformed, id: 'asks' }],
      minuteBars('005930', [70_000, 70_100, 70_200]),
    );
    expect(outcome.failure).toBeNull();
    expect(outcome.status).toBe('completed');
    expect(denials(AsksMalformed.events)).toEqual(EXPECTED);
    expect(outcome.refused).toEqual({ 'invalid-request': 4 });
  });

  it('stops the run naming the field when the quantity is NaN (a programmer error)', async () => {
    class AsksNaN extends Strategy {
      override onBar(bar: Bar): void {
        this.ctx.buy(bar.symbol, Number.NaN);
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: AsksNaN, id: 'nan' }],
      minuteBars('005930', [70_000, 70_100]),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.failure?.message).toContain(
      'order of 005930: quantity: expected a finite number, found NaN',
    );
  });

  it('stops the run when an amount order sells (amount is for US market buys), sending nothing', async () => {
    class SellsAmount extends Strategy {
      static events: OrderEvent[] = [];
      override onBar(): void {
        this.ctx.submit({ symbol: 'AAPL', side: 'SELL', amount: 100 } as never);
      }
      override onOrderEvent(event: OrderEvent): void {
        SellsAmount.events.push(event);
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: SellsAmount, id: 'sells' }],
      minuteBars('005930', [70_000, 70_100]),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.failure?.message).toContain(
      'order of AAPL: amount is only for US market buys, found side "SELL": sell a quantity',
    );
    expect(SellsAmount.events).toEqual([]);
  });

  it('stops the run naming the field when the time in force is not one the API has (GTC)', async () => {
    class AsksGtc extends Strategy {
      override onBar(bar: Bar): void {
        this.ctx.submit({
          symbol: bar.symbol,
          side: 'BUY',
          quantity: 1,
          price: 60_000,
          timeInForce: 'GTC' as never,
        });
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: AsksGtc, id: 'gtc' }],
      minuteBars('005930', [70_000, 70_100]),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.failure?.message).toContain('order intent: expected DAY or CLS, found GTC');
  });
});

/**
 * The broker's KR opposite-side rule is the account's: a strategy's sell of 005930 is refused
 * `opposite-pending-order-exists` while another strategy of the run has a buy of it open. The
 * strategy refused is told whose order it is, since it cannot see it (`ctx.openOrders()` and
 * `ctx.order(id)` show its own orders only). Before, it heard `An open BUY order on 005930 exists:
 * <id>`, an id it could not look up. Over the simulator on 127.0.0.1, in paper.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import {
  Closers,
  openTempDb,
  RestBelow,
  startSimulatedBroker,
  startTestRun,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys 1 005930 at market on its first bar, sells it at market once filled. */
class BuyThenSell extends Strategy {
  static seen: string[] = [];
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    this.ctx.buy('005930', 1);
  }
  override onFill(): void {
    if (this.ctx.position('005930') !== undefined) this.ctx.sell('005930', 1);
  }
  override onOrderEvent(event: OrderEvent): void {
    if (event.type === 'OrderDenied') {
      BuyThenSell.seen.push(`${this.ctx.openOrders().length} ${this.ctx.order(event.clientOrderId)?.state}`);
    }
  }
}

describe("the KR opposite-side rule between a run's strategies", () => {
  it("names the other strategy's order to the one refused", async () => {
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-opposite-of-another-', s.clock);
    const { handle, events } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-opposite-of-another',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(2_000_000),
        strategies: [
          { strategyClass: RestBelow, id: 'rester' },
          { strategyClass: BuyThenSell, id: 'trader' },
        ],
      },
      { streamIntervals: { candles1m: 300, orderbook: 200 } },
    );
    try {
      await until(() => events.some((e) => e.type === 'OrderDenied'), 60_000);
    } finally {
      await handle.stop();
    }
    const resting = events.find((e) => e.type === 'OrderAccepted' && e.strategyId === 'rester');
    const denied = events.find((e) => e.type === 'OrderDenied');
    expect(denied?.strategyId).toBe('trader');
    expect(denied?.type === 'OrderDenied' ? `${denied.code}: ${denied.reason}` : undefined).toBe(
      `opposite-pending-order-exists: An open BUY order on 005930 exists: ${resting?.clientOrderId}, strategy rester's` +
        ' (the broker takes one side at a time on a KR stock, for the whole account)',
    );
    // the refused strategy has no open order of its own: the other's is not shown to it
    expect(BuyThenSell.seen).toEqual(['0 DENIED']);
  }, 90_000);
});

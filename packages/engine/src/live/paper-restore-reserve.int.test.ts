/**
 * A paper market buy worked again after a restart holds its cash again, though the new run has no
 * price of its symbol yet (the symbol not among the run's, no bar or fill of it, the risk module
 * not having read it): at the broker's last price, read at the restart. Before, it was restored at
 * a reserve price of 0: it held 0 KRW, and the next buy spent the cash it had promised (the paper
 * account then had more buys working than its cash covered). Over the simulator on 127.0.0.1 and a
 * real SQLite file, the two runs one after the other on the same file.
 */
import type { Decimal, OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy, type StrategyClass } from '../strategy/strategy.js';
import {
  Closers,
  type SimulatedBroker,
  startSimulatedBroker,
  startTestRun,
  tempDbFile,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Not among the run's symbols: the run reads no price of it by itself. */
const SYMBOL = '000660';

/** The first run: a market buy of 3 {@link SYMBOL}, which never fills (no book can be read). */
class MarketBuy extends Strategy {
  override onStart(): void {
    this.ctx.buy(SYMBOL, 3);
  }
}

/** Runs one paper run of `strategy` on `file` until `done` holds of its events, then stops it. */
async function paperRun(
  s: SimulatedBroker,
  file: string,
  cash: Decimal,
  strategy: StrategyClass,
  done: (events: readonly OrderEvent[]) => boolean,
): Promise<OrderEvent[]> {
  const db = HogaDatabase.open(file, { clock: s.clock });
  try {
    const run = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'paper-restore-reserve',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: cash,
        strategies: [{ strategyClass: strategy, id: 'buyer' }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
    );
    try {
      await until(() => done(run.events), 20_000);
    } finally {
      await run.handle.stop();
    }
    return run.events;
  } finally {
    db.close();
  }
}

describe('a paper market buy restored after a restart', () => {
  it('holds cash again at the broker last price: a buy the rest of the cash cannot cover is refused', async () => {
    const s = await startSimulatedBroker(closers, { speed: 1 });
    // no book can be read: the paper venue fills nothing, the market buy stays working
    s.sim.injectFault({ kind: 'internal-error', path: '/api/v1/orderbook' });
    const [price] = await s.client.getPrices([SYMBOL]);
    const last = price?.lastPrice;
    if (last === undefined) throw new Error(`no price of ${SYMBOL}`);
    // the market buy's funds check is at the upper limit (1.3 x): 4.5 x the last price covers it;
    // working, it holds 3 x, and leaves 1.5 x: not enough for a second buy of 2 at the last price
    const cash = last.times(4.5);
    const file = tempDbFile('hoga-paper-restore-reserve-');

    const first = await paperRun(s, file, cash, MarketBuy, (events) =>
      events.some((e) => e.type === 'OrderAccepted' || e.type === 'OrderDenied'),
    );
    expect(first.map((e) => e.type)).toEqual(['OrderSubmitted', 'OrderAccepted']);

    let restored: string[][] = [];
    class SecondBuy extends Strategy {
      override onStart(): void {
        restored = this.ctx.openOrders().map((o) => [o.symbol, o.orderType]);
        this.ctx.buy(SYMBOL, 2, last);
      }
    }
    const second = await paperRun(s, file, cash, SecondBuy, (events) =>
      events.some(
        (e) => e.type === 'OrderAccepted' || e.type === 'OrderDenied' || e.type === 'OrderRejected',
      ),
    );
    // the market buy worked again
    expect(restored).toEqual([[SYMBOL, 'MARKET']]);
    const outcome = second.find((e) => e.type !== 'OrderSubmitted');
    // before: OrderAccepted, two buys working for 5 x the last price on 4.5 x of cash
    expect(outcome).toMatchObject({ code: 'insufficient-buying-power' });
    // paper: no order reached the broker
    expect(s.sim.counters().ordersCreated).toBe(0);
  }, 90_000);
});

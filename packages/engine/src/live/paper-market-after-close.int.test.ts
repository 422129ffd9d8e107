/**
 * A paper market order trades in the regular session only, as the broker's (the simulator matches
 * a working market order in `regularMarket` alone: `matching-engine.ts`): one still working at the
 * close (bigger than the books can fill before it) fills nothing in the after-market, whose books
 * paper keeps polling. Over the simulator on 127.0.0.1 (its clock at ×4 from 15:59:40 New York), a
 * paper run of a US penny stock (ZOM) with the risk module off.
 */
import { Decimal, type Fill } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** 16:00 New York on 2026-11-23: the regular session's end. */
const CLOSE = Date.parse('2026-11-23T16:00:00-05:00');

/** On start, a market buy of {@link BigBuy.quantity} ZOM. */
class BigBuy extends Strategy {
  static quantity = new Decimal(0);
  static fills: Fill[] = [];
  override onStart(): void {
    this.ctx.submit({ symbol: 'ZOM', side: 'BUY', quantity: BigBuy.quantity, confirmHighValue: true });
  }
  override onFill(fill: Fill): void {
    BigBuy.fills.push(fill);
  }
}

describe('a paper market order at the close', () => {
  it('fills nothing in the after-market, as the broker', async () => {
    const s = await startSimulatedBroker(closers, { start: '2026-11-23T15:59:40-05:00', speed: 4 });
    const book = await s.client.getOrderbook('ZOM');
    const visible = book.asks.reduce((sum, l) => sum.plus(l.volume), new Decimal(0));
    // fifty books' worth: the seconds to the close fill a part of it
    BigBuy.quantity = visible.times(50).floor();
    BigBuy.fills = [];
    const db = openTempDb(closers, 'hoga-paper-after-close-', s.clock);
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'paper-after-close',
        mode: 'paper',
        symbols: ['ZOM'],
        cashKrw: new Decimal(0),
        cashUsd: new Decimal(1_000_000),
        strategies: [{ strategyClass: BigBuy }],
      },
      { pollIntervalMs: 200, streamIntervals: { orderbook: 100 }, risk: { enabled: false } },
    );
    closers.add(() => handle.stop());
    // twenty simulated seconds past the close (the after-market's books polled meanwhile)
    await until(() => s.clock.nowMs() > CLOSE + 20_000, 40_000);
    const after = BigBuy.fills.filter((f) => f.tsEvent > CLOSE);
    // before: the rest filled poll after poll against the after-market's books
    expect(after.map((f) => `${f.quantity} at ${new Date(f.tsEvent).toISOString()}`)).toEqual([]);
    const filled = BigBuy.fills.reduce((sum, f) => sum.plus(f.quantity), new Decimal(0));
    // it traded until the close, and was still working then
    expect(filled.gt(0)).toBe(true);
    expect(filled.lt(BigBuy.quantity)).toBe(true);
    expect(s.sim.counters().ordersCreated).toBe(0);
  }, 60_000);
});

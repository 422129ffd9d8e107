/**
 * A round trip of 069500 (an ETF, as the simulator lists it) at market in a paper run over the
 * simulator, the sell placed the moment the buy filled:
 * - the paper venue fills and charges by the order's instrument, which the runtime takes from the
 *   broker's stock info: the intents name an ETF, and the sell pays no KR sell tax (a stock's
 *   0.15 %); before, every intent said STOCK;
 * - the risk gate re-reads the sellable quantity after the fill: before, its cached figure (0,
 *   read for the buy) refused the sell as `only 0 069500 can be sold` until it aged out (5 s);
 * and no order request reaches the broker.
 */
import { Decimal, type Fill } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys 3 069500 at market on start and sells them at market once bought. */
class EtfRoundTrip extends Strategy {
  static fills: Fill[] = [];
  override onStart(): void {
    this.ctx.buy('069500', 3);
  }
  override onFill(fill: Fill): void {
    EtfRoundTrip.fills.push(fill);
    if (fill.side === 'BUY' && this.ctx.position('069500')?.quantity.eq(3)) this.ctx.sell('069500', 3);
  }
}

describe('paper mode and instrument types', () => {
  it('trades a KR ETF as an ETF and sells it the moment the buy filled: intents say ETF, the sell is taken and pays no tax', async () => {
    const s = await startSimulatedBroker(closers, { speed: 1 });
    const info = await s.client.getStocks(['069500']);
    expect(info[0]?.securityType).toBe('ETF');
    const db = openTempDb(closers, 'hoga-paper-etf-', s.clock);
    EtfRoundTrip.fills = [];
    const { handle, events } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'paper-etf',
        mode: 'paper',
        symbols: ['069500'],
        cashKrw: new Decimal(10_000_000),
        strategies: [{ strategyClass: EtfRoundTrip }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
    );
    await until(() => EtfRoundTrip.fills.some((f) => f.side === 'SELL'), 30_000);
    await handle.stop();
    const submitted = events.flatMap((e) => (e.type === 'OrderSubmitted' ? [e.intent.instrument] : []));
    expect(submitted.map((i) => `${i.symbol} ${i.securityType}`)).toEqual(['069500 ETF', '069500 ETF']);
    const sell = EtfRoundTrip.fills.find((f) => f.side === 'SELL');
    expect(sell?.tax?.amount.toFixed()).toBe('0');
    // a buy's fill states its tax (0) as a live fill does, rather than leaving it out
    expect(EtfRoundTrip.fills.find((f) => f.side === 'BUY')?.tax?.amount.toFixed()).toBe('0');
    // the fills are on the ETF's 5-won grid (a stock of this price would trade on a 50-won one)
    for (const f of EtfRoundTrip.fills) expect(f.price.mod(5).isZero()).toBe(true);
    expect(s.sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);
  }, 60_000);
});

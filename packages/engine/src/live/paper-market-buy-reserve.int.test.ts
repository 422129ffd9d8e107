/**
 * A working paper market buy holds cash at the broker's last price of its symbol (before the day's
 * first trade, the previous close), from its acceptance on, though the run has no price of its own
 * yet (its first bar has not come). Before, the paper venue held it at the run's last price, none
 * before the first bar: a market buy placed at the start held 0 KRW, the venue took a second one
 * the cash could not cover, and cancelled it at its fill. Not at the upper price limit: live's
 * broker fills the first at once and takes a second buy the fill leaves cash for, and so does
 * paper. A market buy with no price to hold it at (the broker's prices unreadable) is denied, and
 * says why. Over the simulator on 127.0.0.1.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import {
  Closers,
  openTempDb,
  type SimulatedBroker,
  startSimulatedBroker,
  startTestRun,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

const QUANTITY = 10;

/** Buys 10 005930 at the market twice, at its start (before any bar of the run). */
class TwoMarketBuys extends Strategy {
  override onStart(): void {
    this.ctx.buy('005930', QUANTITY);
    this.ctx.buy('005930', QUANTITY);
  }
}

/** Its limit price: the lower price limit of 000660, read before the run. */
let unpricedLimit = new Decimal(0);

/** On its first bar (of 005930), buys 1 000660 (not among the run's symbols) at the market, then at a limit. */
class UnpricedBuys extends Strategy {
  private placed = false;

  override onBar(): void {
    if (this.placed) return;
    this.placed = true;
    this.ctx.buy('000660', 1);
    this.ctx.buy('000660', 1, unpricedLimit);
  }
}

const ended = (e: OrderEvent) =>
  e.type === 'OrderFilled' ||
  e.type === 'OrderRejected' ||
  e.type === 'OrderDenied' ||
  e.type === 'OrderCanceled';

/** Starts a paper run of {@link TwoMarketBuys} with `cash` KRW and the risk configuration `risk`. */
async function runTwoBuys(s: SimulatedBroker, cash: Decimal, risk: object) {
  const db = openTempDb(closers, 'hoga-paper-market-reserve-', s.clock);
  const run = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: 'paper-market-reserve',
      mode: 'paper',
      symbols: ['005930'],
      cashKrw: cash,
      strategies: [{ strategyClass: TwoMarketBuys }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, risk },
  );
  closers.add(() => run.handle.stop());
  await until(() => run.events.filter(ended).length === 2, 20_000);
  const ids = [...new Set(run.events.map((e) => e.clientOrderId))];
  return ids.map((id) => run.events.filter((e) => e.clientOrderId === id).map((e) => e.type));
}

/** The broker's last price and upper price limit of 005930 now. */
async function quote(s: SimulatedBroker): Promise<{ last: Decimal; upper: Decimal }> {
  const [price] = await s.client.getPrices(['005930']);
  const limits = await s.client.getPriceLimits('005930');
  return { last: price?.lastPrice ?? new Decimal(0), upper: limits.upperLimitPrice ?? new Decimal(0) };
}

describe('paper market buys placed before the run has a price', () => {
  it('hold cash at the broker last price: a second one the cash cannot cover is rejected at once', async () => {
    const s = await startSimulatedBroker(closers, { speed: 1 });
    const { last } = await quote(s);
    // enough for one buy at the last price, not for two; the risk module off: the paper venue alone
    const cash = last.times(QUANTITY).times(1.5).round();
    const [first, second] = await runTwoBuys(s, cash, { enabled: false });
    expect(first).toContain('OrderFilled');
    // before: OrderAccepted (0 KRW held), then OrderCanceled at its fill
    expect(second).toEqual(['OrderSubmitted', 'OrderRejected']);
  }, 60_000);

  it('are not held at the upper price limit: two that the cash covers at the last price both fill', async () => {
    const s = await startSimulatedBroker(closers, { speed: 1 });
    const { last, upper } = await quote(s);
    // the second's own funds check is at the upper limit (as the broker's), on the cash the first
    // leaves at the last price: enough for that, not for two held at the upper limit
    const cash = last.plus(upper).times(QUANTITY).times(1.01).round();
    expect(cash.lt(upper.times(QUANTITY * 2))).toBe(true);
    const outcomes = await runTwoBuys(s, cash, {});
    expect(outcomes.map((types) => types.at(-1))).toEqual(['OrderFilled', 'OrderFilled']);
  }, 60_000);
});

describe('a paper market buy with no price to hold it at', () => {
  it('is denied, saying so; a limit buy of the symbol is taken', async () => {
    const s = await startSimulatedBroker(closers, { speed: 1 });
    unpricedLimit = (await s.client.getPriceLimits('000660')).lowerLimitPrice ?? new Decimal(0);
    const db = openTempDb(closers, 'hoga-paper-market-unpriced-', s.clock);
    // the risk module off, and the broker's prices unreadable once the run started: no price of a
    // symbol outside the run's, and the run has none (its bars are 005930's)
    const { handle, events } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'paper-market-unpriced',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(10_000_000),
        strategies: [{ strategyClass: UnpricedBuys }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, risk: { enabled: false } },
    );
    closers.add(() => handle.stop());
    s.sim.injectFault({ kind: 'malformed-body', path: '/api/v1/prices' });
    await until(() => events.some((e) => e.type === 'OrderAccepted'), 20_000);
    const denied = events.filter((e) => e.type === 'OrderDenied');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ code: 'risk-market-data-missing' });
    expect(denied[0]?.type === 'OrderDenied' ? denied[0].reason : '').toMatch(
      /no price of 000660 yet to hold this paper market buy's cash at: place a limit order/,
    );
  }, 60_000);
});

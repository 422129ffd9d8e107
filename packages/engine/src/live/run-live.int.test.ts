/**
 * Live and paper runs of the engine against the simulator over real HTTP (its clock running ×30,
 * the engine clock following it): a strategy that buys once trades through the order manager
 * (live) or the simulated venue on live books (paper, no order request reaching the broker), and
 * paper state survives into the next paper run.
 */
import type { LedgerSnapshot } from '@hoga/broker-model';
import { type Bar, Decimal } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrategySpec } from '../runtime/engine-runtime.js';
import { Strategy } from '../strategy/strategy.js';
import {
  Closers,
  openTempDb,
  RestBelow,
  restOneOrder,
  type SimulatedBroker,
  type StartedRun,
  startRunOf005930,
  startSimulatedBroker,
  until,
  Watch,
} from './live-run.test-helper.js';

class BuyOnce extends Strategy {
  private bought = false;
  override onBar(bar: Bar): void {
    if (this.bought || bar.symbol !== '005930') return;
    this.bought = true;
    this.ctx.buy(bar.symbol, 2);
  }
}

const closers = new Closers();
afterEach(() => closers.closeAll());

/** The next session: a {@link Watch} run under the id `RestBelow` on `s`'s store, on Tuesday 10:00 KST. */
async function watchOnTuesday(s: { readonly db: HogaDatabase }): Promise<StartedRun> {
  const tuesday = await startSimulatedBroker(closers, { speed: 30, start: '2026-11-24T10:00:00+09:00' });
  return startRunOf005930({ ...tuesday, db: s.db }, 'paper', { strategyClass: Watch, id: 'RestBelow' });
}

async function setup(): Promise<SimulatedBroker & { db: HogaDatabase }> {
  const broker = await startSimulatedBroker(closers, { speed: 30 });
  return { ...broker, db: openTempDb(closers, 'hoga-live-', broker.clock) };
}

function run(
  mode: 'live' | 'paper',
  s: SimulatedBroker & { db: HogaDatabase },
  strategy: StrategySpec = { strategyClass: BuyOnce },
): Promise<StartedRun> {
  return startRunOf005930(s, mode, strategy);
}

describe('startLiveRun', () => {
  it('live: the strategy buys through the order manager; store fills and positions match the broker', async () => {
    const s = await setup();
    const { handle, events } = await run('live', s);
    await until(() => events.some((e) => e.type === 'OrderFilled'));
    await handle.stop();
    const fill = events.find((e) => e.type === 'OrderFilled');
    expect(fill?.strategyId).toBe('BuyOnce');
    expect(handle.status().positions.get('005930')?.toString()).toBe('102');
    const holdings = await s.client.getHoldings();
    expect(holdings.items.find((i) => i.symbol === '005930')?.quantity.toString()).toBe('102');
    expect(s.db.fills.list().map((f) => f.quantity.toString())).toEqual(['2']);
    expect(await handle.manager?.checkPositions()).toEqual([]);
  }, 90_000);

  it('paper: fills on the live book with no order request at the broker; the ledger carries into the next run', async () => {
    const s = await setup();
    const first = await run('paper', s);
    await until(() => first.events.some((e) => e.type === 'OrderFilled'));
    await first.handle.stop();
    expect(s.sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);
    expect(first.handle.status().positions.get('005930')?.toString()).toBe('2');
    expect(first.handle.status().pnl.KRW.charges.isZero()).toBe(false);
    // the status's unrealized PnL: the 2 shares at the last price less what they cost (its fills)
    let cost = new Decimal(0);
    for (const e of first.events)
      if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled')
        cost = cost.plus(e.fill.price.times(e.fill.quantity));
    // (the last price is the newest of the bar's close, the fill's price and the broker's price the
    // risk module read: one of a read every 5 s comes after the fill on a slow machine)
    const last = first.handle.runtime.portfolio.lastPrice('005930');
    expect(last).toBeGreaterThan(0);
    expect(first.handle.status().pnl.KRW.unrealized.toFixed()).toBe(
      new Decimal(last ?? Number.NaN).times(2).minus(cost).toFixed(),
    );
    const second = await run('paper', s);
    try {
      expect(second.handle.status().positions.get('005930')?.toString()).toBe('2');
      // the status line's fills and PnL are this run's: nothing filled yet, so no charges either
      // (before: the first run's commission, beside `fills 0`)
      const status = second.handle.status();
      expect(status.fills).toBe(0);
      expect(status.pnl.KRW.charges.toFixed()).toBe('0');
    } finally {
      await second.handle.stop();
    }
    expect(s.sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);
  }, 90_000);

  it('paper: a resting order survives a restart, rests again with its reservation, and fills in the next run', async () => {
    const s = await setup();
    const first = await run('paper', s, { strategyClass: RestBelow });
    await until(() => first.events.some((e) => e.type === 'OrderAccepted'));
    await first.handle.stop();
    const submitted = first.events.find((e) => e.type === 'OrderSubmitted');
    if (submitted?.type !== 'OrderSubmitted' || submitted.intent.sizing !== 'QUANTITY')
      throw new Error('no order');
    const limit = submitted.intent.orderType === 'LIMIT' ? submitted.intent.price : new Decimal(0);
    expect(first.handle.status().openOrders).toBe(1);

    // the next run: the same strategy id, a strategy that places nothing
    const second = await run('paper', s, { strategyClass: Watch, id: 'RestBelow' });
    try {
      expect(Watch.found).toEqual([`${submitted.clientOrderId} BUY 2 @ ${limit.toFixed()} ACCEPTED`]);
      expect(second.handle.status().openOrders).toBe(1);
      // the market falls through the limit: the restored order fills on the book
      s.sim.setPrice('005930', limit.minus(1_000));
      await until(() => second.events.some((e) => e.type === 'OrderFilled'));
    } finally {
      await second.handle.stop();
    }
    const fill = second.events.find((e) => e.type === 'OrderFilled');
    if (fill?.type !== 'OrderFilled') throw new Error('no fill');
    expect(fill.clientOrderId).toBe(submitted.clientOrderId);
    expect(fill.strategyId).toBe('RestBelow');
    expect(fill.fill.quantity.toFixed()).toBe('2');
    expect(fill.fill.price.lte(limit)).toBe(true);
    const ledger = s.db.strategyState.get('paper/_account', 'ledger') as LedgerSnapshot;
    expect(ledger.holdings['005930']?.quantity).toBe('2');
    const cost = fill.fill.quantity.times(fill.fill.price).plus(fill.fill.commission.amount);
    expect(ledger.cash.KRW).toBe(new Decimal(1_000_000).minus(cost).toFixed());
    expect(s.db.strategyState.get('paper/_account', 'orders')).toEqual([]);
    // the store lists the order once (hoga db orders / fills), filled in the second run: one fill
    // under the broker id its strategy was told in the first (before, a new id of the second run,
    // both linked as a create; paper-restore-broker-id.int.test.ts)
    const accepted = first.events.find((e) => e.type === 'OrderAccepted');
    if (accepted?.type !== 'OrderAccepted') throw new Error('no accepted order');
    const row = s.db.orders.get(submitted.clientOrderId);
    expect([row?.mode, row?.state, row?.filledQuantity.toFixed()]).toEqual(['paper', 'FILLED', '2']);
    const stored = s.db.fills.byOrder(row?.id ?? -1);
    expect(
      stored.map((f) => [f.quantity.toFixed(), f.cumulativeQuantity.toFixed(), f.brokerOrderId]),
    ).toEqual([['2', '2', accepted.brokerOrderId]]);
    expect(fill.fill.brokerOrderId).toBe(accepted.brokerOrderId);
    const lineage = s.db.orders.brokerOrderIds(submitted.clientOrderId);
    expect(lineage.map((l) => `${l.kind} ${l.brokerOrderId}`)).toEqual([`create ${accepted.brokerOrderId}`]);
    expect(s.sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);
  }, 90_000);

  it('paper: a resting order of an earlier session ends EXPIRED in the store when the next run starts', async () => {
    // Before: the next session's run left it out (a DAY order ends with its session) but the
    // store kept it ACCEPTED for ever: `hoga db orders --mode paper` listed it as working.
    const s = await setup();
    const submitted = await restOneOrder(s, 'paper');
    expect(s.db.orders.get(submitted.clientOrderId)?.state).toBe('ACCEPTED');

    // the next run, on Tuesday: the same store and strategy id
    const second = await watchOnTuesday(s);
    try {
      expect(Watch.found).toEqual([]);
      expect(second.handle.status().openOrders).toBe(0);
    } finally {
      await second.handle.stop();
    }
    const row = s.db.orders.get(submitted.clientOrderId);
    expect([row?.mode, row?.state, row?.filledQuantity.toFixed()]).toEqual(['paper', 'EXPIRED', '0']);
    const journal = s.db.journal.forOrder(submitted.clientOrderId).map((e) => e.type);
    expect(journal.at(-1)).toBe('OrderExpired');
    expect(s.db.strategyState.get('paper/_account', 'orders')).toEqual([]); // not expired again
  }, 90_000);

  it('paper: an order the table lists as working but the saved orders do not (an older hoga left it) ends EXPIRED', async () => {
    const s = await setup();
    const submitted = await restOneOrder(s, 'paper');
    // as the next session's run of an older hoga left it: dropped from the saved orders, ACCEPTED in the table
    s.db.strategyState.set('paper/_account', 'orders', []);
    const second = await watchOnTuesday(s);
    try {
      expect(Watch.found).toEqual([]);
    } finally {
      await second.handle.stop();
    }
    expect(s.db.orders.get(submitted.clientOrderId)?.state).toBe('EXPIRED');
  }, 90_000);

  it('paper: a working row of the current session that is not on the venue is left as it is (another paper run may work it)', async () => {
    const s = await setup();
    const submitted = await restOneOrder(s, 'paper');
    s.db.strategyState.set('paper/_account', 'orders', []);
    const second = await run('paper', s, { strategyClass: Watch, id: 'RestBelow' });
    await second.handle.stop();
    expect(s.db.orders.get(submitted.clientOrderId)?.state).toBe('ACCEPTED');
  }, 90_000);
});

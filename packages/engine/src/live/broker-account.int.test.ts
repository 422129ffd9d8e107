/**
 * `ctx.account` in a live run is the broker's account: its cash (the cash buying power per
 * currency) and holdings when the run starts, moved by the run's fills by the time `onFill` runs,
 * and read again from the broker afterwards. Before, a live run read the holdings once at its start
 * and no cash: `ctx.account.cash('KRW')` was 0, and a buy of 3 Samsung left the holdings at 100.
 */
import type { Bar, Fill } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { BrokerAccount } from './broker-account.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Records the account's KRW cash and 005930 holding at start and at its fill; buys 3 at market on its first bar. */
class WatchesAccount extends Strategy {
  static seen: string[] = [];
  static fill: Fill | null = null;
  private placed = false;
  private show(tag: string): void {
    const held = this.ctx.account
      .holdings()
      .find((h) => h.symbol === '005930')
      ?.quantity.toFixed();
    WatchesAccount.seen.push(`${tag} ${this.ctx.account.cash('KRW').toFixed()} ${held}`);
  }
  override onStart(): void {
    this.show('start');
  }
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    this.ctx.buy('005930', 3);
  }
  override onFill(fill: Fill): void {
    WatchesAccount.fill = fill;
    this.show('fill');
  }
}

describe('ctx.account in a live run', () => {
  it("is the broker's cash and holdings, with the run's fill by onFill", async () => {
    WatchesAccount.seen = [];
    WatchesAccount.fill = null;
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-broker-account-', s.clock);
    const cash = (await s.client.getBuyingPower('KRW')).cashBuyingPower;
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-account',
        mode: 'live',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: WatchesAccount }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
    );
    try {
      await until(() => WatchesAccount.fill !== null, 60_000);
    } finally {
      await handle.stop();
    }
    const fill = WatchesAccount.fill as unknown as Fill;
    const spent = fill.quantity.times(fill.price).plus(fill.commission.amount);
    expect(WatchesAccount.seen).toEqual([
      `start ${cash.toFixed()} 100`,
      `fill ${cash.minus(spent).toFixed()} 103`,
    ]);
    // the broker agrees
    expect((await s.client.getBuyingPower('KRW')).cashBuyingPower.toFixed()).toBe(
      cash.minus(spent).toFixed(),
    );
  }, 90_000);
});

describe('BrokerAccount', () => {
  it('says nothing of a read cut short by the run stopping (the connector closed after it)', async () => {
    // before: `pnpm start` ended with 'warning: account: ORDER_INFO: network-aborted: rate limiter
    // disposed' after 'done: closing the connector and the simulator.' when a read was under way
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const errors: unknown[] = [];
    const account = await BrokerAccount.open(s.client, (e) => errors.push(e));
    account.start();
    // the account group's rate budget spent: the read waits at the client's rate limiter
    const spent = Array.from({ length: 6 }, () => s.client.getBuyingPower('KRW').catch(() => undefined));
    const reading = account.refresh();
    account.dispose();
    s.client.close();
    await reading;
    await Promise.all(spent);
    expect(errors).toEqual([]);
  });
});

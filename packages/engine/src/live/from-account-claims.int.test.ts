/**
 * A `fromAccount` sell takes only the account's shares that no strategy of the run holds, and that
 * no other strategy's open sell already takes: over the simulator (whose account holds 100 ×
 * 005930 bought elsewhere), one strategy buys 10, a second rests a `fromAccount` sell of the 100,
 * and a third's `fromAccount` sell of 10 is denied `risk-strategy-shares`. Before, the third's sell
 * went to the broker (whose sellable quantity, 110 less the 100 held back, let it through) and
 * filled: it sold the first strategy's 10, which its book still held while the account no longer
 * did. Live, over the simulator on 127.0.0.1.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

const held = (s: Strategy) =>
  (s as unknown as { ctx: Strategy['ctx'] }).ctx.account.holdings().find((h) => h.symbol === '005930')
    ?.quantity;

/** Buys 10 005930 at market on its first bar. */
class BuysTen extends Strategy {
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    this.ctx.buy('005930', 10);
  }
}

/** Once the account holds 110, rests a limit sell of the account's 100 well above the market. */
class ClaimsAccount extends Strategy {
  static accepted = false;
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930' || !held(this)?.eq(110)) return;
    this.placed = true;
    const price = Math.floor((bar.close * 1.2) / 100) * 100;
    this.ctx.submit({ symbol: '005930', side: 'SELL', quantity: 100, price, fromAccount: true });
  }
  override onOrderEvent(event: OrderEvent): void {
    if (event.type === 'OrderAccepted') ClaimsAccount.accepted = true;
  }
}

/** Once the other's claim rests, sells 10 of the account's at market. */
class TakesRest extends Strategy {
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930' || !ClaimsAccount.accepted) return;
    this.placed = true;
    this.ctx.submit({ symbol: '005930', side: 'SELL', quantity: 10, fromAccount: true });
  }
}

describe('fromAccount sells of several strategies', () => {
  it("live: one cannot take what another's open fromAccount sell takes, nor another strategy's shares", async () => {
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-from-account-claims-', s.clock);
    const { handle, events } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-from-account-claims',
        mode: 'live',
        symbols: ['005930'],
        cashKrw: new Decimal(3_000_000),
        strategies: [
          { strategyClass: BuysTen, id: 'buyer' },
          { strategyClass: ClaimsAccount, id: 'claimer' },
          { strategyClass: TakesRest, id: 'taker' },
        ],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
    );
    try {
      await until(() => events.some((e) => e.strategyId === 'taker'), 60_000);
    } finally {
      await handle.stop();
    }
    const taker = events.filter((e) => e.strategyId === 'taker');
    expect(taker.map((e) => (e.type === 'OrderDenied' ? `${e.code}: ${e.reason}` : e.type))).toEqual([
      "risk-strategy-shares: the sell of 10 005930 is more than the strategy's own 0 less 0 held by its open sells and the account's 0 that no strategy of the run holds or sells",
    ]);
    // the buyer's 10 are still the account's
    const after = (await s.client.getHoldings()).items.find((i) => i.symbol === '005930')?.quantity;
    expect(after?.toFixed()).toBe('110');
  }, 90_000);
});

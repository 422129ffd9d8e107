/**
 * A strategy sells only the shares it bought: in a live run over the simulator (whose account holds
 * 100 × 005930 bought elsewhere) a sell of a strategy holding none is denied
 * `risk-strategy-shares` before it reaches the broker, unless the strategy asks for the account's
 * shares on the order (`fromAccount: true`); and in a paper run of two strategies, one cannot sell
 * what the other bought. Before, both sells went to the venue and filled: the live one sold the
 * account's own shares, the paper one the other strategy's, its cash rising with no position.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** On its first bar: sells 5 005930 at market, of the strategy's own (it has none), then of the account's. */
class SellsAccountShares extends Strategy {
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    this.ctx.sell('005930', 5);
    this.ctx.submit({ symbol: '005930', side: 'SELL', quantity: 5, fromAccount: true });
  }
}

/** Buys 3 005930 at market on its first bar. */
class BuysThree extends Strategy {
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    this.ctx.buy('005930', 3);
  }
}

/** Sells 2 005930 at market once the account (not the strategy) holds some. */
class SellsOthers extends Strategy {
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    if (this.ctx.account.holdings().every((h) => h.symbol !== '005930')) return;
    this.placed = true;
    this.ctx.sell('005930', 2);
  }
}

describe("a strategy's sell", () => {
  it("of shares it did not buy is denied risk-strategy-shares in live (the account's shares stay), unless it asks for the account's", async () => {
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-own-shares-', s.clock);
    const before = (await s.client.getHoldings()).items.find((i) => i.symbol === '005930')?.quantity;
    expect(before?.toFixed()).toBe('100');
    const { handle, events } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-own-shares',
        mode: 'live',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: SellsAccountShares, id: 'seller' }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
    );
    try {
      await until(() => events.some((e) => e.type === 'OrderFilled'), 60_000);
    } finally {
      await handle.stop();
    }
    const denied = events.filter(
      (e): e is Extract<OrderEvent, { type: 'OrderDenied' }> => e.type === 'OrderDenied',
    );
    expect(denied.map((e) => `${e.code}: ${e.reason}`)).toEqual([
      "risk-strategy-shares: the sell of 5 005930 is more than the strategy's own 0 less 0 held by its open sells (fromAccount: true sells the account's shares)",
    ]);
    // one order reached the broker: the one that asked for the account's shares
    expect(events.filter((e) => e.type === 'OrderSubmitted')).toHaveLength(1);
    const after = (await s.client.getHoldings()).items.find((i) => i.symbol === '005930')?.quantity;
    expect(after?.toFixed()).toBe('95');
  }, 90_000);

  it('in paper, of shares another strategy bought, is denied risk-strategy-shares', async () => {
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-own-shares-paper-', s.clock);
    const { handle, events } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-own-shares-paper',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(2_000_000),
        strategies: [
          { strategyClass: BuysThree, id: 'buyer' },
          { strategyClass: SellsOthers, id: 'other' },
        ],
      },
      { streamIntervals: { candles1m: 300, orderbook: 200 } },
    );
    try {
      await until(() => events.some((e) => e.type === 'OrderDenied'), 60_000);
    } finally {
      await handle.stop();
    }
    const denied = events.find((e) => e.type === 'OrderDenied');
    expect(denied).toMatchObject({ strategyId: 'other', code: 'risk-strategy-shares' });
    const fills = events.filter((e) => e.type === 'OrderFilled');
    expect(fills.map((e) => e.strategyId)).toEqual(['buyer']);
    expect(handle.runtime.hosts.find((h) => h.strategyId === 'other')?.position('005930')).toBeUndefined();
  }, 90_000);
});

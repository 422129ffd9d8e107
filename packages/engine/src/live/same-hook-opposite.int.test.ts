/**
 * A KR buy and a KR sell of the same stock placed in one hook, at prices that do not cross: the
 * broker rejects the second (`opposite-pending-order-exists`, the spec's KR rule: the first is
 * pending when the second arrives). hoga's own checks of the rule must refuse the second too,
 * whichever side comes first: the risk module's broker rules (live and paper) deny it before the
 * broker or the paper venue takes it; with the risk module off, the paper venue's broker rules
 * reject it as it takes it (`OrderRejected`, as the broker answers it live). Before, the risk gate checked
 * the commands in the order their refreshes ended: a sell reads its sellable quantity besides the
 * buying power, so a sell and then a buy had the buy checked and sent first and the sell denied,
 * the other way round from the broker (live with the risk module on, and paper with it on).
 *
 * Over the simulator on 127.0.0.1 (port 0), a real SQLite file, live and paper runs. */
import { type Bar, type ClientOrderId, Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** The symbol traded (account 1 of the simulator holds 100 shares of it). */
const SYMBOL = '005930';

/** What each order placed came to (`accepted`, or the code of its denial or rejection). */
const outcomes = new Map<ClientOrderId, string>();
/** The orders placed, in the order the strategy placed them. */
const placed: ClientOrderId[] = [];

/** Which side the strategy places first. */
let first: 'BUY' | 'SELL' = 'BUY';

/**
 * On its first bar of the symbol, in that one `onBar`: a limit buy of 1 share 5 % under the close
 * and a limit sell of 1 (of the account's shares) 5 % over it, {@link first}'s side first. Neither
 * crosses the market.
 */
class BuyAndSellInOneHook extends Strategy {
  override onBar(bar: Bar): void {
    if (placed.length > 0 || bar.symbol !== SYMBOL) return;
    const below = Math.floor((bar.close * 0.95) / 100) * 100;
    const above = Math.ceil((bar.close * 1.05) / 100) * 100;
    const buy = () => this.ctx.buy(SYMBOL, 1, below);
    const sell = () =>
      this.ctx.submit({ symbol: SYMBOL, side: 'SELL', quantity: 1, price: above, fromAccount: true });
    placed.push(first === 'BUY' ? buy() : sell());
    placed.push(first === 'BUY' ? sell() : buy());
  }

  override onOrderEvent(event: OrderEvent): void {
    if (outcomes.has(event.clientOrderId)) return;
    if (event.type === 'OrderAccepted') outcomes.set(event.clientOrderId, 'accepted');
    else if (event.type === 'OrderDenied' || event.type === 'OrderRejected') {
      outcomes.set(event.clientOrderId, `${event.type} ${event.code ?? ''}`);
    }
  }
}

/** How a run goes: its mode, the risk module on or off, the side placed first, a slow read of the sellable quantity. */
interface RunOptions {
  readonly mode: 'live' | 'paper';
  readonly risk: boolean;
  readonly first?: 'BUY' | 'SELL';
  /**
   * The risk module reads the buying power and sellable quantity for every order (none is fresh
   * enough), and the broker answers each sellable-quantity read 1.5 s late (paper reads its ledger):
   * a sell's check waits longer for its figures than a buy's.
   */
  readonly slowSellable?: boolean;
}

/** What a run of {@link BuyAndSellInOneHook} came to: each order's outcome, in the order placed. */
async function run(o: RunOptions): Promise<{ outcomes: string[]; created: number }> {
  const { mode } = o;
  outcomes.clear();
  placed.length = 0;
  first = o.first ?? 'BUY';
  const s = await startSimulatedBroker(closers, { speed: 1 });
  if (o.slowSellable === true) {
    s.sim.injectFault({ kind: 'delay', path: '/api/v1/sellable-quantity', delayMs: 1_500 });
  }
  const db = openTempDb(closers, `hoga-same-hook-${mode}-`, s.clock);
  const { handle } = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: `same-hook-${mode}`,
      mode,
      symbols: [SYMBOL],
      cashKrw: new Decimal(10_000_000),
      strategies: [{ strategyClass: BuyAndSellInOneHook }],
    },
    {
      pollIntervalMs: 200,
      streamIntervals: { candles1m: 300, orderbook: 200 },
      // paper: the account's shares in the paper ledger, so the sell has shares to sell
      paperFromAccount: true,
      risk: o.risk ? (o.slowSellable === true ? { accountInfoMaxAgeMs: 0 } : {}) : { enabled: false },
    },
  );
  closers.add(() => handle.stop());
  await until(() => placed.length === 2 && placed.every((id) => outcomes.has(id)), 30_000);
  return {
    outcomes: placed.map((id) => outcomes.get(id) as string),
    created: s.sim.counters().ordersCreated,
  };
}

const DENIED = 'OrderDenied opposite-pending-order-exists';
const REJECTED = 'OrderRejected opposite-pending-order-exists';

describe('a KR buy and sell of one stock placed in the same hook', () => {
  it('is answered by the broker with the second order rejected (live, risk module off)', async () => {
    expect((await run({ mode: 'live', risk: false })).outcomes).toEqual(['accepted', REJECTED]);
    await closers.closeAll();
    const sellFirst = await run({ mode: 'live', risk: false, first: 'SELL', slowSellable: true });
    expect(sellFirst.outcomes).toEqual(['accepted', REJECTED]);
  }, 60_000);

  it('has the second order denied by the risk module before the broker (live)', async () => {
    const live = await run({ mode: 'live', risk: true });
    expect(live.outcomes).toEqual(['accepted', DENIED]);
    // the second never reached the broker
    expect(live.created).toBe(1);
  }, 60_000);

  it('has the second order denied in live when the first waits longer for its figures (a sell, then a buy)', async () => {
    const live = await run({ mode: 'live', risk: true, first: 'SELL', slowSellable: true });
    expect(live.outcomes).toEqual(['accepted', DENIED]);
    expect(live.created).toBe(1);
  }, 60_000);

  it('has the second order denied in paper with the risk module on, and rejected (as live) with it off', async () => {
    for (const [risk, first] of [
      [true, 'BUY'],
      [false, 'BUY'],
      [true, 'SELL'],
      [false, 'SELL'],
    ] as const) {
      const paper = await run({ mode: 'paper', risk, first, slowSellable: true });
      // off: the paper venue takes the second and rejects it, as the broker does live
      const second = risk ? DENIED : REJECTED;
      expect(paper.outcomes, `risk ${risk ? 'on' : 'off'}, ${first} first`).toEqual(['accepted', second]);
      expect(paper.created).toBe(0);
      await closers.closeAll();
    }
  }, 120_000);
});

/**
 * `ctx.account` books a fill of the run at once on top of the broker's holdings it last read. A fill
 * that read already includes (a sell that filled while the engine was down, reported by the first
 * poll of the next start; or one a 10-second read saw before the poll did) is a sell of more than
 * the ledger holds. Before: `Ledger.applyFill` threw `LedgerError: Ledger: sell of 100 005930
 * exceeds the holding of 0` from the order events' subscriber, outside any hook: `hoga run` died
 * with a Node stack trace (or stopped: "uncaught exception not traced to a strategy"), seen in a
 * load test with restarts. Now the account skips what it cannot book and reads the broker again.
 * Over the simulator (HTTP) and a real SQLite file.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Sells the account's 100 005930 well above the market at its start (the order rests). */
class SellsAll extends Strategy {
  override onStart(): void {
    this.ctx.setTimer('sell', { at: this.ctx.now() });
  }
  override onTimer(): void {
    this.ctx.submit({ symbol: '005930', side: 'SELL', quantity: 100, price: 80_000, fromAccount: true });
  }
}

/** The same strategy id after the restart: it only watches its fills and the account. */
class Watches extends Strategy {
  static fills: string[] = [];
  static held: (string | undefined)[] = [];
  override onFill(): void {
    Watches.fills.push('fill');
    Watches.held.push(
      this.ctx.account
        .holdings()
        .find((h) => h.symbol === '005930')
        ?.quantity.toFixed(),
    );
  }
}

describe('ctx.account, a fill its last read of the broker already holds', () => {
  it('does not stop the run; the strategy gets its fill', async () => {
    const broker = await startSimulatedBroker(closers, { speed: 1, control: true, rateLimit: false });
    const db = openTempDb(closers, 'hoga-account-fill-', broker.clock);
    const run = {
      runId: 'acct-1',
      mode: 'live' as const,
      symbols: ['005930'],
      cashKrw: new Decimal(1_000_000),
    };
    const first = await startTestRun(
      { ...broker, db },
      { ...run, strategies: [{ strategyClass: SellsAll, id: 'seller' }] },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
    );
    await until(() => first.events.some((e) => e.type === 'OrderAccepted'), 60_000).catch(() => {
      throw new Error(JSON.stringify(first.events));
    });
    await first.handle.stop();
    // the engine is down: the sell fills at the broker
    broker.sim.setPrice('005930', '81000');
    for (let i = 0; i < 100; i++) {
      const held = (await broker.client.getHoldings()).items.find((h) => h.symbol === '005930');
      if (held === undefined) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await broker.client.getHoldings()).items.some((h) => h.symbol === '005930')).toBe(false);
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown): void => {
      uncaught.push(e);
    };
    process.on('uncaughtException', onUncaught);
    closers.add(() => {
      process.off('uncaughtException', onUncaught);
    });
    const events: OrderEvent[] = [];
    const second = await startTestRun(
      { ...broker, db },
      { ...run, runId: 'acct-2', strategies: [{ strategyClass: Watches, id: 'seller' }] },
      { pollIntervalMs: 200, onEvent: (e) => events.push(e) },
    );
    closers.add(() => second.handle.stop());
    await until(() => events.some((e) => e.type === 'OrderFilled'), 60_000);
    await until(() => Watches.fills.length > 0, 30_000);
    // a tick for a thrown error to surface
    await new Promise((r) => setTimeout(r, 500));
    expect(uncaught.map(String)).toEqual([]);
    // what the account holds is what the broker says: none left
    expect(Watches.held).toEqual([undefined]);
  }, 180_000);
});

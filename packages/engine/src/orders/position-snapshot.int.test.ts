/**
 * The position snapshots a live run saves at its start and stop (`position_snapshots` /
 * `position_snapshot_items`). The order manager counts quantities only: before, each item said an
 * average price of 0 and a realized PnL of 0, which read as figures. Now the average is the
 * broker's average purchase price where its holding equals the position, NULL where it does not
 * (the figure is not known), and the realized PnL NULL. Over the simulator (HTTP on 127.0.0.1) and
 * a SQLite file, read back with SQL as a user inspecting the store would.
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type LiveFixture, priceLimits, submitLimit, useLiveFixtures } from './live-fixture.test-helper.js';
import { snapshotPositions } from './reconciliation.js';

const live = useLiveFixtures(afterEach);

interface Item {
  symbol: string;
  quantity: string;
  average_price: string | null;
  realized_pnl: string | null;
}

/** The items of the newest live snapshot, by SQL. */
function newestItems(f: LiveFixture): Item[] {
  return f.db.connection
    .prepare(
      `SELECT symbol, quantity, average_price, realized_pnl FROM position_snapshot_items
       WHERE snapshot_id = (SELECT max(id) FROM position_snapshots WHERE mode = 'live') ORDER BY symbol`,
    )
    .all() as Item[];
}

/** The broker's average purchase price of a holding. */
async function brokerAverage(f: LiveFixture, symbol: string): Promise<string> {
  const item = (await f.client.getHoldings()).items.find((i) => i.symbol === symbol);
  if (item === undefined) throw new Error(`no holding of ${symbol}`);
  return item.averagePurchasePrice.toString();
}

describe('live position snapshots', () => {
  it("store the broker's average where the position equals the holding, else NULL; realized PnL NULL", async () => {
    const f = await live();
    await f.manager.reconcile(); // the first start: the positions are the holdings
    const held = f.manager.store.position('005930');
    const { upper } = await priceLimits(f.client, '005930');
    await f.manager.execute(submitLimit('005930', 'BUY', '7', upper));
    await f.manager.pollOnce();
    const bought = held.plus(7).toString();
    expect(f.manager.store.position('005930').toString()).toBe(bought);

    // the start's snapshot: the position equals the holding
    f.restart();
    await f.manager.reconcile();
    const average = await brokerAverage(f, '005930');
    expect(new Decimal(average).isZero()).toBe(false);
    expect(newestItems(f).find((i) => i.symbol === '005930')).toEqual({
      symbol: '005930',
      quantity: bought,
      average_price: average,
      realized_pnl: null,
    });

    // a position the store counts differently from the broker: its average is not known
    f.manager.store.setPosition('005930', held.plus(5), f.clock.nowMs());
    await snapshotPositions(f.manager); // as a stop saves it
    expect(newestItems(f).find((i) => i.symbol === '005930')).toEqual({
      symbol: '005930',
      quantity: held.plus(5).toString(),
      average_price: null,
      realized_pnl: null,
    });
    // read back through the repository: nulls, not zeros
    const latest = f.db.positions.latest('live', null);
    expect(latest?.positions.find((p) => p.symbol === '005930')).toMatchObject({
      averagePrice: null,
      realizedPnl: null,
    });
    expect(newestItems(f).every((i) => i.realized_pnl === null && i.average_price !== '0')).toBe(true);
  });
});

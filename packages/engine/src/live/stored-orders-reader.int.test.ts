/**
 * The live risk module's list of the account's open orders, read from a real SQLite file only when
 * the store changed: an order another process records (`hoga order`, another run: a connection of
 * its own) or ends is in or out of the next list, as is one this connection writes; an unchanged
 * store answers the last list without reading it again (before, each live order read the list
 * twice, and the background refresh once a period).
 */
import { Currency, Decimal, Market } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Closers, tempDbFile } from './live-run.test-helper.js';
import { storedOpenOrdersReader } from './stored-orders.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

function open(file: string): HogaDatabase {
  const db = HogaDatabase.open(file);
  closers.add(() => db.close());
  return db;
}

function recordBuy(db: HogaDatabase, clientOrderId: string, strategyId: string | null): void {
  db.orders.recordIntent({
    clientOrderId,
    strategyId,
    mode: 'live',
    symbol: '005930',
    market: Market.KR,
    currency: Currency.KRW,
    side: 'BUY',
    orderType: 'LIMIT',
    timeInForce: 'DAY',
    price: new Decimal(60_000),
    quantity: new Decimal(1),
    amount: null,
    state: 'ACCEPTED',
    createdAt: 1_700_000_000_000,
  });
}

describe('storedOpenOrdersReader (real SQLite file, two connections)', () => {
  it("sees another connection's new and ended orders and its own writes; an unchanged store is not read again", async () => {
    const file = tempDbFile('hoga-outside-reader-');
    const run = open(file);
    const other = open(file); // `hoga order` in another process
    const read = storedOpenOrdersReader(run);
    const ids = () => read().map((o) => [o.clientOrderId, o.strategyId]);
    expect(ids()).toEqual([]);

    recordBuy(other, 'cli-1', null);
    expect(ids()).toEqual([['cli-1', 'manual']]);
    const first = read();
    expect(read()).toBe(first); // nothing changed: the same list, not read again

    recordBuy(run, 'ext-2', null); // the run's own order manager adopting another channel's order
    expect(ids()).toEqual([
      ['cli-1', 'manual'],
      ['ext-2', 'manual'],
    ]);

    other.orders.updateState('cli-1', { state: 'CANCELED', updatedAt: 1_700_000_001_000 });
    expect(ids()).toEqual([['ext-2', 'manual']]);
  });
});

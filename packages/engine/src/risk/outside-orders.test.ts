/**
 * The risk book's outside orders (the account's open orders that are not its own, `RiskBook.
 * setOutsideOrders`) and the risk engine's reading of them: they count among the account's open
 * orders for the broker's rules only, each list replaces the last (an order left out ended), and
 * the cached funds of an order that appeared, ended or changed are read again.
 */
import { Decimal, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { RiskBook } from './risk-book.js';
import { parseRiskConfig } from './risk-config.js';
import { RiskEngine } from './risk-engine.js';
import { T0 } from './risk-fixture.test-helper.js';
import type { RestoredRiskOrder } from './risk-types.js';
import { TradingStateGateway } from './trading-state-gateway.js';
import { MemoryTradingStatePersistence } from './trading-state-persistence.js';

function stored(id: string, over: Partial<RestoredRiskOrder> = {}): RestoredRiskOrder {
  return {
    clientOrderId: id,
    strategyId: 'manual',
    symbol: '005930',
    market: 'KR',
    currency: 'KRW',
    side: 'BUY',
    orderType: 'LIMIT',
    timeInForce: 'DAY',
    price: new Decimal(60_000),
    quantity: new Decimal(3),
    amount: null,
    filledQuantity: new Decimal(0),
    averageFillPrice: null,
    ...over,
  };
}

describe('RiskBook.setOutsideOrders', () => {
  it('counts them among the account’s open orders only, not the strategies’ own', () => {
    const book = new RiskBook();
    book.restoreOpen({ ...stored('own'), strategyId: 's1' });
    // the store lists the book's own order too: passed over
    book.setOutsideOrders([stored('own', { strategyId: 's1' }), stored('h-1'), stored('ext-9')]);
    expect(book.accountOpenOrders().map((o) => o.clientOrderId)).toEqual(['own', 'h-1', 'ext-9']);
    expect(book.openOrders().map((o) => o.clientOrderId)).toEqual(['own']);
    expect(book.openOrderCount('manual')).toBe(0);
    // not the strategies' to modify or cancel
    expect(book.order('h-1')).toBeUndefined();
  });

  it('drops an order the next list leaves out (it ended), and tells what appeared, changed or ended', () => {
    const book = new RiskBook();
    expect(book.setOutsideOrders([stored('h-1'), stored('h-2')]).map((o) => o.clientOrderId)).toEqual([
      'h-1',
      'h-2',
    ]);
    // the same list: nothing moved
    expect(book.setOutsideOrders([stored('h-1'), stored('h-2')])).toEqual([]);
    // h-1 filled in part, h-2 ended
    const moved = book.setOutsideOrders([stored('h-1', { filledQuantity: new Decimal(1) })]);
    expect(moved.map((o) => o.clientOrderId)).toEqual(['h-1', 'h-2']);
    expect(
      book.accountOpenOrders().map((o) => `${o.clientOrderId} ${o.remainingQuantity?.toFixed()}`),
    ).toEqual(['h-1 2']);
    book.setOutsideOrders([]);
    expect(book.accountOpenOrders()).toEqual([]);
  });
});

describe('RiskEngine.syncOutsideOrders', () => {
  it('reads the list, and has the funds of an order that appeared or ended read again', () => {
    const clock = new VirtualClock(T0);
    const book = new RiskBook();
    let list: RestoredRiskOrder[] = [stored('h-1')];
    const forgotten: string[] = [];
    const engine = new RiskEngine({
      clock,
      config: parseRiskConfig({}),
      gateway: new TradingStateGateway(clock, new MemoryTradingStatePersistence()),
      view: book,
      outsideOrders: () => list,
      funds: {
        cashBuyingPower: () => new Decimal(1_000_000),
        sellableQuantity: () => new Decimal(0),
        forget: (currency, symbol) => {
          forgotten.push(`${currency} ${symbol}`);
        },
      },
    });
    engine.syncOutsideOrders();
    expect(book.accountOpenOrders().map((o) => o.clientOrderId)).toEqual(['h-1']);
    expect(forgotten).toEqual(['KRW 005930']);
    engine.syncOutsideOrders();
    expect(forgotten).toEqual(['KRW 005930']);
    list = [];
    engine.syncOutsideOrders();
    expect(book.accountOpenOrders()).toEqual([]);
    expect(forgotten).toEqual(['KRW 005930', 'KRW 005930']);
  });

  it('keeps the last list when the store cannot be read', () => {
    const clock = new VirtualClock(T0);
    const book = new RiskBook();
    let fail = false;
    const engine = new RiskEngine({
      clock,
      config: parseRiskConfig({}),
      gateway: new TradingStateGateway(clock, new MemoryTradingStatePersistence()),
      view: book,
      outsideOrders: () => {
        if (fail) throw new Error('database is locked');
        return [stored('h-1')];
      },
    });
    engine.syncOutsideOrders();
    fail = true;
    engine.syncOutsideOrders();
    expect(book.accountOpenOrders().map((o) => o.clientOrderId)).toEqual(['h-1']);
  });
});

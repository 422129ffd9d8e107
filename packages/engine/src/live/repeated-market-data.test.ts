import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { OrderbookSnapshot, PriceTick } from '../strategy/market-events.js';
import { sameBook, sameTick } from './repeated-market-data.js';

const tick = (over: Partial<PriceTick> = {}): PriceTick => ({
  type: 'PriceUpdated',
  symbol: '005930',
  price: new Decimal(71_000),
  tsEvent: 1_000,
  tsInit: 1_200,
  ...over,
});

const level = (price: number, quantity: number) => ({
  price: new Decimal(price),
  quantity: new Decimal(quantity),
});

const book = (over: Partial<OrderbookSnapshot> = {}): OrderbookSnapshot => ({
  type: 'OrderbookUpdated',
  symbol: '005930',
  bids: [level(70_900, 10), level(70_800, 5)],
  asks: [level(71_000, 7)],
  tsEvent: 1_000,
  tsInit: 1_200,
  ...over,
});

describe('sameTick', () => {
  it.each([
    { name: 'the same observation polled again later', other: tick({ tsInit: 4_200 }), same: true },
    {
      name: 'an equal price written differently',
      other: tick({ price: new Decimal('71000.0') }),
      same: true,
    },
    { name: 'a later trade at the same price', other: tick({ tsEvent: 1_001 }), same: false },
    { name: 'another price at the same time', other: tick({ price: new Decimal(71_100) }), same: false },
    { name: 'another symbol', other: tick({ symbol: '000660' }), same: false },
  ])('is $same for $name', ({ other, same }) => {
    expect(sameTick(tick(), other)).toBe(same);
  });
});

describe('sameBook', () => {
  it.each([
    { name: 'the same snapshot polled again later', other: book({ tsInit: 4_200 }), same: true },
    { name: 'the same levels at a later time', other: book({ tsEvent: 1_001 }), same: false },
    { name: 'a quantity changed', other: book({ bids: [level(70_900, 11), level(70_800, 5)] }), same: false },
    { name: 'a price changed', other: book({ asks: [level(71_100, 7)] }), same: false },
    { name: 'a level fewer', other: book({ bids: [level(70_900, 10)] }), same: false },
    { name: 'another symbol', other: book({ symbol: '000660' }), same: false },
  ])('is $same for $name', ({ other, same }) => {
    expect(sameBook(book(), other)).toBe(same);
  });
});

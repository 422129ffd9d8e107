import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HoldingsSchema } from './account.js';
import { CandlePageSchema, OrderbookSchema, PriceSchema } from './market-data.js';
import { OrderRecordSchema } from './orders.js';
import { envelope } from './primitives.js';
import { StockInfoSchema, UsMarketCalendarSchema } from './reference-data.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'test', 'fixtures', `${name}.json`), 'utf8'));

describe('response schemas', () => {
  it.each([
    { name: 'orderbook', schema: envelope(OrderbookSchema) },
    { name: 'candles', schema: envelope(CandlePageSchema) },
    { name: 'stocks', schema: envelope(z.array(StockInfoSchema)) },
    { name: 'calendar-us', schema: envelope(UsMarketCalendarSchema) },
    { name: 'holdings', schema: envelope(HoldingsSchema) },
    { name: 'order', schema: envelope(OrderRecordSchema) },
  ])('parse the recorded $name payload', ({ name, schema }) => {
    const parsed = schema.safeParse(fixture(name));
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('turn every numeric string of an order into a Decimal and keep nulls', () => {
    const order = envelope(OrderRecordSchema).parse(fixture('order')).result;
    expect(order.quantity).toBeInstanceOf(Decimal);
    expect(order.execution.filledAmount).toBeInstanceOf(Decimal);
    expect(order.price).toBeNull();
    expect(order.orderedAt.offset).toBe(540);
    expect(order.orderedAt.toISO()).toBe(
      (fixture('order') as { result: { orderedAt: string } }).result.orderedAt,
    );
  });

  it('keep unknown fields in raw and accept unknown enum values', () => {
    const wire = {
      symbol: 'X',
      timestamp: '2026-11-23T10:00:00+09:00',
      lastPrice: '1.5',
      currency: 'JPY',
      venue: 'NEW',
    };
    const price = PriceSchema.parse(wire);
    expect(price.currency).toBe('JPY');
    expect(price.raw).toEqual(wire);
    expect('venue' in price).toBe(false);
  });

  it.each([
    { patch: { lastPrice: '1e5' }, field: 'lastPrice' },
    { patch: { lastPrice: 72100 }, field: 'lastPrice' },
    { patch: { timestamp: '2026-11-23 10:00' }, field: 'timestamp' },
    { patch: { symbol: null }, field: 'symbol' },
  ])('name the field of a bad value ($field)', ({ patch, field }) => {
    const wire = {
      symbol: 'X',
      timestamp: '2026-11-23T10:00:00+09:00',
      lastPrice: '1',
      currency: 'KRW',
      ...patch,
    };
    const result = PriceSchema.safeParse(wire);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual([field]);
  });

  it('sort asks rising and bids falling whatever the wire order', () => {
    const book = OrderbookSchema.parse({
      timestamp: '2026-11-23T10:00:00+09:00',
      currency: 'KRW',
      asks: [
        { price: '102', volume: '1' },
        { price: '101', volume: '1' },
      ],
      bids: [
        { price: '99', volume: '1' },
        { price: '100', volume: '1' },
      ],
    });
    expect(book.asks.map((l) => l.price.toNumber())).toEqual([101, 102]);
    expect(book.bids.map((l) => l.price.toNumber())).toEqual([100, 99]);
  });
});

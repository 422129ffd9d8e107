import { Decimal } from '@hoga/core';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '../schemas/orders.js';
import { isOutcomeOf, outcomesOf } from './history-match.js';

const SENT = DateTime.fromISO('2026-11-23T10:00:10+09:00').toMillis();

function record(
  orderId: string,
  over: Partial<OrderRecord> & { at?: string; filled?: string } = {},
): OrderRecord {
  return {
    orderId,
    symbol: '005930',
    side: 'BUY',
    orderType: 'LIMIT',
    timeInForce: 'DAY',
    status: 'PENDING',
    price: new Decimal(64000),
    quantity: new Decimal(10),
    orderAmount: null,
    currency: 'KRW',
    orderedAt: DateTime.fromISO(over.at ?? '2026-11-23T10:00:11+09:00', { setZone: true }),
    canceledAt: null,
    execution: {
      filledQuantity: new Decimal(over.filled ?? '0'),
      averageFilledPrice: null,
      filledAmount: null,
      commission: null,
      tax: null,
      filledAt: null,
      settlementDate: null,
    },
    raw: {},
    ...over,
  } as OrderRecord;
}

describe('history matching', () => {
  it('matches a create by symbol, side, type, price and quantity placed after it was sent', () => {
    const command = {
      kind: 'create' as const,
      sentAt: SENT,
      content: {
        symbol: '005930',
        side: 'BUY' as const,
        orderType: 'LIMIT' as const,
        quantity: '10',
        price: '64000',
      },
    };
    expect(isOutcomeOf(command, record('a'))).toBe(true);
    expect(isOutcomeOf(command, record('early', { at: '2026-11-23T10:00:00+09:00' }))).toBe(false);
    expect(isOutcomeOf(command, record('sell', { side: 'SELL' }))).toBe(false);
    expect(isOutcomeOf(command, record('price', { price: new Decimal(64100) }))).toBe(false);
    expect(outcomesOf(command, [record('a'), record('b')]).map((r) => r.orderId)).toEqual(['a', 'b']);
  });

  it('matches a modify by the asked price and quantity (US: the unfilled rest), never the original itself', () => {
    const target = record('orig', { status: 'REPLACED', filled: '4', at: '2026-11-23T09:59:00+09:00' });
    const kr = {
      kind: 'modify' as const,
      sentAt: SENT,
      target,
      content: { orderType: 'LIMIT' as const, price: '65000', quantity: '8' },
    };
    expect(isOutcomeOf(kr, record('new', { price: new Decimal(65000), quantity: new Decimal(8) }))).toBe(
      true,
    );
    expect(isOutcomeOf(kr, record('other', { price: new Decimal(65000), quantity: new Decimal(6) }))).toBe(
      false,
    );
    expect(isOutcomeOf(kr, target)).toBe(false);
    const us = {
      kind: 'modify' as const,
      sentAt: SENT,
      target,
      content: { orderType: 'LIMIT' as const, price: '65000' },
    };
    expect(isOutcomeOf(us, record('rest', { price: new Decimal(65000), quantity: new Decimal(6) }))).toBe(
      true,
    );
  });

  it('matches a cancel by the CANCELED record of the unfilled rest with no fills', () => {
    const target = record('orig', { status: 'CANCELED', filled: '3', at: '2026-11-23T09:59:00+09:00' });
    const command = { kind: 'cancel' as const, sentAt: SENT, target };
    expect(isOutcomeOf(command, record('c', { status: 'CANCELED', quantity: new Decimal(7) }))).toBe(true);
    expect(isOutcomeOf(command, record('open', { status: 'PENDING', quantity: new Decimal(7) }))).toBe(false);
    expect(
      isOutcomeOf(command, record('filled', { status: 'CANCELED', quantity: new Decimal(7), filled: '1' })),
    ).toBe(false);
  });
});

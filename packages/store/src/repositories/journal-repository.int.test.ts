import { Decimal, parseDateTime } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp, T0 } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';
import { backtestOrderIdPrefix, type NewJournalEntry } from './journal-repository.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

const entry = (i: number, overrides: Partial<NewJournalEntry> = {}): NewJournalEntry => ({
  type: 'BarClosed',
  tsEvent: T0 + i,
  tsInit: T0 + i + 1,
  mode: 'paper',
  payload: { i },
  ...overrides,
});

describe('JournalRepository', () => {
  describe('.append', () => {
    it('hands out increasing sequence numbers starting at 1', () => {
      expect([db.journal.append(entry(0)), db.journal.append(entry(1)), db.journal.append(entry(2))]).toEqual(
        [1, 2, 3],
      );
      expect(db.journal.lastSequence()).toBe(3);
    });

    it('never reuses a sequence number, even after the last rows are removed', () => {
      db.journal.appendMany([entry(0), entry(1)]);
      db.connection.prepare('DELETE FROM journal WHERE seq = 2').run();
      expect(db.journal.append(entry(2))).toBe(3);
    });

    it('writes decimals as plain strings and DateTimes as ISO text', () => {
      const seq = db.journal.append(
        entry(0, {
          type: 'OrderFilled',
          payload: {
            price: new Decimal('1e-7'),
            qty: new Decimal('12345678901234567890123'),
            nested: [{ fee: new Decimal('0.5') }],
            at: parseDateTime('2026-11-23T09:01:00.000+09:00', 'at'),
          },
        }),
      );
      expect(db.journal.readFrom(seq)[0]?.payload).toEqual({
        price: '0.0000001',
        qty: '12345678901234567890123',
        nested: [{ fee: '0.5' }],
        at: '2026-11-23T09:01:00.000+09:00',
      });
    });
  });

  describe('.appendEvent', () => {
    it('journals a whole event under its type, times, order and strategy', () => {
      const event = {
        type: 'OrderPartiallyFilled',
        eventId: 'e-1',
        clientOrderId: 'lim-1',
        strategyId: 'sma',
        tsEvent: T0,
        tsInit: T0 + 1,
        fill: { quantity: new Decimal('3'), price: new Decimal('72100') },
      };
      const seq = db.journal.appendEvent(event, 'paper');
      expect(db.journal.readFrom(seq)).toEqual([
        {
          seq,
          type: 'OrderPartiallyFilled',
          tsEvent: T0,
          tsInit: T0 + 1,
          mode: 'paper',
          strategyId: 'sma',
          clientOrderId: 'lim-1',
          payload: { ...event, fill: { quantity: '3', price: '72100' } },
        },
      ]);
    });
  });

  describe('.appendMany', () => {
    it('writes all or none', () => {
      expect(() => db.journal.appendMany([entry(0), entry(1, { mode: 'bogus' as 'paper' })])).toThrow(
        /CHECK/,
      );
      expect(db.journal.lastSequence()).toBe(0);
      expect(db.journal.appendMany([])).toBe(0);
    });
  });

  describe('.readFrom', () => {
    it('returns the entries from a sequence number on, in order, with every field', () => {
      db.journal.appendMany(
        [0, 1, 2, 3, 4].map((i) => entry(i, { strategyId: 's1', clientOrderId: `c-${i}` })),
      );
      const read = db.journal.readFrom(3);
      expect(read.map((e) => e.seq)).toEqual([3, 4, 5]);
      expect(read[0]).toEqual({
        seq: 3,
        type: 'BarClosed',
        tsEvent: T0 + 2,
        tsInit: T0 + 3,
        mode: 'paper',
        strategyId: 's1',
        clientOrderId: 'c-2',
        payload: { i: 2 },
      });
      expect(db.journal.readFrom(2, 2).map((e) => e.seq)).toEqual([2, 3]);
    });
  });

  describe('.iterateFrom', () => {
    it('walks past page boundaries and replays every entry exactly once in order', () => {
      db.journal.appendMany(Array.from({ length: 2_345 }, (_, i) => entry(i)));
      const seqs = [...db.journal.iterateFrom(1)].map((e) => e.seq);
      expect(seqs).toHaveLength(2_345);
      expect(seqs.every((s, i) => s === i + 1)).toBe(true);
    });
  });

  describe('.forOrder', () => {
    it('returns only the events of that order', () => {
      db.journal.appendMany([
        entry(0, { clientOrderId: 'a', type: 'OrderSubmitted' }),
        entry(1),
        entry(2, { clientOrderId: 'a', type: 'OrderAccepted' }),
      ]);
      expect(db.journal.forOrder('a').map((e) => e.type)).toEqual(['OrderSubmitted', 'OrderAccepted']);
    });
  });
  describe('.orderSummaries', () => {
    it("returns one mode's order summaries whose client order id starts with the prefix, in written order", () => {
      const run = backtestOrderIdPrefix('0123abcd-4567-89ef-0000-000000000000');
      expect(run).toBe('bt0123abcd4567');
      const summary = (id: string, mode: NewJournalEntry['mode'] = 'backtest') =>
        entry(0, { type: 'OrderSummary', mode, clientOrderId: id, payload: { clientOrderId: id } });
      db.journal.appendMany([
        summary(`${run}-2`),
        summary('bt0123abcd4568-1'),
        summary(`${run}-1`),
        summary(`${run}-3`, 'paper'),
        entry(1, { clientOrderId: `${run}-1` }),
        summary(`${run}-10`),
      ]);
      const ids = (prefix?: string) =>
        [...db.journal.orderSummaries('backtest', prefix)].map((e) => e.clientOrderId);
      expect(ids(`${run}-`)).toEqual([`${run}-2`, `${run}-1`, `${run}-10`]);
      expect(ids()).toEqual([`${run}-2`, 'bt0123abcd4568-1', `${run}-1`, `${run}-10`]);
    });
  });
});

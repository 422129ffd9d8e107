import { VirtualClock } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileAtVersion, openTemp, T0, tempDir } from '../../test/support.js';
import { HogaDatabase } from '../hoga-database.js';
import { LATEST_SCHEMA_VERSION } from '../schema/migrations.js';
import { CALENDAR_FRESH_MS, type CalendarKey } from './market-calendar-cache.js';

const DAY = 86_400_000;
const MINUTE = 60_000;
const BROKER = 'https://openapi.example';

/** A KR answer as the broker writes it (T0 is Monday 2026-11-23 09:00 KST). */
function krAnswer(previous: string, today: string, next: string) {
  const day = (date: string) => ({
    date,
    integrated: {
      preMarket: null,
      regularMarket: {
        startTime: `${date}T09:00:00.000+09:00`,
        singlePriceAuctionStartTime: `${date}T15:20:00.000+09:00`,
        endTime: `${date}T15:30:00.000+09:00`,
      },
      afterMarket: null,
    },
  });
  return { previousBusinessDay: day(previous), today: day(today), nextBusinessDay: day(next) };
}
const MONDAY = krAnswer('2026-11-20', '2026-11-23', '2026-11-24');
const kr = (date: string, broker = BROKER): CalendarKey => ({ broker, market: 'KR', date });

let db: HogaDatabase;
let clock: VirtualClock;
let cleanup: () => void;
beforeEach(() => {
  ({ db, clock, cleanup } = openTemp());
});
afterEach(() => cleanup());

describe('MarketCalendarCache', () => {
  describe('.store and .get', () => {
    it('gives an answer about today back as the broker wrote it, for the freshness only', () => {
      expect(db.marketCalendars.store(kr('2026-11-23'), MONDAY, '2026-11-24')).toBe(false);
      expect(db.marketCalendars.get(kr('2026-11-23'))).toEqual({
        answer: MONDAY,
        final: false,
        fetchedAt: T0,
        ageMs: 0,
      });
      clock.advance(CALENDAR_FRESH_MS - 1);
      expect(db.marketCalendars.get(kr('2026-11-23'))).toMatchObject({ ageMs: CALENDAR_FRESH_MS - 1 });
      clock.advance(1);
      expect(db.marketCalendars.get(kr('2026-11-23'))).toBeUndefined();
      // the row stays until the broker's next answer replaces it
      expect(db.connection.prepare('SELECT count(*) FROM market_calendars').pluck().get()).toBe(1);
    });

    it('keeps an answer about days that are over for good', () => {
      const lastWeek = krAnswer('2026-11-13', '2026-11-16', '2026-11-17');
      expect(db.marketCalendars.store(kr('2026-11-16'), lastWeek, '2026-11-17')).toBe(true);
      clock.advance(400 * DAY);
      expect(db.marketCalendars.get(kr('2026-11-16'))).toEqual({
        answer: lastWeek,
        final: true,
        fetchedAt: T0,
        ageMs: 400 * DAY,
      });
    });

    it('does not make final an answer read while its days were ahead, once they are over', () => {
      db.marketCalendars.store(kr('2026-11-23'), MONDAY, '2026-11-24');
      clock.advance(3 * DAY);
      expect(db.marketCalendars.get(kr('2026-11-23'))).toBeUndefined();
      // read again then, it is
      expect(db.marketCalendars.store(kr('2026-11-23'), MONDAY, '2026-11-24')).toBe(true);
      expect(db.marketCalendars.get(kr('2026-11-23'))).toMatchObject({
        final: true,
        fetchedAt: T0 + 3 * DAY,
      });
    });

    it('replaces the answer stored for the same broker, market and date', () => {
      db.marketCalendars.store(kr('2026-11-23'), MONDAY, '2026-11-24');
      clock.advance(5 * MINUTE);
      // the broker announced Tuesday a holiday meanwhile
      const announced = krAnswer('2026-11-20', '2026-11-23', '2026-11-25');
      db.marketCalendars.store(kr('2026-11-23'), announced, '2026-11-25');
      expect(db.marketCalendars.get(kr('2026-11-23'))).toMatchObject({
        answer: announced,
        fetchedAt: T0 + 5 * MINUTE,
        ageMs: 0,
      });
    });

    it('keeps brokers, markets and dates apart', () => {
      db.marketCalendars.store(kr('2026-11-23'), MONDAY, '2026-11-24');
      expect(db.marketCalendars.get(kr('2026-11-23', 'http://127.0.0.1:8080'))).toBeUndefined();
      expect(db.marketCalendars.get({ broker: BROKER, market: 'US', date: '2026-11-23' })).toBeUndefined();
      expect(db.marketCalendars.get(kr('2026-11-24'))).toBeUndefined();
    });

    it('gives nothing for a row whose JSON is unreadable (the broker is asked again)', () => {
      db.marketCalendars.store(kr('2026-11-23'), MONDAY, '2026-11-24');
      db.connection.prepare('UPDATE market_calendars SET answer = \'{"today":\'').run();
      expect(db.marketCalendars.get(kr('2026-11-23'))).toBeUndefined();
    });

    it.each([
      ['a date that is not YYYY-MM-DD', kr('2026-11-23T00:00'), '2026-11-24', 'date: expected a date'],
      ['a last date that is not YYYY-MM-DD', kr('2026-11-23'), '24.11.2026', 'lastDate: expected a date'],
      ['another market', { broker: BROKER, market: 'JP', date: '2026-11-23' }, '2026-11-24', 'market:'],
      ['no broker', kr('2026-11-23', ''), '2026-11-24', 'broker:'],
    ])('throws invalid-argument for %s, storing nothing', (_, key, lastDate, message) => {
      expect(() => db.marketCalendars.store(key as CalendarKey, MONDAY, lastDate)).toThrow(
        expect.objectContaining({ code: 'invalid-argument', message: expect.stringContaining(message) }),
      );
      expect(db.connection.prepare('SELECT count(*) FROM market_calendars').pluck().get()).toBe(0);
    });

    it('throws invalid-argument for an answer that is not JSON', () => {
      const loop: Record<string, unknown> = {};
      loop.self = loop;
      expect(() => db.marketCalendars.store(kr('2026-11-23'), loop, '2026-11-24')).toThrow(
        expect.objectContaining({ code: 'invalid-argument' }),
      );
      expect(() => db.marketCalendars.store(kr('2026-11-23'), undefined, '2026-11-24')).toThrow(
        expect.objectContaining({ code: 'invalid-argument' }),
      );
    });
  });

  describe('.forgetOld', () => {
    it('drops the rows about dates more than a year back, of every broker and market, and keeps the rest', () => {
      const us = (date: string) => ({ broker: 'http://127.0.0.1:8080', market: 'US', date }) as const;
      // a run left going for two years: two rows a day would add up for good
      db.marketCalendars.store(kr('2024-11-20'), MONDAY, '2024-11-21');
      db.marketCalendars.store(us('2025-11-21'), MONDAY, '2025-11-24');
      db.marketCalendars.store(kr('2025-11-23'), MONDAY, '2025-11-24');
      db.marketCalendars.store(kr('2026-11-20'), MONDAY, '2026-11-23');
      db.marketCalendars.store(kr('2026-11-23'), MONDAY, '2026-11-24');
      const count = () => db.connection.prepare('SELECT count(*) FROM market_calendars').pluck().get();
      expect(count()).toBe(5);
      // T0 is 2026-11-23: 366 days back is 2025-11-22
      expect(db.marketCalendars.forgetOld()).toBe(2);
      expect(count()).toBe(3);
      expect(db.marketCalendars.get(kr('2025-11-23'))).toBeDefined();
      expect(db.marketCalendars.get(kr('2026-11-20'))).toBeDefined();
      expect(db.marketCalendars.forgetOld()).toBe(0);
    });
  });

  describe('migration 11', () => {
    let dir: string;
    let removeDir: () => void;
    beforeEach(() => {
      ({ dir, cleanup: removeDir } = tempDir());
    });
    afterEach(() => removeDir());

    it('brings a version-10 file up with an empty cache, keeping what the file held', () => {
      const file = fileAtVersion(dir, 10);

      const opened = HogaDatabase.open(file, { clock: new VirtualClock(T0) });
      try {
        expect(opened.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
        expect(opened.strategyState.get('s', 'k')).toBe(1);
        expect(opened.marketCalendars.get(kr('2026-11-23'))).toBeUndefined();
        opened.marketCalendars.store(kr('2026-11-23'), MONDAY, '2026-11-24');
        const meta = opened.connection
          .prepare("SELECT value FROM meta WHERE key = 'migration.11'")
          .pluck()
          .get();
        expect(JSON.parse(meta as string)).toMatchObject({ appliedAt: T0 });
      } finally {
        opened.close();
      }
      // another process on the file, a minute later
      const again = HogaDatabase.open(file, { clock: new VirtualClock(T0 + MINUTE) });
      try {
        expect(again.marketCalendars.get(kr('2026-11-23'))).toMatchObject({ answer: MONDAY, ageMs: MINUTE });
      } finally {
        again.close();
      }
    });
  });
});

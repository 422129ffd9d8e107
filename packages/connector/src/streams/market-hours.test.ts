import { type MarketCalendar, parseKrMarketCalendar, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { BrokerClient } from '../client/broker-client.js';
import { MarketHours } from './market-hours.js';

/** KR calendar around `today` (default Monday 2026-11-30: Friday 11-27, Monday 11-30, Tuesday 12-01; usual hours). */
function krCalendar(previous = '2026-11-27', today = '2026-11-30', next = '2026-12-01'): MarketCalendar {
  const day = (date: string) => ({
    date,
    integrated: {
      preMarket: { startTime: `${date}T08:00:00+09:00`, endTime: `${date}T09:00:00+09:00` },
      regularMarket: { startTime: `${date}T09:00:00+09:00`, endTime: `${date}T15:30:00+09:00` },
      afterMarket: { startTime: `${date}T15:30:00+09:00`, endTime: `${date}T20:00:00+09:00` },
    },
  });
  return parseKrMarketCalendar({
    previousBusinessDay: day(previous),
    today: day(today),
    nextBusinessDay: day(next),
  });
}

/** A client whose calendar reads (a refresh every 30 clock minutes) never answer: the calendar set stays. */
const client = { getKrMarketCalendar: () => new Promise(() => undefined) } as unknown as BrokerClient;

describe(MarketHours, () => {
  describe('.nextOpenMs', () => {
    it('is the next session start on the calendar isOpen judges by, worked out again once it passed', () => {
      const clock = new VirtualClock('2026-11-30T07:00:00+09:00');
      const hours = new MarketHours(client, clock);
      hours.set('KR', krCalendar());
      expect(hours.isOpen('KR')).toBe(false);
      expect(hours.nextOpenMs('KR')).toBe(Date.parse('2026-11-30T08:00:00+09:00'));
      clock.set('2026-11-30T08:00:00+09:00');
      expect(hours.isOpen('KR')).toBe(true);
      // after the after-market: Tuesday's pre-market
      clock.set('2026-11-30T20:05:00+09:00');
      expect(hours.isOpen('KR')).toBe(false);
      expect(hours.nextOpenMs('KR')).toBe(Date.parse('2026-12-01T08:00:00+09:00'));
      // a clock set back finds the earlier open again
      clock.set('2026-11-30T07:30:00+09:00');
      expect(hours.nextOpenMs('KR')).toBe(Date.parse('2026-11-30T08:00:00+09:00'));
      // none ahead on the calendar
      clock.set('2026-12-01T20:05:00+09:00');
      expect(hours.nextOpenMs('KR')).toBeNull();
    });

    it('is the next open after the instant given, the one isOpen found the market closed at', () => {
      // a look read the clock at 07:59:59.999, then stalled: the clock shows 08:00:01 now
      const clock = new VirtualClock('2026-11-30T08:00:01+09:00');
      const hours = new MarketHours(client, clock);
      hours.set('KR', krCalendar());
      const lookedAt = Date.parse('2026-11-30T07:59:59.999+09:00');
      expect(hours.isOpen('KR', 0, lookedAt)).toBe(false);
      // before: asked at 08:00:01, the regular session's 09:00
      expect(hours.nextOpenMs('KR', lookedAt)).toBe(Date.parse('2026-11-30T08:00:00+09:00'));
      expect(hours.isOpen('KR')).toBe(true);
      expect(hours.nextOpenMs('KR')).toBe(Date.parse('2026-11-30T09:00:00+09:00'));
    });

    it('is undefined while no calendar is known', () => {
      const hours = new MarketHours(client, new VirtualClock('2026-11-30T07:00:00+09:00'));
      expect(hours.nextOpenMs('US')).toBeUndefined();
    });
  });

  describe('.isOpen after the clock left the calendar behind', () => {
    it('is unknown (undefined) while the new calendar is read, then judged by it', async () => {
      // a process asleep from Monday to Thursday 10:00: its calendar (Friday, Monday, Tuesday)
      // shows no session at or after Thursday. Before: false (closed), and the polls waited the
      // scheduler's closed-market look-again (30 s real) for the new calendar's answer
      let answer: (calendar: MarketCalendar) => void = () => undefined;
      const reading = {
        getKrMarketCalendar: () => new Promise<MarketCalendar>((resolve) => (answer = resolve)),
      } as unknown as BrokerClient;
      const clock = new VirtualClock('2026-11-30T10:00:00+09:00');
      const hours = new MarketHours(reading, clock);
      hours.set('KR', krCalendar());
      expect(hours.isOpen('KR')).toBe(true);
      clock.set('2026-12-03T10:00:00+09:00');
      expect(hours.isOpen('KR')).toBeUndefined();
      answer(krCalendar('2026-12-02', '2026-12-03', '2026-12-04'));
      await Promise.resolve();
      expect(hours.isOpen('KR')).toBe(true);
    });

    it('is closed, not unknown, on a calendar that still covers the instant while it is read again', () => {
      const clock = new VirtualClock('2026-11-30T10:00:00+09:00');
      const hours = new MarketHours(client, clock);
      hours.set('KR', krCalendar());
      // 31 minutes on: read again (never answered here); 20:05 Monday is between two sessions it shows
      clock.set('2026-11-30T20:05:00+09:00');
      expect(hours.isOpen('KR')).toBe(false);
    });
  });
});

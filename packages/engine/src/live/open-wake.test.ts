import type { BrokerClient } from '@hoga/connector';
import { type MarketCalendar, parseKrMarketCalendar, ScaledClock, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { OpenWakeHours } from './open-wake.js';

/** KR calendar around Monday 2026-11-30: Friday 11-27, Monday 11-30, Tuesday 12-01 (usual hours). */
function krCalendar(): MarketCalendar {
  const day = (date: string) => ({
    date,
    integrated: {
      preMarket: { startTime: `${date}T08:00:00+09:00`, endTime: `${date}T09:00:00+09:00` },
      regularMarket: { startTime: `${date}T09:00:00+09:00`, endTime: `${date}T15:30:00+09:00` },
      afterMarket: { startTime: `${date}T15:30:00+09:00`, endTime: `${date}T20:00:00+09:00` },
    },
  });
  return parseKrMarketCalendar({
    previousBusinessDay: day('2026-11-27'),
    today: day('2026-11-30'),
    nextBusinessDay: day('2026-12-01'),
  });
}

/** Market hours over a client whose calendar reads answer `calendar` (settled before the questions). */
async function hoursAt(clock: VirtualClock | ScaledClock, calendar: MarketCalendar | undefined) {
  const known = krCalendar();
  const client = {
    clock,
    getKrMarketCalendar: () => Promise.resolve(known),
    getUsMarketCalendar: () => Promise.reject(new Error('not asked')),
  } as unknown as BrokerClient;
  const hours = new OpenWakeHours({ client, clock, calendar: () => calendar });
  hours.isOpen('KR'); // starts the connector's calendar read
  await new Promise((r) => setTimeout(r, 0));
  return hours;
}

describe(OpenWakeHours, () => {
  it('answers closed far from the open, "look again soon" in the ten minutes before it, open once open', async () => {
    const clock = new VirtualClock('2026-11-30T07:00:00+09:00');
    const hours = await hoursAt(clock, krCalendar());
    expect(hours.isOpen('KR')).toBe(false);
    clock.set('2026-11-30T07:50:00+09:00');
    expect(hours.isOpen('KR')).toBeUndefined();
    clock.set('2026-11-30T07:59:59.900+09:00');
    expect(hours.isOpen('KR')).toBeUndefined();
    clock.set('2026-11-30T08:00:00+09:00');
    expect(hours.isOpen('KR')).toBe(true);
    // after the after-market: the next open is tomorrow 08:00
    clock.set('2026-11-30T20:05:00+09:00');
    expect(hours.isOpen('KR')).toBe(false);
  });

  it('wakes earlier against a fast clock: twice the 30 s look in clock time (x60: 60 minutes)', async () => {
    const clock = new ScaledClock({ start: '2026-11-30T07:05:00+09:00', speed: 0 });
    const hours = await hoursAt(clock, krCalendar());
    expect(hours.isOpen('KR')).toBe(false);
    clock.setSpeed(60);
    expect(hours.isOpen('KR')).toBeUndefined();
  });

  it('keeps the 30 s look while no calendar is known to the risk module', async () => {
    const clock = new VirtualClock('2026-11-30T07:59:00+09:00');
    const hours = await hoursAt(clock, undefined);
    expect(hours.isOpen('KR')).toBe(false);
  });
});

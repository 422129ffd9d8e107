import { checkAmountOrderWindow } from '@hoga/broker-model';
import { VirtualClock } from '@hoga/core';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { SimMarket } from '../market/sim-market.js';
import { orThrow } from './brokerage-errors.js';

/** The broker model's window rule over the simulated calendar, thrown as the simulator's HTTP answer. */
function checkWindow(market: SimMarket, field: string, at: DateTime): void {
  orThrow(checkAmountOrderWindow(field, market.usRegularSession(at), at));
}

function windowAnswer(at: string): string {
  const market = new SimMarket({ seed: 7, clock: new VirtualClock(at) });
  try {
    checkWindow(market, 'orderAmount', DateTime.fromISO(at, { setZone: true }));
    return 'accepted';
  } catch (error) {
    if (error instanceof SimApiError) return `${error.status} ${error.code}`;
    throw error;
  }
}

const OUTSIDE = '422 amount-order-outside-regular-hours';

describe('checkAmountOrderWindow', () => {
  // Winter: New York 09:30–16:00 EST is 23:30–06:00 KST, so the window closes at 05:00 KST.
  // Summer: 09:30–16:00 EDT is 22:30–05:00 KST, so it closes at 04:00 KST.
  it.each([
    ['2026-11-23T23:29:59.999+09:00', OUTSIDE],
    ['2026-11-23T23:30:00.000+09:00', 'accepted'],
    ['2026-11-24T04:59:59.999+09:00', 'accepted'],
    ['2026-11-24T05:00:00.000+09:00', OUTSIDE],
    ['2026-07-14T22:29:59.999+09:00', OUTSIDE],
    ['2026-07-14T22:30:00.000+09:00', 'accepted'],
    ['2026-07-15T03:59:59.999+09:00', 'accepted'],
    ['2026-07-15T04:00:00.000+09:00', OUTSIDE],
  ])('at %s answers %s (from the regular-session start until one hour before its end)', (at, expected) => {
    expect(windowAnswer(at)).toBe(expected);
  });

  it('names the field and gives the regular hours in data', () => {
    const at = '2026-11-24T05:30:00.000+09:00';
    const market = new SimMarket({ seed: 7, clock: new VirtualClock(at) });
    let caught: unknown;
    try {
      checkWindow(market, 'quantity', DateTime.fromISO(at, { setZone: true }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SimApiError);
    const data = (caught as SimApiError).data as {
      field: string;
      regularHours: { start: string; end: string };
    };
    expect(data.field).toBe('quantity');
    expect(DateTime.fromISO(data.regularHours.start).toMillis()).toBe(
      DateTime.fromISO('2026-11-23T23:30:00+09:00').toMillis(),
    );
    expect(DateTime.fromISO(data.regularHours.end).toMillis()).toBe(
      DateTime.fromISO('2026-11-24T06:00:00+09:00').toMillis(),
    );
  });
});

import { describe, expect, it } from 'vitest';
import {
  actions,
  changeSubject,
  createSubject,
  ctx,
  fixtureClock,
  openOrder,
  T0,
} from '../risk-fixture.test-helper.js';
import { loopKeyOf } from '../risk-types.js';
import { checkAccountThrottle, checkCancelReplaceLoop, checkSymbolThrottle } from './throttle-guards.js';

describe('throttle guards', () => {
  describe('checkSymbolThrottle', () => {
    it('accepts the 30th action of a minute on a symbol and denies the 31st, naming when it frees', () => {
      const clock = fixtureClock();
      expect(
        checkSymbolThrottle(ctx(clock, { actions: actions(29, T0, 1000) }), createSubject()).accepted,
      ).toBe(true);
      const v = checkSymbolThrottle(ctx(clock, { actions: actions(30, T0, 1000) }), createSubject());
      // the oldest of the 30 was at T0 - 29 s: the window frees one place 60 s after it
      expect(v).toMatchObject({
        accepted: false,
        code: 'risk-throttle-symbol',
        data: {
          cap: 'throttle.perSymbol',
          limit: 30,
          freesAtMs: T0 - 29_000 + 60_000,
          freesAt: '2026-11-23T10:00:31.000+09:00',
        },
      });
      // said as the other risk messages say a time, to the second (a window frees within a minute);
      // before, the ISO form 2026-11-23T10:00:31.000+09:00
      expect(v.accepted ? '' : v.reason).toBe(
        '005930: 30 order actions per 60 s reached; frees at 2026-11-23 10:00:31 KST (Mon), in 31 s',
      );
    });
    it('forgets actions older than the window', () => {
      const clock = fixtureClock();
      const c = () => ctx(clock, { actions: actions(30, T0, 1000) });
      clock.advance(31_000); // the oldest has left the window
      expect(checkSymbolThrottle(c(), createSubject()).accepted).toBe(true);
    });
    it('counts only the symbol, and never denies a cancel', () => {
      const clock = fixtureClock();
      const other = actions(30, T0, 100, { symbol: '000660' });
      expect(checkSymbolThrottle(ctx(clock, { actions: other }), createSubject()).accepted).toBe(true);
      const full = ctx(clock, { actions: actions(30, T0, 100) });
      expect(checkSymbolThrottle(full, changeSubject('cancel', openOrder())).accepted).toBe(true);
    });
  });

  describe('checkAccountThrottle', () => {
    it('accepts the 120th action of a minute and denies the 121st', () => {
      const clock = fixtureClock();
      const mixed = (n: number) => actions(n, T0, 400, { symbol: 'X' });
      expect(checkAccountThrottle(ctx(clock, { actions: mixed(119) }), createSubject()).accepted).toBe(true);
      expect(checkAccountThrottle(ctx(clock, { actions: mixed(120) }), createSubject())).toMatchObject({
        accepted: false,
        code: 'risk-throttle-account',
        data: { limit: 120, freesAtMs: T0 - 119 * 400 + 60_000 },
      });
    });
    it('honours a configured cap', () => {
      const clock = fixtureClock();
      const c = ctx(clock, {
        rawConfig: { throttle: { perAccount: 5 } },
        actions: actions(5, T0, 1, { symbol: 'X' }),
      });
      expect(checkAccountThrottle(c, createSubject()).accepted).toBe(false);
    });
  });

  describe('checkCancelReplaceLoop', () => {
    const key = loopKeyOf('s1', '005930', 'BUY');
    const replaces = (n: number) => actions(n, T0, 1000, { action: 'modify', replace: true, loopKey: key });
    it('accepts the 10th modify of an order in a minute and stops the 11th', () => {
      const clock = fixtureClock();
      const modify = changeSubject('modify', openOrder(), '69900');
      expect(checkCancelReplaceLoop(ctx(clock, { actions: replaces(9) }), modify).accepted).toBe(true);
      expect(checkCancelReplaceLoop(ctx(clock, { actions: replaces(10) }), modify)).toMatchObject({
        accepted: false,
        code: 'risk-cancel-replace-loop',
        data: { cap: 'throttle.loopMaxReplaces', limit: 10, freesAtMs: T0 - 9000 + 60_000 },
      });
      const v = checkCancelReplaceLoop(ctx(clock, { actions: replaces(10) }), modify);
      expect(v.accepted ? '' : v.reason).toBe(
        '005930 BUY of s1 was replaced 10 times in 60 s (cap 10); frees at 2026-11-23 10:00:51 KST (Mon), in 51 s',
      );
    });
    it('stops a create that re-places just-cancelled orders, but not a fresh order', () => {
      const clock = fixtureClock();
      const cancel = {
        tsMs: T0,
        strategyId: 's1',
        symbol: '005930',
        action: 'cancel' as const,
        loopKey: key,
        replace: false,
      };
      const c = ctx(clock, {
        rawConfig: { throttle: { loopMaxReplaces: 3 } },
        actions: [...replaces(3), cancel],
      });
      expect(checkCancelReplaceLoop(c, createSubject())).toMatchObject({
        accepted: false,
        code: 'risk-cancel-replace-loop',
      });
      // the opposite side has no cancel: not a replace
      expect(checkCancelReplaceLoop(c, createSubject({ side: 'SELL' })).accepted).toBe(true);
      const noCancel = ctx(clock, { rawConfig: { throttle: { loopMaxReplaces: 3 } }, actions: replaces(3) });
      expect(checkCancelReplaceLoop(noCancel, createSubject()).accepted).toBe(true);
    });
    it('frees once the loop window has passed', () => {
      const clock = fixtureClock();
      const modify = changeSubject('modify', openOrder(), '69900');
      clock.advance(51_000);
      expect(checkCancelReplaceLoop(ctx(clock, { actions: replaces(10) }), modify).accepted).toBe(true);
    });
  });
});

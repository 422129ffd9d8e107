import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { changeSubject, createSubject, ctx, fixtureClock, openOrder } from '../risk-fixture.test-helper.js';
import { TradingState } from '../risk-types.js';
import { checkDailyLoss, checkTradingState, dailyLossBreaches, isReducing } from './state-guards.js';

const held = [{ symbol: '005930', currency: 'KRW' as const, quantity: new Decimal(10) }];
const states = (over: Partial<Record<'account' | 'strategy' | 'symbol', TradingState>>) => ({
  account: TradingState.ACTIVE,
  strategy: TradingState.ACTIVE,
  symbol: TradingState.ACTIVE,
  ...over,
});

describe('state guards', () => {
  describe('checkTradingState', () => {
    it('accepts everything when ACTIVE', () => {
      expect(checkTradingState(ctx(fixtureClock()), createSubject()).accepted).toBe(true);
    });
    it('in REDUCING accepts a sell of held shares and denies a buy or an oversell', () => {
      const c = ctx(fixtureClock(), { states: states({ strategy: 'REDUCING' }), positions: held });
      expect(checkTradingState(c, createSubject({ side: 'SELL', quantity: '10' })).accepted).toBe(true);
      expect(checkTradingState(c, createSubject({ side: 'BUY' }))).toMatchObject({
        accepted: false,
        code: 'risk-reducing',
      });
      expect(checkTradingState(c, createSubject({ side: 'SELL', quantity: '11' })).accepted).toBe(false);
    });
    it('in REDUCING set by the daily loss limit says so, until when, and the way out', () => {
      const c = ctx(fixtureClock(), {
        mode: 'backtest',
        states: states({ strategy: 'REDUCING' }),
        stateEntry: () => ({
          source: 'daily-loss',
          reason: 'daily loss 1,000,000 KRW reached the limit of 1,000,000 KRW',
          sinceMs: Date.parse('2026-11-23T09:30:00+09:00'),
          untilMs: Date.parse('2026-11-24T08:00:00+09:00'),
        }),
      });
      const v = checkTradingState(c, createSubject({ side: 'BUY' }));
      expect(v.accepted ? '' : v.reason).toBe(
        'strategy s1 is REDUCING: only orders that reduce a position are accepted. Set by the daily loss ' +
          'limit (daily loss 1,000,000 KRW reached the limit of 1,000,000 KRW) since 2026-11-23 09:30 KST ' +
          '(Mon), until 2026-11-24 08:00 KST (Tue); hoga risk reset does not reach a backtest: a larger ' +
          'dailyLossLimitKrw in --risk-config lets it trade on',
      );
    });
    it('in HALTED accepts only cancels, whichever scope is halted', () => {
      for (const scope of ['account', 'strategy', 'symbol'] as const) {
        const c = ctx(fixtureClock(), { states: states({ [scope]: 'HALTED' }), positions: held });
        expect(checkTradingState(c, createSubject({ side: 'SELL' }))).toMatchObject({
          accepted: false,
          code: 'risk-halted',
        });
        expect(checkTradingState(c, changeSubject('cancel', openOrder())).accepted).toBe(true);
      }
    });
  });

  describe('the scopes restricted beneath the one that decided', () => {
    const entries: Record<
      string,
      { source: string; reason: string; sinceMs: number; untilMs: number | null }
    > = {
      account: {
        source: 'daily-loss',
        reason: 'daily loss 3,000,000 KRW reached the limit of 3,000,000 KRW',
        sinceMs: Date.parse('2026-11-23T09:30:00+09:00'),
        untilMs: Date.parse('2026-11-24T08:00:00+09:00'),
      },
      strategy: {
        source: 'manual',
        reason: 'runaway',
        sinceMs: Date.parse('2026-11-23T09:00:00+09:00'),
        untilMs: null,
      },
    };
    const both = (mode: 'live' | 'backtest') =>
      ctx(fixtureClock(), {
        mode,
        states: states({ account: 'REDUCING', strategy: 'HALTED' }),
        stateEntry: (scope) => entries[scope.kind],
      });
    it('are named after the way out of the one that decided, each with its own (live)', () => {
      const v = checkTradingState(both('live'), createSubject({ side: 'BUY' }));
      expect(v.accepted ? '' : v.reason).toMatch(
        /^Trading is halted for strategy s1: .*; to lift it: hoga risk reset --strategy s1\. Also in force: the account REDUCING \(daily-loss: daily loss 3,000,000 KRW reached the limit of 3,000,000 KRW; until 2026-11-24 08:00 KST \(Tue\)\), to lift: hoga risk reset --account$/,
      );
      expect(v).toMatchObject({
        data: { alsoInForce: [{ scope: 'account', state: 'REDUCING', source: 'daily-loss' }] },
      });
    });
    it('name no command in a backtest, which hoga risk reset does not reach', () => {
      const v = checkTradingState(both('backtest'), createSubject({ side: 'BUY' }));
      expect(v.accepted ? '' : v.reason).toMatch(
        /\. Also in force: the account REDUCING \(daily-loss: [^)]*\)\)$/,
      );
    });
    it('are not named when the others are ACTIVE', () => {
      const v = checkTradingState(
        ctx(fixtureClock(), { states: states({ strategy: 'HALTED' }) }),
        createSubject({ side: 'BUY' }),
      );
      expect(v.accepted ? '' : v.reason).not.toContain('Also in force');
      expect(v).not.toHaveProperty('data.alsoInForce');
    });
  });

  describe("the way out a denial names follows the run's mode", () => {
    const halted = (mode?: 'live' | 'paper' | 'backtest') =>
      ctx(fixtureClock(), {
        ...(mode === undefined ? {} : { mode }),
        states: states({ strategy: 'HALTED' }),
        stateEntry: () => ({
          source: 'daily-loss',
          reason: 'daily loss 1000000 KRW reached the limit of 1000000 KRW',
          sinceMs: Date.parse('2026-11-23T09:30:00+09:00'),
          untilMs: Date.parse('2026-11-24T08:00:00+09:00'),
        }),
      });
    const reasonOf = (v: ReturnType<typeof checkTradingState>) => (v.accepted ? '' : v.reason);
    const set =
      'Trading is halted for strategy s1: only cancels are accepted. Set by the daily loss limit ' +
      '(daily loss 1000000 KRW reached the limit of 1000000 KRW) since 2026-11-23 09:30 KST (Mon), ' +
      'until 2026-11-24 08:00 KST (Tue)';
    it('live: hoga risk reset, with no word of paper', () => {
      const v = checkTradingState(halted('live'), createSubject());
      expect(reasonOf(v)).toBe(`${set}; to lift it sooner: hoga risk reset --strategy s1`);
      expect(v).toMatchObject({ data: { lift: 'hoga risk reset --strategy s1' } });
      // a context that does not say its mode is live's (hoga order)
      expect(reasonOf(checkTradingState(halted(), createSubject()))).toBe(reasonOf(v));
    });
    it('paper: hoga risk reset --mode paper', () => {
      const v = checkTradingState(halted('paper'), createSubject());
      expect(reasonOf(v)).toBe(`${set}; to lift it sooner: hoga risk reset --strategy s1 --mode paper`);
      expect(v).toMatchObject({ data: { lift: 'hoga risk reset --strategy s1 --mode paper' } });
    });
    it('backtest: no command reaches the run: the halt ends by itself, and a larger limit avoids it', () => {
      const v = checkTradingState(halted('backtest'), createSubject());
      expect(reasonOf(v)).toBe(
        `${set}; hoga risk reset does not reach a backtest: a larger dailyLossLimitKrw in --risk-config lets it trade on`,
      );
      expect(v.accepted ? {} : v.data).not.toHaveProperty('lift');
    });
    it('backtest, an account halt: names the account limit', () => {
      const c = { ...halted('backtest'), states: states({ account: 'HALTED' }) };
      expect(reasonOf(checkTradingState(c, createSubject()))).toContain(
        'a larger account.dailyLossLimitKrw in --risk-config lets it trade on',
      );
    });
    it('the daily loss denial: live, paper and backtest each name their way out', () => {
      const lost = (mode: 'live' | 'paper' | 'backtest') =>
        checkDailyLoss(
          ctx(fixtureClock(), {
            mode,
            dailyPnlKrw: { strategy: new Decimal(-1_000_000), account: new Decimal(-1_000_000) },
          }),
          createSubject(),
        );
      const head =
        'Strategy s1 lost 1,000,000 KRW today, at or over its limit of 1,000,000 KRW; frees at 2026-11-24 08:00 KST (Tue)';
      expect(reasonOf(lost('live'))).toBe(`${head} or on hoga risk reset --strategy s1`);
      expect(reasonOf(lost('paper'))).toBe(`${head} or on hoga risk reset --strategy s1 --mode paper`);
      expect(reasonOf(lost('backtest'))).toBe(
        `${head}; hoga risk reset does not reach a backtest: a larger dailyLossLimitKrw in --risk-config lets it trade on`,
      );
    });
  });

  describe('isReducing', () => {
    it('nets the strategy own open sells from what it holds', () => {
      const c = ctx(fixtureClock(), {
        positions: held,
        openOrders: [openOrder({ side: 'SELL', remainingQuantity: new Decimal(6) })],
      });
      expect(isReducing(c, createSubject({ side: 'SELL', quantity: '4' }))).toBe(true);
      expect(isReducing(c, createSubject({ side: 'SELL', quantity: '5' }))).toBe(false);
    });
  });

  describe('checkDailyLoss', () => {
    it('accepts while the loss is under the strategy limit (default 1,000,000 KRW)', () => {
      const c = ctx(fixtureClock(), {
        dailyPnlKrw: { strategy: new Decimal(-999_999), account: new Decimal(-999_999) },
      });
      expect(checkDailyLoss(c, createSubject()).accepted).toBe(true);
      expect(dailyLossBreaches(c, 's1')).toEqual([]);
    });
    it('denies at the strategy limit until the next trading day (08:00 KST)', () => {
      const c = ctx(fixtureClock(), {
        dailyPnlKrw: { strategy: new Decimal(-1_000_000), account: new Decimal(-1_000_000) },
      });
      const v = checkDailyLoss(c, createSubject());
      expect(v).toMatchObject({
        accepted: false,
        code: 'risk-daily-loss-strategy',
        data: { freesAtMs: Date.parse('2026-11-24T08:00:00+09:00') },
      });
      expect(dailyLossBreaches(c, 's1')).toEqual([{ kind: 'strategy', strategyId: 's1' }]);
      expect(checkDailyLoss(c, changeSubject('cancel', openOrder())).accepted).toBe(true);
    });
    it('with dailyLossAction "reduce", lets a sell of held shares through and denies a buy risk-reducing', () => {
      const c = ctx(fixtureClock(), {
        mode: 'paper',
        positions: held,
        rawConfig: { defaults: { dailyLossAction: 'reduce' } },
        dailyPnlKrw: { strategy: new Decimal(-1_200_000), account: new Decimal(-1_200_000) },
      });
      expect(checkDailyLoss(c, createSubject({ side: 'SELL', quantity: '10' })).accepted).toBe(true);
      expect(checkDailyLoss(c, createSubject({ side: 'SELL', quantity: '11' }))).toMatchObject({
        accepted: false,
        code: 'risk-reducing',
      });
      const v = checkDailyLoss(c, createSubject({ side: 'BUY' }));
      expect(v).toMatchObject({
        accepted: false,
        code: 'risk-reducing',
        data: { cap: 'dailyLossLimitKrw', limit: '1000000', pnlKrw: '-1200000', action: 'reduce' },
      });
      expect(v.accepted ? '' : v.reason).toBe(
        'Strategy s1 lost 1,200,000 KRW today, at or over its limit of 1,000,000 KRW: only orders that ' +
          'reduce a position are accepted; frees at 2026-11-24 08:00 KST (Tue) or on hoga risk reset ' +
          '--strategy s1 --mode paper',
      );
    });
    it('denies at the account limit (default 3,000,000 KRW) first', () => {
      const c = ctx(fixtureClock(), {
        dailyPnlKrw: { strategy: new Decimal(0), account: new Decimal(-3_000_000) },
      });
      expect(checkDailyLoss(c, createSubject())).toMatchObject({
        accepted: false,
        code: 'risk-daily-loss-account',
      });
    });
  });
});

import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { buy, setup } from './risk-engine.test-helper.js';
import { T0 } from './risk-fixture.test-helper.js';

const idOf = (c: ReturnType<typeof buy>) => (c.type === 'SubmitOrder' ? c.intent.clientOrderId : '');

describe('the kill switch with dailyLossAction "reduce"', () => {
  it('sets the strategy REDUCING, cancels only its working buys, and lets its exits through', () => {
    const { submit, fill, engine, book, gateway, cancels } = setup({
      strategies: { s1: { dailyLossLimitKrw: '500000', dailyLossAction: 'reduce' } },
    });
    const entry = buy('005930', '100', '70000');
    expect(submit(entry).accepted).toBe(true);
    fill(entry, '70000');
    const restingBuy = buy('000660', '1', '100000');
    const restingSell = buy('005930', '40', '80000', 's1', 'SELL');
    expect(submit(restingBuy).accepted).toBe(true);
    expect(submit(restingSell).accepted).toBe(true);
    book.notePrice('005930', new Decimal(65000), T0); // -500,000
    engine.evaluate();
    expect(gateway.entry({ kind: 'strategy', strategyId: 's1' })).toMatchObject({
      state: 'REDUCING',
      source: 'daily-loss',
      reason: 'daily loss 500,000 KRW reached the limit of 500,000 KRW',
      untilMs: Date.parse('2026-11-24T08:00:00+09:00'),
    });
    expect(cancels.map((c) => c.clientOrderId)).toEqual([idOf(restingBuy)]);
    // the 60 shares not offered may be sold; a 61st or a buy is denied
    expect(submit(buy('005930', '60', '65000', 's1', 'SELL')).accepted).toBe(true);
    expect(submit(buy('005930', '1', '65000', 's1', 'SELL'))).toMatchObject({
      accepted: false,
      code: 'risk-reducing',
    });
    const denied = submit(buy('005930', '1', '65000'));
    expect(denied).toMatchObject({
      accepted: false,
      code: 'risk-reducing',
      data: { cap: 'dailyLossLimitKrw', action: 'reduce', pnlKrw: '-500000' },
    });
    expect(denied.accepted ? '' : denied.reason).toBe(
      'Strategy s1 lost 500,000 KRW today, at or over its limit of 500,000 KRW: only orders that reduce a ' +
        'position are accepted; frees at 2026-11-24 08:00 KST (Tue) or on hoga risk reset --strategy s1',
    );
  });

  it('an account breach with "halt" denies even a strategy’s exit that its own "reduce" would pass', () => {
    const { submit, fill, engine, book, gateway } = setup({
      account: { dailyLossLimitKrw: '500000' },
      strategies: { s1: { dailyLossLimitKrw: '500000', dailyLossAction: 'reduce' } },
    });
    const entry = buy('005930', '100', '70000');
    expect(submit(entry).accepted).toBe(true);
    fill(entry, '70000');
    book.notePrice('005930', new Decimal(65000), T0);
    engine.evaluate();
    expect(gateway.state({ kind: 'account' })).toBe('HALTED');
    expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('REDUCING');
    expect(submit(buy('005930', '10', '65000', 's1', 'SELL'))).toMatchObject({
      accepted: false,
      code: 'risk-daily-loss-account',
    });
  });

  it('the account with "reduce": REDUCING, and a sell of held shares passes', () => {
    const { submit, fill, engine, book, gateway } = setup({
      account: { dailyLossLimitKrw: '500000', dailyLossAction: 'reduce' },
    });
    const entry = buy('005930', '100', '70000');
    expect(submit(entry).accepted).toBe(true);
    fill(entry, '70000');
    book.notePrice('005930', new Decimal(65000), T0);
    engine.evaluate();
    expect(gateway.state({ kind: 'account' })).toBe('REDUCING');
    expect(submit(buy('005930', '100', '65000', 's1', 'SELL')).accepted).toBe(true);
    expect(submit(buy('000660', '1', '100000', 's2'))).toMatchObject({
      accepted: false,
      code: 'risk-reducing',
    });
  });
});

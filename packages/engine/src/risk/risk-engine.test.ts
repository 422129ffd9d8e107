import { clientOrderId, Decimal, strategyId, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { OrderCommand } from '../commands/order-commands.js';
import { RiskBook } from './risk-book.js';
import { parseRiskConfig } from './risk-config.js';
import { RiskEngine } from './risk-engine.js';
import { buy, setup } from './risk-engine.test-helper.js';
import { T0 } from './risk-fixture.test-helper.js';
import { TradingStateGateway } from './trading-state-gateway.js';
import { MemoryTradingStatePersistence } from './trading-state-persistence.js';

describe(RiskEngine, () => {
  describe('.check', () => {
    it('accepts everything when switched off', () => {
      const { engine } = setup({ enabled: false, defaults: { maxOrderValueKrw: '1' } });
      expect(engine.check(buy('005930', '10', '70000')).accepted).toBe(true);
    });

    it('throttles the 31st order action on a symbol within a minute and frees it after', () => {
      const { submit, clock } = setup();
      for (let i = 0; i < 30; i++) {
        expect(submit(buy('005930', '1', '70000', `s${i}`)).accepted).toBe(true);
        clock.advance(100);
      }
      expect(submit(buy('005930', '1', '70000', 'sX'))).toMatchObject({
        accepted: false,
        code: 'risk-throttle-symbol',
      });
      expect(submit(buy('000660', '1', '100000', 'sX')).accepted).toBe(true);
      clock.advance(60_000);
      expect(submit(buy('005930', '1', '70000', 'sX')).accepted).toBe(true);
    });

    it('leaves the throttles out when told (backtests: no broker connection to protect)', () => {
      const clock = new VirtualClock(T0);
      const engine = new RiskEngine({
        clock,
        config: parseRiskConfig({ defaults: { maxOpenOrders: 100 } }),
        gateway: new TradingStateGateway(clock, new MemoryTradingStatePersistence()),
        view: new RiskBook(),
        throttles: false,
      });
      const verdicts = Array.from({ length: 40 }, () => engine.check(buy('005930', '1', '70000')).accepted);
      expect(verdicts.every(Boolean)).toBe(true);
    });

    it('denies a modify or cancel of an unknown order with the broker code order-not-found', () => {
      const { engine } = setup();
      const cancel: OrderCommand = {
        type: 'CancelOrder',
        commandId: 'x',
        strategyId: strategyId('s1'),
        tsInit: T0,
        clientOrderId: clientOrderId('nope'),
      };
      expect(engine.check(cancel)).toMatchObject({ accepted: false, code: 'order-not-found' });
    });

    it('gives an OrderDenied event with the code and reason', () => {
      const { engine } = setup({ defaults: { maxOrderValueKrw: '100' } });
      const command = buy('005930', '1', '70000');
      const verdict = engine.check(command);
      expect(engine.deniedEvent(command, verdict)).toMatchObject({
        type: 'OrderDenied',
        strategyId: 's1',
        code: 'risk-max-order-value',
        tsEvent: T0,
      });
    });
  });

  describe('.reconciliationMismatch', () => {
    it('halts the symbol: new orders in it are denied, other symbols and cancels go on', () => {
      const { engine, submit, gateway, store } = setup();
      const resting = buy('005930', '1', '60000');
      expect(submit(resting).accepted).toBe(true);
      engine.reconciliationMismatch('005930', 'broker holds 100, hoga 90');
      expect(gateway.entry({ kind: 'symbol', symbol: '005930' })).toMatchObject({
        state: 'HALTED',
        source: 'reconciliation',
      });
      expect(submit(buy('005930', '1', '60000'))).toMatchObject({ accepted: false, code: 'risk-halted' });
      expect(submit(buy('000660', '1', '100000')).accepted).toBe(true);
      const cancel: OrderCommand = {
        type: 'CancelOrder',
        commandId: 'cx',
        strategyId: strategyId('s1'),
        tsInit: T0,
        clientOrderId: resting.type === 'SubmitOrder' ? resting.intent.clientOrderId : clientOrderId('x'),
      };
      expect(engine.check(cancel).accepted).toBe(true);
      expect(store.journalled.at(-1)).toMatchObject({
        scope: 'symbol:005930',
        reason: 'broker holds 100, hoga 90',
      });
    });
  });

  it('a denial of an operator halt (hoga risk set) says by whom, why, since when and how to lift it', () => {
    const { submit, gateway } = setup();
    gateway.set({ kind: 'strategy', strategyId: 's1' }, 'HALTED', 'manual', 'broker maintenance');
    const denied = submit(buy('005930', '1', '60000'));
    expect(denied).toMatchObject({ accepted: false, code: 'risk-halted' });
    expect(denied.accepted ? '' : denied.reason).toBe(
      'Trading is halted for strategy s1: only cancels are accepted. Set by an operator (hoga risk set) ' +
        '(broker maintenance) since 2026-11-23 10:00 KST (Mon), until lifted by hand; to lift it: ' +
        'hoga risk reset --strategy s1',
    );
    expect(denied).toMatchObject({ data: { scope: 'strategy:s1', source: 'manual', untilMs: null } });
  });

  describe('position value without prices', () => {
    it('counts open limit buys when no price is known, and lets market buys by quantity through', () => {
      const { submit } = setup({ strategies: { s1: { maxPositionValuePerSymbolKrw: '1000000' } } });
      // no price fed to the book: a limit buy is worth its limit price
      expect(submit(buy('005930', '10', '70000')).accepted).toBe(true);
      expect(submit(buy('005930', '5', '70000'))).toMatchObject({
        accepted: false,
        code: 'risk-max-position-value-symbol',
        reason: expect.stringContaining('would be worth 1,050,000 KRW'),
      });
    });
  });

  describe('kill switch', () => {
    it('halts a strategy that loses past its daily limit, cancels its open orders and denies new ones', () => {
      const { submit, fill, engine, book, gateway, cancels, store } = setup({
        strategies: { s1: { dailyLossLimitKrw: '500000' } },
      });
      const entry = buy('005930', '100', '70000');
      expect(submit(entry).accepted).toBe(true);
      fill(entry, '70000');
      const resting = buy('005930', '10', '60000');
      expect(submit(resting).accepted).toBe(true);
      const other = buy('000660', '1', '100000', 's2');
      expect(submit(other).accepted).toBe(true);
      book.notePrice('005930', new Decimal(65100), T0); // -490,000
      engine.evaluate();
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('ACTIVE');
      book.notePrice('005930', new Decimal(65000), T0); // -500,000
      engine.evaluate();
      expect(gateway.entry({ kind: 'strategy', strategyId: 's1' })).toMatchObject({
        state: 'HALTED',
        source: 'daily-loss',
        untilMs: Date.parse('2026-11-24T08:00:00+09:00'),
      });
      expect(cancels.map((c) => c.clientOrderId)).toEqual([
        resting.type === 'SubmitOrder' ? resting.intent.clientOrderId : '',
      ]);
      expect(submit(buy('005930', '1', '65000'))).toMatchObject({
        accepted: false,
        code: 'risk-daily-loss-strategy',
      });
      expect(submit(buy('000660', '1', '100000', 's2')).accepted).toBe(true);
      expect(store.journalled.at(-1)).toMatchObject({
        scope: 'strategy:s1',
        to: 'HALTED',
        source: 'daily-loss',
      });
    });

    it("cancels the strategy's order restored from an earlier run with the rest", () => {
      const { submit, fill, engine, book, cancels } = setup({
        strategies: { s1: { dailyLossLimitKrw: '500000' } },
      });
      book.restoreOpen({
        clientOrderId: 'earlier-1',
        strategyId: 's1',
        symbol: '000660',
        market: 'KR',
        currency: 'KRW',
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'DAY',
        price: new Decimal(100_000),
        quantity: new Decimal(3),
        amount: null,
        filledQuantity: new Decimal(0),
        averageFillPrice: null,
      });
      const entry = buy('005930', '100', '70000');
      expect(submit(entry).accepted).toBe(true);
      fill(entry, '70000');
      book.notePrice('005930', new Decimal(65000), T0); // -500,000
      engine.evaluate();
      expect(cancels.map((c) => [c.clientOrderId, c.strategyId])).toEqual([['earlier-1', 's1']]);
    });

    it('trips at the next check when a price moves the PnL past the limit between checks (no evaluate)', () => {
      const { submit, fill, book, gateway } = setup({ strategies: { s1: { dailyLossLimitKrw: '500000' } } });
      const entry = buy('005930', '100', '70000');
      expect(submit(entry).accepted).toBe(true);
      fill(entry, '70000');
      // found clear at this fill and at this check: the next checks have nothing new to evaluate
      expect(submit(buy('000660', '1', '100000')).accepted).toBe(true);
      book.notePrice('005930', new Decimal(64900), T0); // -510,000
      expect(submit(buy('000660', '1', '100000'))).toMatchObject({
        accepted: false,
        code: 'risk-daily-loss-strategy',
      });
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('HALTED');
    });

    it('trips on realised losses alone (no prices), at the limit exactly and not a won before', () => {
      const { submit, fill, gateway } = setup({ strategies: { s1: { dailyLossLimitKrw: '500000' } } });
      const entry = buy('005930', '100', '70000');
      submit(entry);
      fill(entry, '70000');
      // sold 1 won a share below cost short of 1: −499,999 realised, clear
      const first = buy('005930', '99', '64950', 's1', 'SELL');
      expect(submit(first).accepted).toBe(true);
      fill(first, '64950'); // (64950 − 70000) × 99 = −499,950
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('ACTIVE');
      const last = buy('005930', '1', '69951', 's1', 'SELL');
      expect(submit(last).accepted).toBe(true);
      fill(last, '69951'); // −49: −499,999 in all
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('ACTIVE');
      const again = buy('000660', '1', '100000');
      expect(submit(again).accepted).toBe(true);
      fill(again, '100000');
      const out = buy('000660', '1', '99999', 's1', 'SELL');
      expect(submit(out).accepted).toBe(true);
      fill(out, '99999'); // −1: −500,000, at the limit
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('HALTED');
      expect(submit(buy('000660', '1', '100000'))).toMatchObject({
        accepted: false,
        code: 'risk-daily-loss-strategy',
        reason: expect.stringContaining('lost 500,000 KRW today'),
      });
    });

    it('trips on a realised loss with a fraction of a won (the Decimal evaluation)', () => {
      const { submit, fill, gateway } = setup({ strategies: { s1: { dailyLossLimitKrw: '100.5' } } });
      const entry = buy('005930', '1', '70000');
      submit(entry);
      fill(entry, '70000');
      const out = buy('005930', '1', '69900', 's1', 'SELL');
      expect(submit(out).accepted).toBe(true);
      fill(out, '69900', '0.5'); // −100 − 0.5 of commission
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('HALTED');
    });

    it('trips and denies on every check when the view carries no revision', () => {
      const clock = new VirtualClock(T0);
      const book = new RiskBook();
      const view = {
        openOrders: () => book.openOrders(),
        order: (id: string) => book.order(id),
        positions: (s: string) => book.positions(s),
        lastPrices: () => book.lastPrices(),
        usdKrw: () => book.usdKrw(),
        dailyPnlKrw: () => new Decimal(-600_000),
      };
      const gateway = new TradingStateGateway(clock, new MemoryTradingStatePersistence());
      const engine = new RiskEngine({
        clock,
        config: parseRiskConfig({ strategies: { s1: { dailyLossLimitKrw: '500000' } } }),
        gateway,
        view,
      });
      for (let i = 0; i < 2; i++) {
        expect(engine.check(buy('005930', '1', '70000'))).toMatchObject({
          accepted: false,
          code: 'risk-daily-loss-strategy',
        });
      }
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('HALTED');
    });

    it('lets the strategy trade again after a manual reset, counting the limit from the trip', () => {
      const { submit, fill, engine, book, gateway } = setup({
        strategies: { s1: { dailyLossLimitKrw: '500000' } },
      });
      const entry = buy('005930', '100', '70000');
      submit(entry);
      fill(entry, '70000');
      book.notePrice('005930', new Decimal(65000), T0);
      engine.evaluate();
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('HALTED');
      gateway.reset('hoga risk reset');
      expect(submit(buy('005930', '1', '65000')).accepted).toBe(true);
      book.notePrice('005930', new Decimal(60000), T0); // another -500,000 from the trip
      engine.evaluate();
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('HALTED');
    });

    it('halts the account past the account limit and cancels every open order', () => {
      const { submit, fill, engine, book, gateway, cancels } = setup({
        account: { dailyLossLimitKrw: '300000' },
        defaults: { dailyLossLimitKrw: '1000000' },
      });
      const a = buy('005930', '100', '70000', 's1');
      submit(a);
      fill(a, '70000');
      submit(buy('000660', '1', '100000', 's2'));
      book.notePrice('005930', new Decimal(67000), T0);
      engine.evaluate();
      expect(gateway.state({ kind: 'account' })).toBe('HALTED');
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('ACTIVE');
      expect(cancels).toHaveLength(1);
      expect(submit(buy('000660', '1', '100000', 's2'))).toMatchObject({
        accepted: false,
        code: 'risk-daily-loss-account',
      });
    });
  });
});

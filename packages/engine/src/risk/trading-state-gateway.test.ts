import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { parseRiskConfig } from './risk-config.js';
import { T0 } from './risk-fixture.test-helper.js';
import { StaleDataMonitor } from './stale-data-monitor.js';
import { TradingStateGateway } from './trading-state-gateway.js';
import { MemoryTradingStatePersistence } from './trading-state-persistence.js';

function setup() {
  const clock = new VirtualClock(T0);
  const store = new MemoryTradingStatePersistence();
  return { clock, store, gateway: new TradingStateGateway(clock, store) };
}

describe('TradingStateGateway', () => {
  describe('.set', () => {
    it('changes a scope and journals the change with its reason', () => {
      const { gateway, store } = setup();
      expect(gateway.set({ kind: 'strategy', strategyId: 's1' }, 'HALTED', 'manual', 'operator')).toBe(true);
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('HALTED');
      expect(gateway.state({ kind: 'account' })).toBe('ACTIVE');
      expect(store.journalled).toMatchObject([
        {
          type: 'TradingStateChanged',
          scope: 'strategy:s1',
          strategyId: 's1',
          from: 'ACTIVE',
          to: 'HALTED',
          source: 'manual',
          reason: 'operator',
          tsEvent: T0,
        },
      ]);
    });
    it('does not loosen a stricter state from another source, and repeats nothing', () => {
      const { gateway, store } = setup();
      gateway.set({ kind: 'account' }, 'HALTED', 'daily-loss', 'lost');
      expect(gateway.set({ kind: 'account' }, 'REDUCING', 'stale-data', 'stale')).toBe(false);
      expect(gateway.set({ kind: 'account' }, 'HALTED', 'daily-loss', 'lost')).toBe(false);
      expect(gateway.state({ kind: 'account' })).toBe('HALTED');
      expect(store.journalled).toHaveLength(1);
    });
    it('keeps a daily-loss REDUCING when stale data sets the same state, so data flowing again does not lift it', () => {
      // before, stale data's REDUCING replaced the kill switch's (its end lost), and its recovery
      // lifted the account to ACTIVE for the rest of the day
      const { gateway } = setup();
      gateway.set({ kind: 'account' }, 'REDUCING', 'daily-loss', 'lost', T0 + 86_400_000);
      expect(gateway.set({ kind: 'account' }, 'REDUCING', 'stale-data', 'stale')).toBe(false);
      expect(gateway.liftIf({ kind: 'account' }, 'stale-data', 'data flows')).toBe(false);
      expect(gateway.entry({ kind: 'account' })).toMatchObject({
        state: 'REDUCING',
        source: 'daily-loss',
        untilMs: T0 + 86_400_000,
      });
      // an operator still can
      expect(gateway.set({ kind: 'account' }, 'REDUCING', 'manual', 'operator')).toBe(true);
    });
    it("keeps an operator's HALTED when the daily loss limit halts the same scope, so it does not lapse the next day", () => {
      // before, the kill switch's HALTED replaced the operator's and gave it an end: the halt set by
      // hand (`hoga risk set`, until lifted by hand) ended at the next trading day
      const { gateway, clock } = setup();
      gateway.set({ kind: 'strategy', strategyId: 's1' }, 'HALTED', 'manual', 'operator');
      expect(
        gateway.set({ kind: 'strategy', strategyId: 's1' }, 'HALTED', 'daily-loss', 'lost', T0 + 1000),
      ).toBe(false);
      clock.advance(2000);
      expect(gateway.entry({ kind: 'strategy', strategyId: 's1' })).toMatchObject({
        state: 'HALTED',
        source: 'manual',
        untilMs: null,
      });
    });
    it('lets a kill switch lapse at its end (the next trading day)', () => {
      const { gateway, clock, store } = setup();
      gateway.set({ kind: 'strategy', strategyId: 's1' }, 'HALTED', 'daily-loss', 'lost', T0 + 1000);
      clock.advance(999);
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('HALTED');
      clock.advance(1);
      expect(gateway.state({ kind: 'strategy', strategyId: 's1' })).toBe('ACTIVE');
      expect(store.journalled.at(-1)).toMatchObject({ to: 'ACTIVE', source: 'new-trading-day' });
    });
  });

  describe('.reset', () => {
    it('puts every restricted scope back to ACTIVE by hand', () => {
      const { gateway, store } = setup();
      gateway.set({ kind: 'account' }, 'HALTED', 'daily-loss', 'lost');
      gateway.set({ kind: 'symbol', symbol: '005930' }, 'REDUCING', 'reconciliation', 'mismatch');
      expect(gateway.reset('hoga risk reset')).toHaveLength(2);
      expect(gateway.snapshot().size).toBe(0);
      expect(store.journalled.slice(-2).every((e) => e.to === 'ACTIVE' && e.source === 'manual')).toBe(true);
    });
    it('is seen by a second gateway on the same storage after sync', () => {
      const { gateway, store, clock } = setup();
      gateway.set({ kind: 'account' }, 'HALTED', 'manual', 'stop');
      const other = new TradingStateGateway(clock, store);
      expect(other.state({ kind: 'account' })).toBe('HALTED');
      other.reset('reset');
      gateway.sync();
      expect(gateway.state({ kind: 'account' })).toBe('ACTIVE');
    });
  });

  describe('.statusLine', () => {
    it('shows each restricted scope with its reason', () => {
      const { gateway } = setup();
      expect(gateway.statusLine()).toBe('risk: all ACTIVE');
      gateway.set({ kind: 'strategy', strategyId: 's1' }, 'REDUCING', 'manual', 'winding down');
      expect(gateway.statusLine()).toBe('risk: strategy:s1 REDUCING (manual: winding down)');
    });
    it('says until when a kill switch holds (before: nothing, as if it held until reset)', () => {
      const { gateway } = setup();
      gateway.set(
        { kind: 'account' },
        'HALTED',
        'daily-loss',
        'daily loss 3000000 KRW reached the limit of 3000000 KRW',
        Date.parse('2026-11-24T08:00:00+09:00'),
      );
      expect(gateway.statusLine()).toBe(
        'risk: account HALTED (daily-loss: daily loss 3000000 KRW reached the limit of 3000000 KRW; ' +
          'until 2026-11-24 08:00 KST (Tue))',
      );
    });
  });
});

describe('StaleDataMonitor', () => {
  describe('.evaluate', () => {
    it('moves the account to REDUCING without an order-history poll for 120 s, and back after one', () => {
      const { gateway, clock } = setup();
      const monitor = new StaleDataMonitor(clock, parseRiskConfig(), gateway);
      clock.advance(120_000);
      monitor.evaluate();
      expect(gateway.state({ kind: 'account' })).toBe('ACTIVE');
      clock.advance(1);
      monitor.evaluate();
      expect(gateway.entry({ kind: 'account' })).toMatchObject({ state: 'REDUCING', source: 'stale-data' });
      monitor.noteOrderPoll();
      monitor.evaluate();
      expect(gateway.state({ kind: 'account' })).toBe('ACTIVE');
    });
    it('moves a symbol without prices for 300 s to REDUCING only while it trades', () => {
      const { gateway, clock } = setup();
      let trading = false;
      const monitor = new StaleDataMonitor(clock, parseRiskConfig(), gateway, () => trading);
      monitor.notePrice('005930');
      clock.advance(300_001);
      monitor.noteOrderPoll();
      monitor.evaluate();
      expect(gateway.state({ kind: 'symbol', symbol: '005930' })).toBe('ACTIVE');
      trading = true;
      monitor.evaluate();
      expect(gateway.state({ kind: 'symbol', symbol: '005930' })).toBe('REDUCING');
      monitor.notePrice('005930');
      monitor.evaluate();
      expect(gateway.state({ kind: 'symbol', symbol: '005930' })).toBe('ACTIVE');
    });
    it('does not lift a halt someone else set', () => {
      const { gateway, clock } = setup();
      const monitor = new StaleDataMonitor(clock, parseRiskConfig(), gateway);
      gateway.set({ kind: 'account' }, 'HALTED', 'manual', 'stop');
      monitor.evaluate();
      expect(gateway.entry({ kind: 'account' })).toMatchObject({ state: 'HALTED', source: 'manual' });
    });
  });
});

import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { TradingStateGateway } from './trading-state-gateway.js';
import { MemoryTradingStatePersistence } from './trading-state-persistence.js';
import { statusLineOf, viewTradingStates } from './trading-state-view.js';

const T0 = Date.parse('2026-11-23T13:00:00+09:00');
const NEXT_DAY = Date.parse('2026-11-24T08:00:00+09:00');

describe('viewTradingStates', () => {
  it('shows what the gateway would after a kill switch lapsed, and changes nothing', () => {
    const store = new MemoryTradingStatePersistence();
    const clock = new VirtualClock(T0);
    const gateway = new TradingStateGateway(clock, store);
    const s1 = { kind: 'strategy', strategyId: 's1' } as const;
    gateway.set(s1, 'REDUCING', 'manual', 'winding down');
    gateway.set(s1, 'HALTED', 'daily-loss', 'daily loss over the limit', NEXT_DAY);
    const kept = store.load();
    const journalled = store.journalled.length;

    clock.set(NEXT_DAY);
    const view = viewTradingStates(store, clock.nowMs());
    expect(store.load()).toEqual(kept);
    expect(store.journalled).toHaveLength(journalled);
    expect(view.lapsed).toEqual([
      {
        scope: 'strategy:s1',
        state: 'HALTED',
        source: 'daily-loss',
        reason: 'daily loss over the limit',
        sinceMs: T0,
        untilMs: NEXT_DAY,
        lapsed: true,
      },
    ]);
    // the gateway's read lapses it (and journals that); the view said the same beforehand
    expect(statusLineOf(view.states)).toBe(new TradingStateGateway(clock, store).statusLine());
    expect(statusLineOf(view.states)).toBe('risk: strategy:s1 REDUCING (manual: winding down)');
    expect(store.journalled.length).toBeGreaterThan(journalled);
  });

  it('before the end, the kill switch is in force and nothing is lapsed', () => {
    const store = new MemoryTradingStatePersistence();
    const gateway = new TradingStateGateway(new VirtualClock(T0), store);
    gateway.set({ kind: 'account' }, 'HALTED', 'daily-loss', 'daily loss over the limit', NEXT_DAY);
    const view = viewTradingStates(store, NEXT_DAY - 1);
    expect(view.lapsed).toEqual([]);
    expect(statusLineOf(view.states)).toBe(gateway.statusLine());
  });
});

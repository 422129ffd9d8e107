import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { parseRiskConfig } from './risk-config.js';
import { T0 } from './risk-fixture.test-helper.js';
import { StaleDataMonitor } from './stale-data-monitor.js';
import { TradingStateGateway } from './trading-state-gateway.js';
import { MemoryTradingStatePersistence, type TradingStateChanged } from './trading-state-persistence.js';

function setup() {
  const clock = new VirtualClock(T0);
  const store = new MemoryTradingStatePersistence();
  return { clock, store, gateway: new TradingStateGateway(clock, store) };
}

/** The journalled changes of a scope's state in force. */
function changed(store: MemoryTradingStatePersistence): TradingStateChanged[] {
  return store.journalled.filter((e): e is TradingStateChanged => e.type === 'TradingStateChanged');
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
      // stale data's REDUCING is kept beneath the halt: the account stays HALTED
      expect(gateway.set({ kind: 'account' }, 'REDUCING', 'stale-data', 'stale')).toBe(true);
      expect(gateway.set({ kind: 'account' }, 'REDUCING', 'stale-data', 'still stale')).toBe(false);
      expect(gateway.set({ kind: 'account' }, 'HALTED', 'daily-loss', 'lost')).toBe(false);
      expect(gateway.state({ kind: 'account' })).toBe('HALTED');
      expect(changed(store)).toHaveLength(1);
      expect(store.journalled.at(-1)).toMatchObject({
        type: 'TradingStateSourceChanged',
        scope: 'account',
        source: 'stale-data',
        from: 'ACTIVE',
        to: 'REDUCING',
        state: 'HALTED',
      });
    });
    it('keeps a daily-loss REDUCING when stale data sets the same state, so data flowing again does not lift it', () => {
      // before, stale data's REDUCING replaced the kill switch's (its end lost), and its recovery
      // lifted the account to ACTIVE for the rest of the day
      const { gateway, store } = setup();
      gateway.set({ kind: 'account' }, 'REDUCING', 'daily-loss', 'lost', T0 + 86_400_000);
      gateway.set({ kind: 'account' }, 'REDUCING', 'stale-data', 'stale');
      expect(gateway.liftIf({ kind: 'account' }, 'stale-data', 'data flows')).toBe(true);
      expect(gateway.entry({ kind: 'account' })).toEqual({
        state: 'REDUCING',
        source: 'daily-loss',
        reason: 'lost',
        sinceMs: T0,
        untilMs: T0 + 86_400_000,
      });
      expect(changed(store)).toHaveLength(1);
    });
    it("keeps an operator's HALTED when the daily loss limit halts the same scope, so it does not lapse the next day", () => {
      // before, the kill switch's HALTED replaced the operator's and gave it an end: the halt set by
      // hand (`hoga risk set`, until lifted by hand) ended at the next trading day
      const { gateway, clock, store } = setup();
      gateway.set({ kind: 'strategy', strategyId: 's1' }, 'HALTED', 'manual', 'operator');
      // the kill switch trips (its caller cancels the open orders) beneath the operator's halt
      expect(
        gateway.set({ kind: 'strategy', strategyId: 's1' }, 'HALTED', 'daily-loss', 'lost', T0 + 1000),
      ).toBe(true);
      expect(gateway.entry({ kind: 'strategy', strategyId: 's1' })).toMatchObject({
        source: 'manual',
        beneath: [{ state: 'HALTED', source: 'daily-loss', untilMs: T0 + 1000 }],
      });
      clock.advance(2000);
      expect(gateway.entry({ kind: 'strategy', strategyId: 's1' })).toMatchObject({
        state: 'HALTED',
        source: 'manual',
        untilMs: null,
      });
      expect(gateway.snapshot().get('strategy:s1')?.beneath).toBeUndefined();
      expect(changed(store)).toHaveLength(1);
      expect(store.journalled.at(-1)).toMatchObject({
        type: 'TradingStateSourceChanged',
        source: 'daily-loss',
        from: 'HALTED',
        to: 'ACTIVE',
        reason: 'a new trading day began',
      });
    });
    it("shows an operator's REDUCING again when the kill switch's HALTED over it lapses", () => {
      // before, the kill switch replaced it: s1 went ACTIVE the next trading day
      const { gateway, clock, store } = setup();
      const s1 = { kind: 'strategy', strategyId: 's1' } as const;
      gateway.set(s1, 'REDUCING', 'manual', 'winding down');
      gateway.set(s1, 'HALTED', 'daily-loss', 'lost', T0 + 1000);
      expect(gateway.effective('s1', '005930').strategy).toBe('HALTED');
      clock.advance(1000);
      expect(gateway.effective('s1', '005930').strategy).toBe('REDUCING');
      expect(changed(store).at(-1)).toMatchObject({
        from: 'HALTED',
        to: 'REDUCING',
        source: 'new-trading-day',
        untilMs: null,
        heldBy: { source: 'manual', reason: 'winding down' },
      });
    });
    it("shows stale data's REDUCING once the kill switch's HALTED over it lapses, and ACTIVE once the data flows", () => {
      const { gateway, clock, store } = setup();
      const monitor = new StaleDataMonitor(clock, parseRiskConfig(), gateway);
      clock.advance(120_001);
      monitor.evaluate();
      gateway.set({ kind: 'account' }, 'HALTED', 'daily-loss', 'lost', T0 + 200_000);
      monitor.evaluate();
      expect(gateway.state({ kind: 'account' })).toBe('HALTED');
      clock.advance(100_000);
      monitor.evaluate();
      expect(gateway.entry({ kind: 'account' })).toMatchObject({ state: 'REDUCING', source: 'stale-data' });
      monitor.noteOrderPoll();
      monitor.evaluate();
      expect(gateway.state({ kind: 'account' })).toBe('ACTIVE');
      expect(changed(store).map((e) => [e.from, e.to, e.source])).toEqual([
        ['ACTIVE', 'REDUCING', 'stale-data'],
        ['REDUCING', 'HALTED', 'daily-loss'],
        ['HALTED', 'REDUCING', 'new-trading-day'],
        ['REDUCING', 'ACTIVE', 'stale-data'],
      ]);
    });
    it("keeps a reconciliation halt when stale data recovers and when an operator's REDUCING is lifted", () => {
      const { gateway } = setup();
      const sym = { kind: 'symbol', symbol: '005930' } as const;
      gateway.set(sym, 'REDUCING', 'stale-data', 'no price');
      gateway.set(sym, 'HALTED', 'reconciliation', 'broker holds 10, hoga 0');
      gateway.liftIf(sym, 'stale-data', 'prices arrive again');
      expect(gateway.entry(sym)).toMatchObject({ state: 'HALTED', source: 'reconciliation' });
      expect(gateway.entry(sym)?.beneath).toBeUndefined();
    });
    it("keeps an operator's REDUCING under a reconciliation halt until the operator resets", () => {
      const { gateway } = setup();
      const sym = { kind: 'symbol', symbol: '005930' } as const;
      gateway.set(sym, 'REDUCING', 'manual', 'watching it');
      gateway.set(sym, 'HALTED', 'reconciliation', 'broker holds 10, hoga 0');
      expect(gateway.state(sym)).toBe('HALTED');
      expect(gateway.statusLine()).toBe(
        'risk: symbol:005930 HALTED (reconciliation: broker holds 10, hoga 0) over REDUCING (manual: watching it)',
      );
    });
    it('sets the scope by hand outright: stricter states of other sources go, looser ones stay beneath', () => {
      const { gateway, store } = setup();
      const s1 = { kind: 'strategy', strategyId: 's1' } as const;
      gateway.set(s1, 'HALTED', 'daily-loss', 'lost', T0 + 86_400_000);
      // an operator lets it sell out of its position
      expect(gateway.set(s1, 'REDUCING', 'manual', 'let it exit')).toBe(true);
      expect(gateway.entry(s1)).toEqual({
        state: 'REDUCING',
        source: 'manual',
        reason: 'let it exit',
        sinceMs: T0,
        untilMs: null,
      });
      expect(changed(store).at(-1)).toMatchObject({ from: 'HALTED', to: 'REDUCING', source: 'manual' });
      gateway.set({ kind: 'account' }, 'REDUCING', 'stale-data', 'stale');
      gateway.set({ kind: 'account' }, 'HALTED', 'manual', 'stop');
      expect(gateway.entry({ kind: 'account' })?.beneath).toMatchObject([{ source: 'stale-data' }]);
      // ACTIVE by hand lifts every source's
      expect(gateway.set({ kind: 'account' }, 'ACTIVE', 'manual', 'go')).toBe(true);
      expect(gateway.state({ kind: 'account' })).toBe('ACTIVE');
      expect(gateway.set({ kind: 'account' }, 'ACTIVE', 'manual', 'go')).toBe(false);
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
  it('trips a kill switch again on a later day with nothing read in between: its lapse, then the new halt', () => {
    // a backtest's strategy that orders nothing after its first halt: no read lapsed the halt,
    // and the trip of a later day was journalled as no change of the state in force (HALTED to
    // HALTED): not counted among the run's halts, not logged
    const { gateway, clock, store } = setup();
    const seen: string[] = [];
    gateway.changes$.subscribe((c) => seen.push(`${c.from}→${c.to} ${c.source}`));
    const s1 = { kind: 'strategy', strategyId: 's1' } as const;
    gateway.set(s1, 'HALTED', 'daily-loss', 'lost on day 1', T0 + 1000);
    clock.advance(5000);
    expect(gateway.set(s1, 'HALTED', 'daily-loss', 'lost on day 2', T0 + 9000)).toBe(true);
    expect(seen).toEqual([
      'ACTIVE→HALTED daily-loss',
      'HALTED→ACTIVE new-trading-day',
      'ACTIVE→HALTED daily-loss',
    ]);
    expect(changed(store).map((c) => c.reason)).toEqual([
      'lost on day 1',
      'a new trading day began',
      'lost on day 2',
    ]);
    expect(gateway.entry(s1)).toMatchObject({ reason: 'lost on day 2', untilMs: T0 + 9000 });
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
    it('lifts every source of a scope, with one change each', () => {
      const { gateway, store, clock } = setup();
      const s1 = { kind: 'strategy', strategyId: 's1' } as const;
      gateway.set(s1, 'REDUCING', 'manual', 'winding down');
      gateway.set(s1, 'HALTED', 'daily-loss', 'lost', T0 + 86_400_000);
      gateway.set({ kind: 'account' }, 'REDUCING', 'stale-data', 'stale');
      gateway.set({ kind: 'account' }, 'HALTED', 'reconciliation', 'mismatch');
      const before = changed(store).length;
      // each source's state it cleared, the one in force first (what hoga risk reset prints)
      expect(gateway.reset('hoga risk reset', [s1])).toEqual([
        {
          scope: s1,
          cleared: [
            { state: 'HALTED', source: 'daily-loss', reason: 'lost', sinceMs: T0, untilMs: T0 + 86_400_000 },
            { state: 'REDUCING', source: 'manual', reason: 'winding down', sinceMs: T0, untilMs: null },
          ],
        },
      ]);
      expect(gateway.state(s1)).toBe('ACTIVE');
      // nothing shows again when the kill switch would have lapsed
      clock.advance(86_400_000);
      expect(gateway.state(s1)).toBe('ACTIVE');
      expect(
        gateway
          .reset('hoga risk reset')
          .map((r) => [r.scope, r.cleared.map((l) => `${l.state} ${l.source}`)]),
      ).toEqual([[{ kind: 'account' }, ['HALTED reconciliation', 'REDUCING stale-data']]]);
      expect(gateway.snapshot().size).toBe(0);
      expect(
        changed(store)
          .slice(before)
          .map((e) => [e.scope, e.from, e.to, e.source]),
      ).toEqual([
        ['strategy:s1', 'HALTED', 'ACTIVE', 'manual'],
        ['account', 'HALTED', 'ACTIVE', 'manual'],
      ]);
    });
    it('lists a kill switch found past its end as lapsed: lapsed on the new day, the rest reset by hand', () => {
      const { gateway, store, clock } = setup();
      const s1 = { kind: 'strategy', strategyId: 's1' } as const;
      gateway.set(s1, 'REDUCING', 'manual', 'winding down');
      gateway.set(s1, 'HALTED', 'daily-loss', 'lost', T0 + 86_400_000);
      // the next day, a reset from another process (nothing read the scope since the switch's end)
      clock.advance(2 * 86_400_000);
      const other = new TradingStateGateway(clock, store);
      expect(other.reset('hoga risk reset')).toEqual([
        {
          scope: s1,
          cleared: [
            { state: 'REDUCING', source: 'manual', reason: 'winding down', sinceMs: T0, untilMs: null },
          ],
          lapsed: [
            { state: 'HALTED', source: 'daily-loss', reason: 'lost', sinceMs: T0, untilMs: T0 + 86_400_000 },
          ],
        },
      ]);
      expect(changed(store).map((e) => [e.from, e.to, e.source])).toEqual([
        ['ACTIVE', 'REDUCING', 'manual'],
        ['REDUCING', 'HALTED', 'daily-loss'],
        ['HALTED', 'REDUCING', 'new-trading-day'],
        ['REDUCING', 'ACTIVE', 'manual'],
      ]);
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

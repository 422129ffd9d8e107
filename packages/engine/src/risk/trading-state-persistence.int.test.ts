import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { T0 } from './risk-fixture.test-helper.js';
import { TradingStateGateway } from './trading-state-gateway.js';
import { StoreTradingStatePersistence } from './trading-state-persistence.js';
import { nextTradingDayStartMs } from './valuation.js';

describe('StoreTradingStatePersistence', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('keeps a halt across a reopen, and journals every change', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-'));
    dirs.push(dir);
    const file = join(dir, 'hoga.db');
    const clock = new VirtualClock(T0);
    const db = HogaDatabase.open(file, { clock });
    new TradingStateGateway(clock, new StoreTradingStatePersistence(db, 'live')).set(
      { kind: 'strategy', strategyId: 's1' },
      'HALTED',
      'daily-loss',
      'lost 1,000,000 KRW',
      T0 + 3_600_000,
    );
    db.close();

    const again = HogaDatabase.open(file, { clock });
    const gateway = new TradingStateGateway(clock, new StoreTradingStatePersistence(again, 'live'));
    expect(gateway.entry({ kind: 'strategy', strategyId: 's1' })).toMatchObject({
      state: 'HALTED',
      source: 'daily-loss',
      untilMs: T0 + 3_600_000,
    });
    gateway.reset('hoga risk reset');
    const journal = again.journal.readFrom(1);
    expect(journal.map((e) => [e.type, e.strategyId, (e.payload as { to: string }).to])).toEqual([
      ['TradingStateChanged', 's1', 'HALTED'],
      ['TradingStateChanged', 's1', 'ACTIVE'],
    ]);
    again.close();
  });

  it("keeps paper's states apart from live's in one store: a paper kill switch does not halt the live strategy", () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-modes-'));
    dirs.push(dir);
    const clock = new VirtualClock(T0);
    const db = HogaDatabase.open(join(dir, 'hoga.db'), { clock });
    const paper = new TradingStateGateway(clock, new StoreTradingStatePersistence(db, 'paper'));
    paper.set({ kind: 'strategy', strategyId: 's1' }, 'HALTED', 'daily-loss', 'lost 1,000,000 KRW');
    paper.set({ kind: 'account' }, 'HALTED', 'daily-loss', 'lost 3,000,000 KRW');
    const live = new TradingStateGateway(clock, new StoreTradingStatePersistence(db, 'live'));
    expect(live.snapshot().size).toBe(0);
    expect(live.entry({ kind: 'strategy', strategyId: 's1' })).toBeUndefined();
    // and the other way round; each mode's own states stay
    live.set({ kind: 'symbol', symbol: '005930' }, 'REDUCING', 'manual', 'by hand');
    const paperAgain = new TradingStateGateway(clock, new StoreTradingStatePersistence(db, 'paper'));
    expect([...paperAgain.snapshot().keys()].sort()).toEqual(['account', 'strategy:s1']);
    db.close();
  });

  it("keeps an operator's REDUCING under the daily loss limit's HALTED, and shows it when the kill switch lapses the next day", () => {
    // before, the kill switch's HALTED replaced the operator's REDUCING: when it lapsed the next
    // trading day, strategy s1 went ACTIVE and could buy again, the operator's restriction lost
    const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-stack-'));
    dirs.push(dir);
    const file = join(dir, 'hoga.db');
    const clock = new VirtualClock(T0);
    const s1 = { kind: 'strategy', strategyId: 's1' } as const;
    const db = HogaDatabase.open(file, { clock });
    // `hoga risk set REDUCING --strategy s1` in one process, the engine's kill switch in another
    new TradingStateGateway(clock, new StoreTradingStatePersistence(db, 'live')).set(
      s1,
      'REDUCING',
      'manual',
      'winding down',
    );
    const engine = new TradingStateGateway(clock, new StoreTradingStatePersistence(db, 'live'));
    const untilMs = nextTradingDayStartMs(T0, 8);
    expect(
      engine.set(s1, 'HALTED', 'daily-loss', 'daily loss 1,000,000 KRW reached the limit', untilMs),
    ).toBe(true);
    expect(engine.state(s1)).toBe('HALTED');
    db.close();

    // the next trading day, an engine started on the same store
    clock.set(untilMs + 60_000);
    const again = HogaDatabase.open(file, { clock });
    const next = new TradingStateGateway(clock, new StoreTradingStatePersistence(again, 'live'));
    expect(next.state(s1)).toBe('REDUCING');
    expect(next.entry(s1)).toMatchObject({ state: 'REDUCING', source: 'manual', reason: 'winding down' });
    const changes = again.journal
      .readFrom(1)
      .filter((e) => e.type === 'TradingStateChanged')
      .map((e) => e.payload as { from: string; to: string; source: string });
    expect(changes.map((c) => [c.from, c.to, c.source])).toEqual([
      ['ACTIVE', 'REDUCING', 'manual'],
      ['REDUCING', 'HALTED', 'daily-loss'],
      ['HALTED', 'REDUCING', 'new-trading-day'],
    ]);
    again.close();
  });

  it('loads a state kept before sources stacked (one entry), and stacks on it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-legacy-'));
    dirs.push(dir);
    const file = join(dir, 'hoga.db');
    const clock = new VirtualClock(T0);
    const db = HogaDatabase.open(file, { clock });
    // as the gateway kept a kill switch's halt before: one entry, no `beneath`
    db.strategyState.set('__risk__', 'account', {
      state: 'HALTED',
      source: 'daily-loss',
      reason: 'daily loss 3,000,000 KRW reached the limit of 3,000,000 KRW',
      sinceMs: T0 - 60_000,
      untilMs: T0 + 3_600_000,
    });
    const gateway = new TradingStateGateway(clock, new StoreTradingStatePersistence(db, 'live'));
    expect(gateway.entry({ kind: 'account' })).toEqual({
      state: 'HALTED',
      source: 'daily-loss',
      reason: 'daily loss 3,000,000 KRW reached the limit of 3,000,000 KRW',
      sinceMs: T0 - 60_000,
      untilMs: T0 + 3_600_000,
    });
    gateway.set({ kind: 'account' }, 'REDUCING', 'stale-data', 'no successful order-history poll for 121 s');
    expect(db.strategyState.get('__risk__', 'account')).toMatchObject({
      state: 'HALTED',
      source: 'daily-loss',
      beneath: [{ state: 'REDUCING', source: 'stale-data' }],
    });
    db.close();

    clock.set(T0 + 3_600_000);
    const again = HogaDatabase.open(file, { clock });
    const next = new TradingStateGateway(clock, new StoreTradingStatePersistence(again, 'live'));
    expect(next.statusLine()).toBe(
      'risk: account REDUCING (stale-data: no successful order-history poll for 121 s)',
    );
    expect(again.strategyState.get('__risk__', 'account')).toEqual({
      state: 'REDUCING',
      source: 'stale-data',
      reason: 'no successful order-history poll for 121 s',
      sinceMs: T0,
      untilMs: null,
    });
    const events = again.journal.readFrom(1).map((e) => [e.type, (e.payload as { source: string }).source]);
    expect(events).toEqual([
      ['TradingStateSourceChanged', 'stale-data'],
      ['TradingStateChanged', 'new-trading-day'],
    ]);
    again.close();
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { T0 } from './risk-fixture.test-helper.js';
import { TradingStateGateway } from './trading-state-gateway.js';
import { StoreTradingStatePersistence } from './trading-state-persistence.js';

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
});

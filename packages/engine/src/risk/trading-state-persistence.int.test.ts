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
});

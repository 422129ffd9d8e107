/**
 * `hoga risk status` only reads: a kill switch whose end passed with no process there to lapse it is
 * reported as lapsed, and nothing is written to the store (no state changed, no journal row). The
 * real `hoga` as a child process over a real SQLite file whose states the engine's gateway set.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '@hoga/core';
import { StoreTradingStatePersistence, TradingStateGateway } from '@hoga/engine';
import { HogaDatabase } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import { hoga } from '../hoga-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-status-'));
let files = 0;

/** A kill switch tripped on 2020-01-01, its end (the next trading day) long past. */
const TRIPPED_AT = Date.parse('2020-01-01T13:00:00+09:00');
const UNTIL = Date.parse('2020-01-02T08:00:00+09:00');
const LOSS = 'daily loss 1,200,000 KRW reached the limit of 1,000,000 KRW';
const LAPSED = `HALTED (daily-loss: ${LOSS}; until 2020-01-02 08:00 KST (Thu))`;

/**
 * A store as a run stopped on 2020-01-01 left it: s1 halted by its kill switch over an operator's
 * REDUCING, s2 by its kill switch alone, the account halted by hand.
 */
function stoppedRunStore(): string {
  files += 1;
  const file = join(dir, `hoga-${files}.sqlite`);
  const db = HogaDatabase.open(file);
  try {
    const gateway = new TradingStateGateway(
      new VirtualClock(TRIPPED_AT),
      new StoreTradingStatePersistence(db, 'live'),
    );
    const s1 = { kind: 'strategy', strategyId: 's1' } as const;
    gateway.set(s1, 'REDUCING', 'manual', 'winding down');
    gateway.set(s1, 'HALTED', 'daily-loss', LOSS, UNTIL);
    gateway.set({ kind: 'strategy', strategyId: 's2' }, 'HALTED', 'daily-loss', LOSS, UNTIL);
    gateway.set({ kind: 'account' }, 'HALTED', 'manual', 'broker maintenance');
  } finally {
    db.close();
  }
  return file;
}

/** The store's risk states and journal, as a reader sees them. */
function contents(file: string): { states: [string, unknown][]; journal: unknown[] } {
  const db = HogaDatabase.open(file, { readonly: true, migrate: false });
  try {
    return {
      states: [...db.strategyState.entries('__risk__')],
      journal: db.journal.readFrom(1).map((e) => e.payload),
    };
  } finally {
    db.close();
  }
}

describe('hoga risk status of a kill switch that lapsed', () => {
  it('says it lapsed, and writes nothing to the store', async () => {
    const file = stoppedRunStore();
    const before = contents(file);
    const status = await hoga(['risk', 'status', '--db', file]);
    expect(status.err).toBe('');
    expect(status.code).toBe(0);
    // in force: the operator's states; the kill switches named as lapsed, not as holding
    expect(status.out).toBe(
      [
        'risk: account HALTED (manual: broker maintenance); strategy:s1 REDUCING (manual: winding down)',
        `lapsed (no longer in force): strategy:s1 ${LAPSED}; strategy:s2 ${LAPSED}`,
        '',
      ].join('\n'),
    );
    // before: status journalled HALTED→REDUCING and HALTED→ACTIVE `new-trading-day` and rewrote the states
    expect(contents(file)).toEqual(before);
  });

  it('--json gives the states in force and the lapsed ones apart, and writes nothing', async () => {
    const file = stoppedRunStore();
    const before = contents(file);
    const status = await hoga(['risk', 'status', '--json', '--db', file]);
    expect(status.code).toBe(0);
    const killSwitch = {
      state: 'HALTED',
      source: 'daily-loss',
      reason: LOSS,
      sinceMs: TRIPPED_AT,
      untilMs: UNTIL,
      lapsed: true,
    };
    expect(JSON.parse(status.out)).toEqual({
      states: {
        account: {
          state: 'HALTED',
          source: 'manual',
          reason: 'broker maintenance',
          sinceMs: TRIPPED_AT,
          untilMs: null,
        },
        'strategy:s1': {
          state: 'REDUCING',
          source: 'manual',
          reason: 'winding down',
          sinceMs: TRIPPED_AT,
          untilMs: null,
        },
      },
      lapsed: [
        { scope: 'strategy:s1', ...killSwitch },
        { scope: 'strategy:s2', ...killSwitch },
      ],
    });
    expect(contents(file)).toEqual(before);
  });

  it('leaves the lapse to reset (and to a running engine), which journal it as the next trading day', async () => {
    const file = stoppedRunStore();
    await hoga(['risk', 'status', '--db', file]);
    const reset = await hoga(['risk', 'reset', '--strategy', 's2', '--db', file]);
    expect(reset.code).toBe(0);
    expect(reset.out).toContain(`cleared strategy:s2 ${LAPSED}: it had lapsed at its end already`);
    const changes = contents(file).journal.filter(
      (e) => (e as { type: string }).type === 'TradingStateChanged',
    ) as { scope: string; from: string; to: string; source: string }[];
    // s2's kill switch lapsed once, by reset (status had lapsed it before, and reset said 'nothing to reset')
    expect(changes.filter((c) => c.scope === 'strategy:s2' && c.source === 'new-trading-day')).toEqual([
      expect.objectContaining({ from: 'HALTED', to: 'ACTIVE' }),
    ]);
  });
});

describe('hoga risk status of the scopes named', () => {
  it('shows only those, an unrestricted one as ACTIVE, in text and in --json', async () => {
    const file = stoppedRunStore();
    const named = await hoga([
      'risk',
      'status',
      '--strategy',
      's2',
      '--account',
      '--symbol',
      '005930',
      '--db',
      file,
    ]);
    expect(named.code).toBe(0);
    // before: every scope, the flags ignored (and s2's lapse journalled)
    expect(named.out).toBe(
      [
        'risk: account HALTED (manual: broker maintenance); strategy:s2 ACTIVE; symbol:005930 ACTIVE',
        `lapsed (no longer in force): strategy:s2 ${LAPSED}`,
        '',
      ].join('\n'),
    );
    const json = await hoga(['risk', 'status', '--strategy', 's1', '--json', '--db', file]);
    expect(JSON.parse(json.out)).toEqual({
      states: {
        'strategy:s1': {
          state: 'REDUCING',
          source: 'manual',
          reason: 'winding down',
          sinceMs: TRIPPED_AT,
          untilMs: null,
        },
      },
      lapsed: [
        {
          scope: 'strategy:s1',
          state: 'HALTED',
          source: 'daily-loss',
          reason: LOSS,
          sinceMs: TRIPPED_AT,
          untilMs: UNTIL,
          lapsed: true,
        },
      ],
    });
    const free = await hoga(['risk', 'status', '--strategy', 's9', '--json', '--db', file]);
    expect(JSON.parse(free.out)).toEqual({ states: {} });
  });
});

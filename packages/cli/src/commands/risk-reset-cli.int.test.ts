/**
 * `hoga risk reset` says what it cleared: each source's state of each scope with its reason, or
 * plainly that there was nothing to clear. The real `hoga` as a child process over a real SQLite
 * file, whose states the engine's own gateway set (a kill switch's HALTED over an operator's
 * REDUCING, as a live run leaves them).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clock, LiveClock, VirtualClock } from '@hoga/core';
import { StoreTradingStatePersistence, TradingStateGateway } from '@hoga/engine';
import { HogaDatabase } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import { hoga } from '../hoga-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-reset-'));
let files = 0;
/** The kill switch's end: far enough ahead not to lapse while the test runs, and printed alike every day. */
const NEXT_DAY = Date.parse('2099-01-02T08:00:00+09:00');
const KILL_SWITCH =
  'HALTED (daily-loss: daily loss 1,200,000 KRW reached the limit of 1,000,000 KRW; until 2099-01-02 08:00 KST (Fri))';

/**
 * A new store file whose states `body` sets as a live run and an operator do, through the engine's
 * gateway; returns the environment that points `hoga` at it.
 */
function storeWith(
  body: (gateway: TradingStateGateway) => void,
  clock: Clock = new LiveClock(),
): Record<string, string> {
  files += 1;
  const file = join(dir, `hoga-${files}.sqlite`);
  const db = HogaDatabase.open(file);
  try {
    body(new TradingStateGateway(clock, new StoreTradingStatePersistence(db, 'live')));
  } finally {
    db.close();
  }
  return { HOGA_DB: file };
}

/** s1 halted by its kill switch over an operator's REDUCING; the account halted by hand. */
function stacked(gateway: TradingStateGateway): void {
  const s1 = { kind: 'strategy', strategyId: 's1' } as const;
  gateway.set(s1, 'REDUCING', 'manual', 'winding down');
  gateway.set(
    s1,
    'HALTED',
    'daily-loss',
    'daily loss 1,200,000 KRW reached the limit of 1,000,000 KRW',
    NEXT_DAY,
  );
  gateway.set({ kind: 'account' }, 'HALTED', 'manual', 'broker maintenance');
}

describe('hoga risk reset', () => {
  it('prints each source it cleared with its state and reason, and what is still restricted', async () => {
    const env = storeWith(stacked);
    const status = await hoga(['risk', 'status'], { env });
    expect(status.out).toContain(`strategy:s1 ${KILL_SWITCH} over REDUCING (manual: winding down)`);

    const reset = await hoga(['risk', 'reset', '--strategy', 's1'], { env });
    expect(reset.err).toBe('');
    expect(reset.code).toBe(0);
    // before: 'reset: strategy:s1', not saying that the operator's REDUCING went with the kill switch
    expect(reset.out).toBe(
      [
        `cleared strategy:s1 ${KILL_SWITCH}`,
        'cleared strategy:s1 REDUCING (manual: winding down)',
        'risk: account HALTED (manual: broker maintenance)',
        '',
      ].join('\n'),
    );
  });

  it('says plainly which named scope had nothing to clear', async () => {
    const env = storeWith((gateway) =>
      gateway.set({ kind: 'account' }, 'HALTED', 'manual', 'broker maintenance'),
    );
    const reset = await hoga(['risk', 'reset', '--strategy', 's1', '--account'], { env });
    expect(reset.code).toBe(0);
    // before: 'reset: account', and a scope named but not restricted went unmentioned
    expect(reset.out).toBe(
      [
        'cleared account HALTED (manual: broker maintenance)',
        'nothing to reset for strategy:s1: it was already ACTIVE',
        'risk: all ACTIVE',
        '',
      ].join('\n'),
    );
  });

  it('--json lists what it cleared, each source with its scope, state and reason', async () => {
    const env = storeWith(stacked);
    const reset = await hoga(['risk', 'reset', '--json'], { env });
    expect(reset.code).toBe(0);
    // before: only `reset`, the scopes
    expect(JSON.parse(reset.out)).toEqual({
      reset: [{ kind: 'account' }, { kind: 'strategy', strategyId: 's1' }],
      cleared: [
        {
          scope: 'account',
          state: 'HALTED',
          source: 'manual',
          reason: 'broker maintenance',
          sinceMs: expect.any(Number),
          untilMs: null,
        },
        {
          scope: 'strategy:s1',
          state: 'HALTED',
          source: 'daily-loss',
          reason: 'daily loss 1,200,000 KRW reached the limit of 1,000,000 KRW',
          sinceMs: expect.any(Number),
          untilMs: NEXT_DAY,
        },
        {
          scope: 'strategy:s1',
          state: 'REDUCING',
          source: 'manual',
          reason: 'winding down',
          sinceMs: expect.any(Number),
          untilMs: null,
        },
      ],
      states: {},
    });
    expect((await hoga(['risk', 'status'], { env })).out).toBe('risk: all ACTIVE\n');
  });

  it('says plainly when no scope had anything to clear, in text and in --json', async () => {
    const env = storeWith(() => {});
    const text = await hoga(['risk', 'reset'], { env });
    // before: 'nothing to reset'
    expect(text.out).toBe('nothing to reset: every scope was already ACTIVE\nrisk: all ACTIVE\n');
    const json = await hoga(['risk', 'reset', '--json'], { env });
    expect(JSON.parse(json.out)).toEqual({ reset: [], cleared: [], states: {} });
  });
});

/** A kill switch tripped on 2020-01-01 that lapsed at the next trading day, with no process there to see it. */
const TRIPPED_AT = Date.parse('2020-01-01T13:00:00+09:00');
const LAPSED_KILL_SWITCH =
  'HALTED (daily-loss: daily loss 1,200,000 KRW reached the limit of 1,000,000 KRW; until 2020-01-02 08:00 KST (Thu))';

/** s1 halted by a kill switch (its end long past) over an operator's REDUCING, as a stopped run left it. */
function lapsedOverReducing(gateway: TradingStateGateway): void {
  const s1 = { kind: 'strategy', strategyId: 's1' } as const;
  gateway.set(s1, 'REDUCING', 'manual', 'winding down');
  gateway.set(
    s1,
    'HALTED',
    'daily-loss',
    'daily loss 1,200,000 KRW reached the limit of 1,000,000 KRW',
    Date.parse('2020-01-02T08:00:00+09:00'),
  );
}

describe('hoga risk reset of a kill switch that lapsed', () => {
  it('lists it among what it cleared, saying it had lapsed, beside the states in force', async () => {
    const env = storeWith(lapsedOverReducing, new VirtualClock(TRIPPED_AT));
    const reset = await hoga(['risk', 'reset', '--strategy', 's1'], { env });
    expect(reset.code).toBe(0);
    // before: only the operator's REDUCING; the kill switch the operator came to reset went unsaid
    expect(reset.out).toBe(
      [
        'cleared strategy:s1 REDUCING (manual: winding down)',
        `cleared strategy:s1 ${LAPSED_KILL_SWITCH}: it had lapsed at its end already`,
        'risk: all ACTIVE',
        '',
      ].join('\n'),
    );
  });

  it('lists a scope held by a lapsed kill switch alone, rather than saying there was nothing', async () => {
    const only = (gateway: TradingStateGateway) =>
      gateway.set(
        { kind: 'strategy', strategyId: 's1' },
        'HALTED',
        'daily-loss',
        'daily loss 1,200,000 KRW reached the limit of 1,000,000 KRW',
        Date.parse('2020-01-02T08:00:00+09:00'),
      );
    const named = await hoga(['risk', 'reset', '--strategy', 's1'], {
      env: storeWith(only, new VirtualClock(TRIPPED_AT)),
    });
    // before: 'nothing to reset for strategy:s1: it was already ACTIVE'
    expect(named.out).toBe(
      `cleared strategy:s1 ${LAPSED_KILL_SWITCH}: it had lapsed at its end already\nrisk: all ACTIVE\n`,
    );
    const all = await hoga(['risk', 'reset', '--json'], {
      env: storeWith(only, new VirtualClock(TRIPPED_AT)),
    });
    // before: cleared: [] (and in text 'nothing to reset: every scope was already ACTIVE')
    expect(JSON.parse(all.out)).toEqual({
      reset: [],
      cleared: [
        {
          scope: 'strategy:s1',
          state: 'HALTED',
          source: 'daily-loss',
          reason: 'daily loss 1,200,000 KRW reached the limit of 1,000,000 KRW',
          sinceMs: TRIPPED_AT,
          untilMs: Date.parse('2020-01-02T08:00:00+09:00'),
          lapsed: true,
        },
      ],
      states: {},
    });
  });
});

describe('hoga risk set|reset --reason', () => {
  it('refuses a reason of more than one line as bad usage (exit 2) and changes nothing', async () => {
    const env = storeWith(() => {});
    const set = await hoga(['risk', 'set', 'HALTED', '--account', '--reason', 'broker\nmaintenance'], {
      env,
    });
    // before: exit 0, and the reason broke the status line and every denial in two
    expect(set.code).toBe(2);
    expect(set.out).toBe('');
    expect(set.err).toContain('--reason');
    expect(set.err).toContain('one line');
    expect((await hoga(['risk', 'status'], { env })).out).toBe('risk: all ACTIVE\n');

    const reset = await hoga(['risk', 'reset', '--reason', 'done\r\nfor today'], { env });
    expect(reset.code).toBe(2);
    expect(reset.err).toContain('one line');
  });

  it('refuses an empty reason as bad usage (exit 2) and changes nothing', async () => {
    const env = storeWith(() => {});
    for (const reason of ['', '   ']) {
      const set = await hoga(['risk', 'set', 'HALTED', '--account', '--reason', reason], { env });
      // before: exit 0, 'risk: account HALTED (manual: )', and every denial said why as '()'
      expect(set.code).toBe(2);
      expect(set.out).toBe('');
      expect(set.err).toContain('--reason');
      expect(set.err).toContain('empty');
    }
    expect((await hoga(['risk', 'reset', '--reason', ''], { env })).code).toBe(2);
    expect((await hoga(['risk', 'status'], { env })).out).toBe('risk: all ACTIVE\n');
  });

  it('takes a one-line reason as given', async () => {
    const env = storeWith(() => {});
    const set = await hoga(['risk', 'set', 'HALTED', '--account', '--reason', 'broker maintenance: 2 h'], {
      env,
    });
    expect(set.code).toBe(0);
    expect(set.out).toBe('risk: account HALTED (manual: broker maintenance: 2 h)\n');
  });
});

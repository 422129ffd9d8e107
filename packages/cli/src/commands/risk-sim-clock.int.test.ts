/**
 * `hoga risk` judges a kill switch's end on the clock the engine runs on: the simulator's when the
 * broker (`--base-url`, `HOGA_BASE_URL` or the profile's) is the simulator, as `hoga run` and
 * `hoga order` do. Before, it read the machine's clock: against a simulator set to another day it
 * called a kill switch lapsed that the running engine still held. And a `reset` of one scope leaves
 * the other scopes' states as they were: it no longer journals their lapse too. The real `hoga` as
 * a child process over a real SQLite file, against the simulator over HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '@hoga/core';
import { StoreTradingStatePersistence, TradingStateGateway } from '@hoga/engine';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga } from '../hoga-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-sim-clock-'));
let files = 0;

/** A kill switch tripped on 2020-01-01 at 13:00 KST, in force until 08:00 the next trading day. */
const TRIPPED_AT = Date.parse('2020-01-01T13:00:00+09:00');
const UNTIL = Date.parse('2020-01-02T08:00:00+09:00');
const LOSS = 'daily loss 1,200,000 KRW reached the limit of 1,000,000 KRW';
const HALT = `HALTED (daily-loss: ${LOSS}; until 2020-01-02 08:00 KST (Thu))`;

/** s1 and s2 each halted by their kill switch. */
function haltedStore(): string {
  files += 1;
  const file = join(dir, `hoga-${files}.sqlite`);
  const db = HogaDatabase.open(file);
  try {
    const gateway = new TradingStateGateway(
      new VirtualClock(TRIPPED_AT),
      new StoreTradingStatePersistence(db, 'live'),
    );
    gateway.set({ kind: 'strategy', strategyId: 's1' }, 'HALTED', 'daily-loss', LOSS, UNTIL);
    gateway.set({ kind: 'strategy', strategyId: 's2' }, 'HALTED', 'daily-loss', LOSS, UNTIL);
  } finally {
    db.close();
  }
  return file;
}

/** The trading-state changes journalled, as `scope from→to source`. */
function changes(file: string): string[] {
  const db = HogaDatabase.open(file, { readonly: true, migrate: false });
  try {
    return db.journal
      .readFrom(1)
      .map((e) => e.payload as { type: string; scope: string; from: string; to: string; source: string })
      .filter((p) => p.type === 'TradingStateChanged')
      .map((p) => `${p.scope} ${p.from}→${p.to} ${p.source}`);
  } finally {
    db.close();
  }
}

let sim: SimulatorHandle;
beforeAll(async () => {
  // the simulator's day: the kill switches' day, an hour after they tripped
  sim = await startSimulator({ start: '2020-01-01T14:00:00.000+09:00', rateLimit: false, speed: 1 });
});
afterAll(async () => {
  await sim.close();
});

describe("hoga risk against the simulator, on the simulator's clock", () => {
  it('status shows a kill switch the simulated day still holds as in force, not lapsed', async () => {
    const file = haltedStore();
    const status = await hoga(['risk', 'status', '--db', file], { env: { HOGA_BASE_URL: sim.url } });
    expect(status.err).toBe('');
    expect(status.code).toBe(0);
    expect(status.out).toBe(`risk: strategy:s1 ${HALT}; strategy:s2 ${HALT}\n`);
    // the same with --base-url
    const flag = await hoga(['risk', 'status', '--db', file, '--base-url', sim.url]);
    expect(flag.out).toBe(status.out);
  });

  it("on the machine's clock (no broker given) the same kill switches have lapsed", async () => {
    const file = haltedStore();
    const status = await hoga(['risk', 'status', '--db', file]);
    expect(status.out).toContain(`lapsed (no longer in force): strategy:s1 ${HALT}; strategy:s2 ${HALT}`);
  });

  it('reset clears a kill switch in force (not "lapsed") and leaves the other scope halted', async () => {
    const file = haltedStore();
    const reset = await hoga(['risk', 'reset', '--strategy', 's1', '--db', file], {
      env: { HOGA_BASE_URL: sim.url },
    });
    expect(reset.code).toBe(0);
    expect(reset.out).toBe(`cleared strategy:s1 ${HALT}\nrisk: strategy:s2 ${HALT}\n`);
    expect(changes(file).slice(2)).toEqual(['strategy:s1 HALTED→ACTIVE manual']);
  });
});

describe('hoga risk reset of one scope', () => {
  it("journals only that scope's changes: another scope's lapsed kill switch is left for its own reset", async () => {
    const file = haltedStore();
    const reset = await hoga(['risk', 'reset', '--strategy', 's1', '--db', file]);
    expect(reset.code).toBe(0);
    expect(reset.out).toContain(`cleared strategy:s1 ${HALT}: it had lapsed at its end already`);
    // before: s2's lapse journalled too, by the status line printed after the reset
    expect(changes(file).slice(2)).toEqual(['strategy:s1 HALTED→ACTIVE new-trading-day']);
    const status = await hoga(['risk', 'status', '--db', file]);
    expect(status.out).toContain(`lapsed (no longer in force): strategy:s2 ${HALT}`);
  });
});

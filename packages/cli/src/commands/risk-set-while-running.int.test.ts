/**
 * An operator's `hoga risk set` between two reads of a running engine's gateway is kept when the
 * engine's own source (its kill switch) changes the same scope: the engine's gateway (as `hoga run`
 * holds it) over a real SQLite file, and the real `hoga` as a child process beside it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '@hoga/core';
import { StoreTradingStatePersistence, TradingStateGateway } from '@hoga/engine';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { hoga } from '../hoga-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-set-running-'));
const open: HogaDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

/** Monday 13:00 KST, ahead of the machine's clock (which `hoga risk` reads); the kill switch holds until Tuesday 08:00. */
const NOW = Date.parse('2099-01-05T13:00:00+09:00');
const NEXT_DAY = Date.parse('2099-01-06T08:00:00+09:00');
const LOSS = 'daily loss 1,200,000 KRW reached the limit of 1,000,000 KRW';
const s1 = { kind: 'strategy', strategyId: 's1' } as const;

/** A running engine's gateway on a new store file at `NOW`, and the file. */
function engineOn(name: string): { gateway: TradingStateGateway; clock: VirtualClock; file: string } {
  const file = join(dir, `${name}.sqlite`);
  const db = HogaDatabase.open(file);
  open.push(db);
  const clock = new VirtualClock(NOW);
  return {
    gateway: new TradingStateGateway(clock, new StoreTradingStatePersistence(db, 'live')),
    clock,
    file,
  };
}

describe("an operator's hoga risk set while an engine runs", () => {
  it("is kept beneath the engine's kill switch tripping on the scope before the engine read again", async () => {
    const { gateway, clock, file } = engineOn('halted-then-tripped');
    const set = await hoga([
      'risk',
      'set',
      'HALTED',
      '--strategy',
      's1',
      '--reason',
      'broker maintenance',
      '--db',
      file,
    ]);
    expect(set.code).toBe(0);
    // a fill trips the kill switch before the engine's next order check read the states again
    expect(gateway.set(s1, 'HALTED', 'daily-loss', LOSS, NEXT_DAY)).toBe(true);
    // before: 'risk: strategy:s1 HALTED (daily-loss: …; until …)', the operator's halt gone
    expect((await hoga(['risk', 'status', '--db', file])).out).toBe(
      `risk: strategy:s1 HALTED (manual: broker maintenance) over HALTED (daily-loss: ${LOSS}; until 2099-01-06 08:00 KST (Tue))\n`,
    );
    // the next trading day the kill switch lapses; the operator's halt still holds
    clock.set(NEXT_DAY);
    gateway.sync();
    expect(gateway.entry(s1)).toMatchObject({
      state: 'HALTED',
      source: 'manual',
      reason: 'broker maintenance',
    });
  });

  it('a reset by hand of the scope is not undone by the engine lifting its stale-data state', async () => {
    const { gateway, file } = engineOn('reduced-then-reset');
    gateway.set(s1, 'REDUCING', 'stale-data', 'no price of 005930 for 130 s');
    gateway.set(s1, 'HALTED', 'daily-loss', LOSS, NEXT_DAY);
    expect((await hoga(['risk', 'reset', '--strategy', 's1', '--db', file])).code).toBe(0);
    // prices arrive again before the engine read the states again
    gateway.liftIf(s1, 'stale-data', 'prices of 005930 arrive again');
    // before: the kill switch's HALTED, lifted by hand, was written back
    expect((await hoga(['risk', 'status', '--db', file])).out).toBe('risk: all ACTIVE\n');
  });

  it("an operator's REDUCING over the kill switch holds the next trading day, though the engine had not read it", async () => {
    const { gateway, clock, file } = engineOn('reduced-over-kill-switch');
    gateway.set(s1, 'HALTED', 'daily-loss', LOSS, NEXT_DAY);
    const set = await hoga([
      'risk',
      'set',
      'REDUCING',
      '--strategy',
      's1',
      '--reason',
      'sell out',
      '--db',
      file,
    ]);
    expect(set.code).toBe(0);
    // the next trading day a fill asks for the kill switch before an order check read the states again
    clock.set(NEXT_DAY);
    // before: the engine lapsed its own copy of the kill switch, and s1 went ACTIVE, the REDUCING gone
    expect(gateway.state(s1)).toBe('REDUCING');
    expect((await hoga(['risk', 'status', '--db', file])).out).toBe(
      'risk: strategy:s1 REDUCING (manual: sell out)\n',
    );
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags, tempHome } from '../../hoga-process.test-helper.js';

let sim: SimulatorHandle;
let dir: string;
let home: string;

beforeAll(async () => {
  // a Monday at 10:00 KST: the KR regular session, where a market order fills at once
  sim = await startSimulator({ port: 0, start: '2026-11-23T10:00:00+09:00', speed: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-db-positions-baseline-'));
  home = tempHome();
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

// The order manager's live positions start from the broker's holdings at the first live run's
// start. Before one, `hoga order`'s fills alone were listed: the simulator's account holds 100 of
// 005930, `hoga order sell 005930 5 --market` sold 5, and `hoga db positions` showed 005930 -5.
describe('hoga db positions before any live run on the store', () => {
  it('lists no live position, and says the positions start at the first live run', async () => {
    const db = join(dir, 'hoga.sqlite');
    const env = { HOME: home };
    const sold = await hoga(['order', 'sell', '005930', '5', '--market', ...simFlags(sim.url), '--db', db], {
      env,
    });
    expect(sold.code, sold.err).toBe(0);
    expect(sold.out).toContain('OrderFilled');

    const table = await hoga(['db', 'positions', '--db', db], { env });
    expect(table.code, table.err).toBe(0);
    // nothing listed (before: `005930 -5`); not a search for '-5', which the temporary directory's
    // random name may hold
    expect(table.out.trim()).toBe(`no live positions in ${db}`);
    expect(table.err).toContain('no live run has started on this store');
    expect(table.err).toContain('hoga holdings');

    const json = await hoga(['db', 'positions', '--json', '--db', db], { env });
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out)).toEqual([]);
  }, 60_000);
});

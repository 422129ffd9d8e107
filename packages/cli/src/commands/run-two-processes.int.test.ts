/**
 * Two `hoga run` processes of one client (the same broker, client id and token file, a store
 * each) share the broker's rate limits, which are per client. Before, each held buckets of the
 * whole limits: two runs of 20 symbols starting together read their symbols' data and warm-up
 * candles at twice the broker's rates, and the broker answered 429s (17 in 25 s here, with their
 * retries and waits, and at ×30 the stale-data guard's REDUCING). Child processes against the
 * simulator (rate limits on) on 127.0.0.1.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSims,
  env,
  type Running,
  root,
  simWithSymbols,
  start,
  until,
} from './run-process.test-helper.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await closeSims();
});

describe('two hoga run processes of one client', () => {
  it('share the broker’s rate limits: no 429 where each took the whole limits', async () => {
    const sim = await simWithSymbols(40);
    const dir = mkdtempSync(join(tmpdir(), 'hoga-two-runs-'));
    const tokens = join(dir, 'tokens.json');
    const runs: Running[] = [0, 1].map((k) => {
      const symbols = Array.from({ length: 20 }, (_, i) => String(400_001 + 20 * k + i)).join(',');
      const db = join(dir, `run-${k}.sqlite`);
      const r = start(
        [
          'run',
          join(root, 'strategies/rsi-pullback.ts'),
          '--mode',
          'paper',
          '--symbols',
          symbols,
          '--status-every',
          '2',
        ],
        { ...env(sim, db), HOGA_TOKEN_FILE: tokens },
      );
      closers.push(async () => {
        if (r.child.exitCode === null) {
          r.child.kill('SIGKILL');
          await r.exited;
        }
      });
      return r;
    });
    // both past their first reads and warm-up (one request per symbol each, at the limits), then
    // polling side by side for a few seconds
    for (const r of runs) expect(await until(r, / status /, 150_000)).toBe(true);
    await new Promise((x) => setTimeout(x, 5_000));
    // while both run, each has its file in the share folder beside the token file
    expect(readdirSync(join(dir, 'rate-share'))).toHaveLength(2);
    for (const r of runs) r.child.kill('SIGINT');
    for (const r of runs) expect(await r.exited).toBe(0);
    expect(sim.counters().rateLimited).toBe(0);
    // each run's status lines count its 429s: none
    for (const r of runs) {
      const counts = [...r.out.join('').matchAll(/requests \d+ \(429: (\d+)\)/g)].map((m) => m[1]);
      expect(counts.length).toBeGreaterThan(0);
      expect(new Set(counts)).toEqual(new Set(['0']));
    }
    // and removed it as it stopped
    expect(readdirSync(join(dir, 'rate-share'))).toEqual([]);
  }, 240_000);
});

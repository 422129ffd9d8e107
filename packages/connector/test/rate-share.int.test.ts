/**
 * Two processes of one client share the broker's per-client rate limits (over the simulator, which
 * enforces them, HTTP, and a share folder on disk). Before, each process held a bucket of the whole
 * limit: two processes reading prices at once sent twice the MARKET_DATA group's 10 a second, the
 * broker answered 429s (12 in this test), and their retries and pauses slowed both (two `hoga
 * run` processes at ×30 saw their data go stale and the risk module set REDUCING).
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KR_MORNING } from './simulator-fixture.js';
import { runWorker } from './worker-process.js';

interface WorkerReport {
  readonly ok: number;
  readonly failures: readonly string[];
  readonly ms: number;
  readonly rateLimited: number;
}

function spawnWorker(url: string, cache: string, startAt: number, calls: number, shareDir: string) {
  return runWorker<WorkerReport>('rate-worker.ts', [url, cache, String(startAt), String(calls), shareDir]);
}

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ start: KR_MORNING, rateLimit: true });
});
afterAll(async () => {
  await sim.close();
});

describe('the rate limits across processes', () => {
  it('are shared by two processes of one client: no 429 where each took the whole limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-rate-share-'));
    const shareDir = join(dir, 'rate-share');
    const before = sim.counters().rateLimited;
    const startAt = Date.now() + 5_000;
    const calls = 40;
    const [a, b] = await Promise.all([
      spawnWorker(sim.url, join(dir, 'tokens.json'), startAt, calls, shareDir),
      spawnWorker(sim.url, join(dir, 'tokens.json'), startAt, calls, shareDir),
    ]);
    expect(a.failures).toEqual([]);
    expect(b.failures).toEqual([]);
    expect(a.ok + b.ok).toBe(2 * calls);
    // 80 reads at 10 a second between them: no 429 from the broker
    expect(a.rateLimited + b.rateLimited).toBe(0);
    expect(sim.counters().rateLimited - before).toBe(0);
    // and not slower than the limit allows: 80 reads at 10 a second, the first 10 at once
    expect(Math.max(a.ms, b.ms)).toBeGreaterThan(6_000);
    // each process took its file away when it closed
    expect(readdirSync(shareDir)).toEqual([]);
  }, 120_000);
});

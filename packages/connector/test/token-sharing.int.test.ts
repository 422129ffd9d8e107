import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KR_MORNING } from './simulator-fixture.js';
import { runWorker } from './worker-process.js';

interface WorkerReport {
  readonly ok: number;
  readonly failures: readonly string[];
  readonly issued: number;
  readonly refreshes: number;
}

function spawnWorker(url: string, cache: string, startAt: number, calls: number): Promise<WorkerReport> {
  return runWorker('token-worker.ts', [url, cache, String(startAt), String(calls), '150']);
}

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ start: KR_MORNING, rateLimit: true });
});
afterAll(async () => {
  await sim.close();
});

describe('TokenManager across processes', () => {
  it('settles two processes on one token, and on one new token after a revocation', async () => {
    const cache = join(mkdtempSync(join(tmpdir(), 'hoga-shared-')), 'tokens.json');
    const startAt = Date.now() + 5_000;
    const calls = 25;
    // Revoke once both processes are working with the first token.
    const revoke = (async () => {
      while (sim.counters().requestsTotal < 8) await new Promise((resolve) => setTimeout(resolve, 50));
      sim.revokeToken();
    })();
    const [a, b] = await Promise.all([
      spawnWorker(sim.url, cache, startAt, calls),
      spawnWorker(sim.url, cache, startAt, calls),
      revoke,
    ]);
    expect(a!.failures).toEqual([]);
    expect(b!.failures).toEqual([]);
    expect(a!.ok + b!.ok).toBe(2 * calls);
    // One token at the start, one after the revocation: no revoking each other in a loop.
    expect(sim.counters().tokensIssued).toBe(2);
    expect(a!.issued + b!.issued).toBe(2);
    expect(a!.refreshes + b!.refreshes).toBeGreaterThanOrEqual(2);
    // two processes started through tsx (each up to 60 s, as spawnWorker allows), a common start
    // 5 s out, 25 calls 150 ms apart: on a loaded machine it took 28.2 s of the 30 s default
  }, 150_000);
});

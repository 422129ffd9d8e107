/**
 * The simulator a command-line integration test file runs against, with the environment its
 * commands need (the connection flags are `simFlags` of `hoga-process.test-helper.ts`). Test code
 * only.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, type SimulatorOptions, startSimulator } from '@hoga/simulator';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

/** The simulator of a file's tests and the temporary folder holding their token file. */
export interface CliSimulator {
  /** Set before the file's first test. */
  readonly sim: SimulatorHandle;
  readonly dir: string;
}

/**
 * Registers the hooks of a file's tests: before them, the simulator (Monday 10:00 KST, rate limits
 * off, then `options`), `HOGA_TOKEN_FILE` in a new temporary folder named `prefix…`, and `HOGA_DB`
 * and the `emptyEnv` variables set empty; after each, `process.exitCode` cleared; after them all,
 * the environment restored and the simulator closed.
 */
export function useCliSimulator(
  prefix: string,
  options: SimulatorOptions = {},
  emptyEnv: readonly string[] = [],
): CliSimulator {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let sim: SimulatorHandle | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ start: '2026-11-23T10:00:00.000+09:00', rateLimit: false, ...options });
    vi.stubEnv('HOGA_TOKEN_FILE', join(dir, 'tokens.json'));
    for (const name of ['HOGA_DB', ...emptyEnv]) vi.stubEnv(name, '');
  });
  afterEach(() => {
    process.exitCode = undefined;
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await sim?.close();
  });
  return {
    dir,
    get sim() {
      if (sim === undefined) throw new Error('useCliSimulator: the simulator is read before the tests run');
      return sim;
    },
  };
}

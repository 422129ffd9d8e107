import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleTestWorker } from '../../../../../scripts/test-worker-bundle.js';
import { envWithoutHoga } from '../../hoga-process.test-helper.js';
import { useSimulatorAndFolder } from './token-cache.test-helper.js';

const run = promisify(execFile);
const worker = join(import.meta.dirname, 'connection-worker.test-helper.ts');

const t = useSimulatorAndFolder('hoga-connect-');

/**
 * The worker bundled once for the file's 13 processes: through `--import tsx` each compiled the
 * sources again at its start (about 2.5 s each, 37 s of the file's 38 in a suite run).
 */
const bundleDir = mkdtempSync(join(tmpdir(), 'hoga-connection-worker-'));
let workerBundle = '';
beforeAll(async () => {
  workerBundle = await bundleTestWorker(worker, bundleDir);
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

interface Outcome {
  readonly ok: boolean;
  readonly issued?: number;
  readonly code?: string;
}

/** One hoga process connecting as the commands do: with the database `db`, or with none. */
async function processWith(db: string | null, secret = 'sim-secret'): Promise<Outcome> {
  const { stdout } = await run(process.execPath, [workerBundle, ...(db === null ? [] : [db])], {
    timeout: 120_000,
    env: {
      ...envWithoutHoga(),
      HOGA_BASE_URL: t.sim.url,
      HOGA_CLIENT_ID: 'sim-client',
      HOGA_CLIENT_SECRET: secret,
      HOGA_ACCOUNT_SEQ: '1',
      HOGA_TOKEN_FILE: join(t.dir, 'tokens.json'),
      HOGA_DB: '',
    },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Outcome;
}

// up to 7 processes a test
describe('connect() token caches', { timeout: 300_000 }, () => {
  it('shares one token between a process with the database and one with the token file only', async () => {
    const db = t.database();
    const [a, b] = await Promise.all([processWith(null), processWith(db)]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    expect(t.sim.counters().tokensIssued).toBe(1);
    for (const next of [db, null, db, t.database('other.sqlite'), null]) {
      expect((await processWith(next)).ok).toBe(true);
    }
    expect(t.sim.counters().tokensIssued).toBe(1);
  });

  it.each([
    { cache: 'the token file', db: false },
    { cache: 'the database and the token file', db: true },
  ])('refuses a wrong secret with invalid_client after a good process ($cache)', async ({ db }) => {
    const file = db ? t.database() : null;
    expect((await processWith(file)).ok).toBe(true);
    expect(await processWith(file, 'wrong')).toEqual({ ok: false, code: 'invalid_client' });
    expect(await processWith(file)).toEqual({ ok: true, issued: 0 });
    expect(t.sim.counters().tokensIssued).toBe(1);
  });
});

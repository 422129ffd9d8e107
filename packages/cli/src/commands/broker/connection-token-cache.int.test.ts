import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const worker = join(import.meta.dirname, 'connection-worker.test-helper.ts');

let sim: SimulatorHandle;
let dir: string;
beforeEach(async () => {
  sim = await startSimulator({ start: '2026-11-23T10:00:00.000+09:00' });
  dir = mkdtempSync(join(tmpdir(), 'hoga-connect-'));
});

/** A migrated database file in the test's directory (a broker command never creates one). */
function database(name = 'hoga.sqlite'): string {
  const file = join(dir, name);
  HogaDatabase.open(file).close();
  return file;
}
afterEach(async () => {
  await sim.close();
});

interface Outcome {
  readonly ok: boolean;
  readonly issued?: number;
  readonly code?: string;
}

/** One hoga process connecting as the commands do: with the database `db`, or with none. */
async function processWith(db: string | null, secret = 'sim-secret'): Promise<Outcome> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', worker, ...(db === null ? [] : [db])], {
    timeout: 60_000,
    env: {
      ...process.env,
      HOGA_BASE_URL: sim.url,
      HOGA_CLIENT_ID: 'sim-client',
      HOGA_CLIENT_SECRET: secret,
      HOGA_ACCOUNT_SEQ: '1',
      HOGA_TOKEN_FILE: join(dir, 'tokens.json'),
      HOGA_DB: '',
    },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Outcome;
}

describe('connect() token caches', () => {
  it('shares one token between a process with the database and one with the token file only', async () => {
    const db = database();
    const [a, b] = await Promise.all([processWith(null), processWith(db)]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    expect(sim.counters().tokensIssued).toBe(1);
    for (const next of [db, null, db, database('other.sqlite'), null]) {
      expect((await processWith(next)).ok).toBe(true);
    }
    expect(sim.counters().tokensIssued).toBe(1);
  });

  it.each([
    { cache: 'the token file', db: false },
    { cache: 'the database and the token file', db: true },
  ])('refuses a wrong secret with invalid_client after a good process ($cache)', async ({ db }) => {
    const file = db ? database() : null;
    expect((await processWith(file)).ok).toBe(true);
    expect(await processWith(file, 'wrong')).toEqual({ ok: false, code: 'invalid_client' });
    expect(await processWith(file)).toEqual({ ok: true, issued: 0 });
    expect(sim.counters().tokensIssued).toBe(1);
  });
});

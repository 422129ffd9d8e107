import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envWithoutHoga } from '../../hoga-process.test-helper.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..', '..', '..');

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ start: '2026-11-23T10:00:00.000+09:00' });
});
afterAll(async () => {
  await sim.close();
});

describe('hoga broker commands with --db', () => {
  it('two processes started together share one token through the SQLite cache', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'hoga-db-')), 'hoga.sqlite');
    // Broker commands never create a database (issue 13 item 10): it exists first.
    HogaDatabase.open(db).close();
    const env = {
      ...envWithoutHoga(),
      HOGA_BASE_URL: sim.url,
      HOGA_CLIENT_ID: 'sim-client',
      HOGA_CLIENT_SECRET: 'sim-secret',
      HOGA_ACCOUNT_SEQ: '1',
      HOGA_TOKEN_FILE: join(dirname(db), 'tokens.json'),
    };
    const hoga = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', ...args, '--db', db], {
        cwd: root,
        env,
        timeout: 60_000,
      });
    const [a, b] = await Promise.all([hoga('quote', '005930'), hoga('buying-power')]);
    expect(a.stdout).toMatch(/005930\s+[\d,]+\s+KRW/);
    expect(b.stdout).toMatch(/KRW\s+[\d,]+/);
    expect(sim.counters().tokensIssued).toBe(1);
    const c = await hoga('holdings');
    expect(c.stdout).toContain('005930');
    expect(sim.counters().tokensIssued).toBe(1);
    // three processes through tsx (two at once, then one), each compiling the CLI's sources at its
    // start: 18 s of vitest's default 30 s in one of three runs with four busy loops (5–7 s in the
    // others)
  }, 150_000);
});

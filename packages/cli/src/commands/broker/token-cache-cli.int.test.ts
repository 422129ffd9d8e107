import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { envWithoutHoga } from '../../hoga-process.test-helper.js';
import { useSimulatorAndFolder } from './token-cache.test-helper.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..', '..', '..');

const t = useSimulatorAndFolder('hoga-token-cli-');

/** Runs `hoga <args>` as its own process with the user's token file in `dir`; never throws. */
async function hoga(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ out: string; err: string; code: number }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'packages/cli/src/main.ts', ...args],
      {
        cwd: root,
        timeout: 120_000,
        env: {
          ...envWithoutHoga(),
          HOGA_BASE_URL: t.sim.url,
          HOGA_CLIENT_ID: 'sim-client',
          HOGA_CLIENT_SECRET: 'sim-secret',
          HOGA_ACCOUNT_SEQ: '1',
          HOGA_TOKEN_FILE: join(t.dir, 'tokens.json'),
          HOGA_DB: '',
          ...env,
        },
      },
    );
    return { out: stdout, err: stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: number };
    return { out: failed.stdout ?? '', err: failed.stderr ?? '', code: failed.code ?? -1 };
  }
}

// up to 7 processes a test, each compiling the CLI's sources through tsx at its start: seconds each on a
// quiet machine, tens of seconds on a loaded one (vitest's default 30 s per test timed out in a CI run
// under a load average of 20)
describe('hoga broker commands on one client id', { timeout: 300_000 }, () => {
  it.each([
    { cache: 'the token file', db: [] as string[] },
    { cache: 'the database', db: ['--db'] as string[] },
  ])('refuse a wrong client secret with invalid_client after a good command ($cache)', async ({ db }) => {
    const dbArgs = db.length === 0 ? [] : ['--db', t.database()];
    const good = await hoga(['quote', '005930', ...dbArgs]);
    expect(good.code, good.err).toBe(0);
    const wrong = await hoga(['quote', '005930', ...dbArgs], { HOGA_CLIENT_SECRET: 'wrong' });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/^hoga: invalid_client \(HTTP 401\)/);
    expect(wrong.out).toBe('');
    expect(wrong.out + wrong.err).not.toContain('wrong');
    // The refused command replaced nothing: the next good command still uses the first token.
    expect((await hoga(['quote', '005930', ...dbArgs])).code).toBe(0);
    expect(t.sim.counters().tokensIssued).toBe(1);
  });

  it('share one token between a command with --db and one without', async () => {
    const db = t.database();
    const [a, b] = await Promise.all([hoga(['quote', '005930']), hoga(['buying-power', '--db', db])]);
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    expect(t.sim.counters().tokensIssued).toBe(1);
    for (const args of [
      ['holdings', '--db', db],
      ['quote', 'AAPL'],
      ['accounts', '--db', db],
      ['accounts'],
    ]) {
      const result = await hoga(args);
      expect(result.code, result.err).toBe(0);
    }
    expect(t.sim.counters().tokensIssued).toBe(1);
  });
});

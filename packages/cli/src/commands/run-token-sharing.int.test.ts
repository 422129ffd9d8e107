/**
 * A live `hoga run` and the commands a user types beside it share one access token (the broker
 * keeps one valid token per client: a new issue revokes the old one).
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '@hoga/simulator';
import { describe, expect, it } from 'vitest';
import { envWithoutHoga } from '../hoga-process.test-helper.js';
import { cli, exitedWithin, root, run, start, strategy, until } from './run-process.test-helper.js';

/** A simulator on the wall clock (both processes judge a token's expiry alike), a new folder named `prefix…`, and the environment of a hoga process on them. */
async function simulatorAndEnv(prefix: string) {
  const sim = await startSimulator({ port: 0, start: 'now', rateLimit: false });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env = {
    ...envWithoutHoga(),
    HOGA_BASE_URL: sim.url,
    HOGA_CLIENT_ID: 'sim-client',
    HOGA_CLIENT_SECRET: 'sim-secret',
    HOGA_TOKEN_FILE: join(dir, 'tokens.json'),
    HOGA_DB: '',
    HOGA_PROFILE: '',
  };
  return { sim, dir, env };
}

describe('hoga run and hoga quote side by side', () => {
  // Before: the run's client kept its token in the database only, the other commands in
  // ~/.hoga/tokens.json: the run issued a token (revoking the file's), `hoga quote` then found its
  // token revoked and issued another (revoking the run's), and so on at every command; the run's
  // requests met 401 token-revoked (docs/cli.md: "a command never revokes a running engine's token").
  it('issue one token between them', async () => {
    const { sim, dir, env } = await simulatorAndEnv('hoga-token-sharing-');
    const db = join(dir, 'run.sqlite');
    try {
      await run(process.execPath, ['--import', 'tsx', cli, 'db', 'migrate', '--db', db], { cwd: root, env });
      const r = start(
        ['run', strategy, '--mode', 'live', '--symbols', '005930', '--status-every', '1', '--db', db],
        env,
      );
      expect(await until(r, / status /, 60_000)).toBe(true);
      const quotes: string[] = [];
      for (let i = 0; i < 2; i += 1) {
        const q = await run(process.execPath, ['--import', 'tsx', cli, 'quote', '005930', '-v'], {
          cwd: root,
          env,
        });
        quotes.push(q.stderr);
      }
      const seen = r.out.join('').split(' status ').length;
      expect(await until(r, new RegExp(`( status [^]*){${seen}}`), 60_000)).toBe(true);
      r.child.kill('SIGINT');
      expect(await exitedWithin(r, 60_000)).toBe(0);
      expect(quotes.join('')).not.toContain('token-revoked');
      expect(sim.counters().tokensIssued).toBe(1);
    } finally {
      await sim.close();
    }
  }, 180_000);

  // Before: `hoga run --db NEW.sqlite` stopped at once with "no database at NEW.sqlite: create it
  // with hoga db migrate", though its --help says the database is made when missing (the broker
  // settings were read through the path of the broker commands, which never create one).
  it('hoga run --db makes a database that is missing, as its help says', async () => {
    const { sim, dir, env } = await simulatorAndEnv('hoga-run-new-db-');
    try {
      const db = join(dir, 'new', 'run.sqlite');
      const r = start(
        ['run', strategy, '--mode', 'paper', '--symbols', '005930', '--status-every', '1', '--db', db],
        env,
      );
      expect(await until(r, / status |no database/, 60_000)).toBe(true);
      r.child.kill('SIGINT');
      expect(await exitedWithin(r, 60_000)).toBe(0);
      expect(r.out.join('')).not.toContain('no database');
      expect(statSync(db).mode & 0o777).toBe(0o600);
    } finally {
      await sim.close();
    }
  }, 180_000);
});

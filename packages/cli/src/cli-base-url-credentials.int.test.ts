/**
 * A broker base URL with a user name and password in it (`https://user:pass@host`) is refused
 * before anything uses it: the connector would send them only as Basic auth of the token request
 * (its API calls carry the bearer token instead), and the password would otherwise be shown in
 * errors and kept in the token cache's key.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga } from './hoga-process.test-helper.js';

let sim: SimulatorHandle;
const dir = mkdtempSync(join(tmpdir(), 'hoga-base-url-credentials-'));
const PASSWORD = 'PW-IN-URL-7f3';
let withCredentials: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, start: '2026-11-23T10:00:00.000+09:00', rateLimit: false });
  withCredentials = sim.url.replace('http://', `http://gateway-user:${PASSWORD}@`);
});
afterAll(async () => {
  await sim.close();
});

const credentials = { HOGA_CLIENT_ID: 'sim-client', HOGA_CLIENT_SECRET: 'sim-secret' };

describe('a base URL with a password in it', () => {
  // Before: `accounts` went on and printed the accounts; an unreachable one was reported as
  // "the broker at http://gateway-user:PW-IN-URL-7f3@127.0.0.1:… is not reachable", and the
  // token cache's key kept the password.
  it('from --base-url is a usage error that shows the URL without the password', async () => {
    const tokens = join(dir, 'flag-tokens.json');
    const logFile = join(dir, 'flag.log');
    const run = await hoga(['accounts', '--base-url', withCredentials, '-v', '--log-file', logFile], {
      env: { ...credentials, HOGA_TOKEN_FILE: tokens },
    });
    expect(run.code).toBe(2);
    expect(run.err).toContain('gateway-user:***@127.0.0.1');
    expect(run.err).toContain('give the address without them');
    expect(`${run.out}${run.err}`).not.toContain(PASSWORD);
    expect(existsSync(tokens)).toBe(false);
    if (existsSync(logFile)) expect(readFileSync(logFile, 'utf8')).not.toContain(PASSWORD);
  });

  it('from HOGA_BASE_URL is refused the same way, in --json too', async () => {
    const run = await hoga(['accounts', '--json'], {
      env: { ...credentials, HOGA_BASE_URL: withCredentials, HOGA_TOKEN_FILE: join(dir, 'env-tokens.json') },
    });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.err)).toMatchObject({ error: { code: 'usage', exitCode: 2 } });
    expect(run.err).toContain('gateway-user:***@');
    expect(`${run.out}${run.err}`).not.toContain(PASSWORD);
  });

  it("from the profile's baseUrl is refused before an order is recorded", async () => {
    const project = mkdtempSync(join(dir, 'profile-'));
    writeFileSync(
      join(project, 'hoga.config.json'),
      JSON.stringify({
        defaultProfile: 'p',
        profiles: { p: { baseUrl: withCredentials, ...{ clientId: 'sim-client' } } },
      }),
    );
    const db = join(project, 'orders.sqlite');
    const run = await hoga(['order', 'buy', '005930', '1', '--limit', '60000', '--db', db], {
      cwd: project,
      env: { HOGA_CLIENT_SECRET: 'sim-secret', HOGA_TOKEN_FILE: join(project, 'tokens.json') },
    });
    expect(run.code).toBe(2);
    expect(run.err).toContain('gateway-user:***@');
    expect(`${run.out}${run.err}`).not.toContain(PASSWORD);
    expect(existsSync(db)).toBe(false);
  });

  it('with a user name only is refused too, and a plain URL still works', async () => {
    const userOnly = await hoga(
      ['accounts', '--base-url', sim.url.replace('http://', 'http://gateway-user@')],
      {
        env: { ...credentials, HOGA_TOKEN_FILE: join(dir, 'user-tokens.json') },
      },
    );
    expect(userOnly.code).toBe(2);
    expect(userOnly.err).toContain('gateway-user@127.0.0.1');
    const plain = await hoga(['accounts', '--base-url', sim.url, '--json'], {
      env: { ...credentials, HOGA_TOKEN_FILE: join(dir, 'plain-tokens.json') },
    });
    expect(plain.code).toBe(0);
  });
});

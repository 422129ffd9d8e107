/**
 * Under `umask 000` (every new file and directory open to all, unless made otherwise), what hoga
 * makes that holds the access token, or the account's orders, is still its owner's alone.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, REPO_ROOT } from './hoga-process.test-helper.js';

let sim: SimulatorHandle;
const dir = mkdtempSync(join(tmpdir(), 'hoga-secrets-modes-'));
/** Runs Node under `umask 000`. */
const nodeUnderUmask000 = join(dir, 'node-umask-000');

beforeAll(async () => {
  sim = await startSimulator({ port: 0, start: '2026-11-23T10:00:00.000+09:00', rateLimit: false });
  writeFileSync(nodeUnderUmask000, `#!/bin/sh\numask 000\nexec '${process.execPath}' "$@"\n`);
  chmodSync(nodeUnderUmask000, 0o755);
});
afterAll(async () => {
  await sim.close();
});

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe('under umask 000', () => {
  // Before: the database's new directory (./data by default) was made 0777: any user could add a
  // hoga.sqlite-wal or -shm of their own beside the database before SQLite made it, and read the
  // token and the orders SQLite then wrote into it (hoga leaves a sidecar it does not own as it is).
  it("an order's new database, its sidecars, the token file and the log file are the owner's only", async () => {
    const data = join(dir, 'project', 'data');
    const db = join(data, 'hoga.sqlite');
    const tokens = join(dir, 'home', '.hoga', 'tokens.json');
    const logFile = join(dir, 'order.log');
    const run = await hoga(
      ['order', 'buy', '005930', '1', '--limit', '60000', '--db', db, '-v', '--log-file', logFile],
      {
        node: nodeUnderUmask000,
        env: {
          HOGA_BASE_URL: sim.url,
          HOGA_CLIENT_ID: 'sim-client',
          HOGA_CLIENT_SECRET: 'sim-secret',
          HOGA_TOKEN_FILE: tokens,
        },
      },
    );
    expect(run.err).toContain('requesting an access token');
    expect(run.code).toBe(0);
    expect({
      data: modeOf(data),
      db: modeOf(db),
      commands: modeOf(`${db}-commands`),
      tokensDir: modeOf(join(dir, 'home', '.hoga')),
      tokens: modeOf(tokens),
      log: modeOf(logFile),
    }).toEqual({ data: '700', db: '600', commands: '600', tokensDir: '700', tokens: '600', log: '600' });
  });
});

describe('an existing --log-file', () => {
  // Before: only a new log file was made 0600; an existing one others could read (0644) stayed so
  // while hoga appended the account's orders to it.
  it("that others can read is made the owner's only before a record is written to it", async () => {
    const logFile = join(dir, 'existing.log');
    writeFileSync(logFile, 'earlier lines\n', { mode: 0o644 });
    chmodSync(logFile, 0o644);
    const run = await hoga(
      [
        'order',
        'buy',
        '005930',
        '1',
        '--limit',
        '60000',
        '--db',
        join(dir, 'existing.sqlite'),
        '--log-file',
        logFile,
      ],
      {
        env: {
          HOGA_BASE_URL: sim.url,
          HOGA_CLIENT_ID: 'sim-client',
          HOGA_CLIENT_SECRET: 'sim-secret',
          HOGA_TOKEN_FILE: join(dir, 'existing-tokens.json'),
        },
      },
    );
    expect(run.code).toBe(0);
    expect(readFileSync(logFile, 'utf8')).toMatch(/^earlier lines\n\{/);
    expect(modeOf(logFile)).toBe('600');
  });

  // Another user's file is not hoga's to change: the user is told, and the records still go there.
  it.runIf(process.getuid?.() === 0)(
    'of another user that others can read is named on stderr with its mode, and left as it is',
    async () => {
      const logFile = join(dir, 'someone-elses.log');
      writeFileSync(logFile, '', { mode: 0o666 });
      chmodSync(logFile, 0o666);
      chownSync(logFile, 65534, 65534);
      const run = await hoga(['quote', '005930', '--log-file', logFile], {
        env: {
          HOGA_BASE_URL: sim.url,
          HOGA_CLIENT_ID: 'sim-client',
          HOGA_CLIENT_SECRET: 'sim-secret',
          HOGA_TOKEN_FILE: join(dir, 'someone-elses-tokens.json'),
        },
      });
      expect(run.code).toBe(0);
      expect(readFileSync(logFile, 'utf8')).toContain('requesting an access token');
      expect(run.err).toContain(`--log-file ${logFile} can be read by other users (mode 0666)`);
      expect(modeOf(logFile)).toBe('666');
    },
  );
});

describe('a process a strategy starts', () => {
  // Before: the client secret a .env file holds was loaded into hoga's environment, which every
  // process a strategy starts (a notifier, a model) inherits: 'child sees SECRET-FROM-DOTENV-3c9'.
  it('does not inherit the client secret of a .env file', async () => {
    const project = join(dir, 'dotenv-project');
    mkdirSync(project);
    writeFileSync(join(project, '.env'), 'HOGA_CLIENT_SECRET=SECRET-FROM-DOTENV-3c9\n', { mode: 0o600 });
    const run = await hoga(
      [
        'backtest',
        join(REPO_ROOT, 'packages/cli/test/fixtures/starts-a-child.ts'),
        '--symbols',
        '005930',
        '--interval',
        '1d',
        '--from',
        '2026-11-16',
        '--to',
        '2026-11-20',
        '--db',
        join(project, 'backtest.sqlite'),
      ],
      { cwd: project },
    );
    expect(run.code).toBe(0);
    expect(run.err).toContain('child sees nothing');
    expect(`${run.out}${run.err}`).not.toContain('SECRET-FROM-DOTENV-3c9');
  }, 120_000);
});

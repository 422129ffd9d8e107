/**
 * Issue 13, items 1, 3 and 7: an unreachable or silent broker fails fast with a sentence, retries
 * show on stderr, no error prints a stack trace, a closed pipe ends quietly, and every exit code of
 * the README's table is what the CLI returns.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, nodeForAnyUser, REPO_ROOT, simFlags } from './hoga-process.test-helper.js';

let sim: SimulatorHandle;
let silent: Server;
let silentUrl: string;
const silentSockets = new Set<Socket>();
let closedUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'hoga-failures-'));
const STACK = /\n\s+at /;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
}

beforeAll(async () => {
  sim = await startSimulator({ start: '2026-11-23T10:00:00.000+09:00', rateLimit: false, control: true });
  // Accepts connections and never answers (each kept, so afterAll can end them: close() waits for them).
  silent = createServer((socket) => {
    silentSockets.add(socket);
    socket.on('close', () => silentSockets.delete(socket));
  });
  silentUrl = `http://127.0.0.1:${await listen(silent)}`;
  // A port nothing listens on: bind one, then close it.
  const probe = createServer();
  closedUrl = `http://127.0.0.1:${await listen(probe)}`;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  await sim.close();
  for (const socket of silentSockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

const creds = ['--client-id', 'sim-client', '--client-secret', 'sim-secret'];

describe('an unreachable broker (item 1)', () => {
  it('a refused connection fails at once with a sentence naming the address, without retrying', async () => {
    const run = await hoga(['quote', '005930', '--base-url', closedUrl, ...creds]);
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      `hoga: the broker at ${closedUrl} is not reachable (ECONNREFUSED): check the address (HOGA_BASE_URL, --base-url or the profile's baseUrl in hoga.config.json) and that the broker is running\n`,
    );
    expect(run.out).toBe('');
  });

  // Before: `hoga init`'s profile named a simulator not running, and hoga backtest (or hoga run)
  // said "the broker is not reachable (ECONNREFUSED): check the address (HOGA_BASE_URL or
  // --base-url)": no address, and not where it came from (no HOGA_BASE_URL was set).
  it('hoga backtest and hoga run name the address of the profile and the profile as a place to check', async () => {
    const project = join(dir, 'profile-closed');
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, 'hoga.config.json'),
      JSON.stringify({
        defaultProfile: 'sim',
        profiles: { sim: { baseUrl: closedUrl, clientId: 'sim-client', clientSecret: 'sim-secret' } },
      }),
    );
    const address = closedUrl.replace('http://', '');
    const sma = join(REPO_ROOT, 'strategies', 'sma-crossover.ts');
    const range = ['--symbols', '005930', '--interval', '1d', '--from', '2026-10-01', '--to', '2026-10-30'];
    for (const args of [
      ['backtest', sma, ...range],
      ['run', sma, '--mode', 'paper'],
    ]) {
      const run = await hoga(args, { cwd: project });
      expect(run.code, run.err).toBe(1);
      expect(run.err).toContain(
        `hoga: the broker at ${address} is not reachable (ECONNREFUSED): check the address (HOGA_BASE_URL, --base-url or the profile's baseUrl in hoga.config.json)`,
      );
      expect(run.err).not.toMatch(STACK);
    }
  }, 60_000);

  it('a server that never answers ends at --timeout', async () => {
    const run = await hoga(['quote', '005930', '--base-url', silentUrl, ...creds, '--timeout', '1.5']);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`hoga: the broker at ${silentUrl} did not answer within 1.5 s (--timeout 1.5)`);
    expect(run.err).not.toMatch(STACK);
  });

  it('https:// against a plain HTTP server says so at once instead of an OpenSSL message', async () => {
    const https = sim.url.replace('http://', 'https://');
    const run = await hoga(['quote', '005930', '--base-url', https, ...creds]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      /^hoga: the broker at https:\/\/127\.0\.0\.1:\d+ did not speak TLS .*use an http:\/\/ address\n$/,
    );
    expect(run.err).not.toContain('retrying');
  });

  it('shows the retries it makes on stderr', async () => {
    const fault = await fetch(`${sim.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'internal-error', path: '/api/v1/prices*', count: 1 }),
    });
    expect(fault.ok).toBe(true);
    const run = await hoga(['quote', '005930', ...simFlags(sim.url)], { env: { HOME: dir } });
    expect(run.code).toBe(0);
    expect(run.err).toMatch(
      /^hoga: getPrices: retrying in \d+ s \(attempt 2 of 5\) after internal-error…\n$/,
    );
    expect(run.out).toMatch(/^005930\s/m);
  });

  it('--timeout is in the help with its default of 30 s', async () => {
    const run = await hoga(['quote', '--help']);
    expect(run.out).toMatch(
      /--timeout <seconds>\s+give up when the broker has not answered by\s+then\s+\(default: 30\)/,
    );
  });
});

describe('no stack traces (item 3)', () => {
  it('db migrate on a directory names it and exits 2', async () => {
    const run = await hoga(['db', 'migrate', '--db', dir]);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`hoga db: ${dir} is a directory`);
    expect(run.err).not.toMatch(STACK);
  });

  it.runIf(process.getuid?.() === 0)('db migrate on an unwritable path names it and exits 1', async () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    chmodSync(dir, 0o755);
    const run = await hoga(['db', 'migrate', '--db', join(locked, 'hoga.sqlite')], {
      uid: 65534,
      cwd: '/',
      env: { HOME: '/tmp' },
      node: nodeForAnyUser(),
    });
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      new RegExp(`^hoga: .*${join(locked, 'hoga.sqlite').replace(/[/.]/g, '\\$&')}.*permission denied`, 'm'),
    );
    expect(run.err).not.toMatch(STACK);
  });

  it('sim --state with a corrupt file names the file and exits 2', async () => {
    const state = join(dir, 'state.json');
    writeFileSync(state, '{"accounts": [');
    const run = await hoga(['sim', '--port', '0', '--state', state]);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`the state file ${state} is not valid JSON`);
    expect(run.err).not.toMatch(STACK);
  });

  it.each([
    ['not a simulator state', '{"version": 1, "sequence": "x"}', 'is corrupt (sequence: '],
    ['a directory', null, 'is a directory'],
  ])('sim --state with %s names the file in one line and exits 2', async (_what, text, says) => {
    const state = join(dir, text === null ? 'state-dir' : 'state-shape.json');
    if (text === null) mkdirSync(state);
    else writeFileSync(state, text);
    const run = await hoga(['sim', '--port', '0', '--state', state]);
    // before: 'hoga: unexpected error: Simulator state file … is corrupt: ✖ Invalid input …' over
    // 13 lines (or 'EISDIR: illegal operation on a directory, read'), exit 1
    expect(run.code).toBe(2);
    expect(run.err).toContain(`hoga sim: the state file ${state} ${says}`);
    expect(run.err.trim().split('\n')).toHaveLength(1);
    expect(run.err).not.toMatch(STACK);
  });

  it('a closed pipe (hoga candles … | head -3) ends quietly with exit 0', async () => {
    const run = await hoga(
      ['candles', '005930', '--interval', '1m', '--count', '5000', ...simFlags(sim.url)],
      {
        env: { HOME: dir },
        onSpawn: (child) => {
          let seen = 0;
          child.stdout?.on('data', (chunk: Buffer) => {
            seen += chunk.toString().split('\n').length - 1;
            if (seen >= 3) child.stdout?.destroy();
          });
        },
      },
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
  });
  // Before: a failure whose message met a closed stderr (`hoga … 2>&1 | head -0`) exited 0, the
  // EPIPE of its message ending the process with success: a failing command read as done.
  it('a failure whose stderr is closed keeps its exit code', async () => {
    const run = await hoga(['risk', 'status', '--db', join(dir, 'no-such-store.sqlite')], {
      env: { HOME: dir },
      onSpawn: (child) => child.stderr?.destroy(),
    });
    expect(run.code).toBe(2);
  });
});

describe('exit codes from the README table (item 7)', () => {
  it('0: success', async () => {
    expect((await hoga(['fx', ...simFlags(sim.url)], { env: { HOME: dir } })).code).toBe(0);
  });

  it('1: the broker refused (unknown symbol)', async () => {
    const run = await hoga(['orderbook', 'NOPE99', ...simFlags(sim.url)], { env: { HOME: dir } });
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^hoga: stock-not-found \(HTTP 404\) from getOrderbook: .+\nrequest id: \S+\n$/);
  });

  it.each([
    [['sim', '--port', '99999'], /^hoga sim: option '--port <port>' argument '99999' is invalid/],
    [['quote'], /^hoga quote: missing required argument 'symbols'\nsee hoga quote --help\n$/],
    [
      ['quote', '005930', '--frobnicate'],
      /^hoga quote: unknown option '--frobnicate'\nsee hoga quote --help\n$/,
    ],
    [['nonsense'], /^hoga: unknown command 'nonsense'\nsee hoga --help\n$/],
    [
      ['db', 'info', '--db', join(tmpdir(), 'hoga-missing-db', 'x.sqlite')],
      /^hoga db: no database at .*x\.sqlite: /,
    ],
    [['fx'], /^hoga: HOGA_BASE_URL, HOGA_CLIENT_ID, HOGA_CLIENT_SECRET are not set/],
  ])('2: bad usage or configuration: hoga %j', async (args, message) => {
    const run = await hoga(args);
    expect(run.err).toMatch(message);
    expect(run.err).not.toContain('Usage:');
    expect(run.code).toBe(2);
  });

  it('3: an order denied by the risk checks', async () => {
    const db = join(dir, 'risk.sqlite');
    expect((await hoga(['db', 'migrate', '--db', db])).code).toBe(0);
    const run = await hoga(
      [
        'order',
        'buy',
        '005930',
        '2000',
        '--limit',
        '60000',
        '--check',
        ...simFlags(sim.url),
        '--db',
        db,
        '--sim-clock',
      ],
      { env: { HOME: dir } },
    );
    expect(run.out).toMatch(/^denied: /);
    expect(run.code).toBe(3);
  });
});

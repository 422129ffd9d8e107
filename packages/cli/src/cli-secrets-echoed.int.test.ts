/**
 * An error answer that quotes the request's access token (a gateway or proxy in front of the broker
 * that echoes the Authorization header it refused) never puts the token on the terminal, in the log
 * file or in the database.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitedWithin, start, until } from './commands/run-process.test-helper.js';
import { envWithoutHoga, hoga, REPO_ROOT } from './hoga-process.test-helper.js';

const CLIENT_ID = 'ECHO-ID-41aa';
const SECRET = 'ECHO-SECRET-7b3f';
let sim: SimulatorHandle;
let gateway: http.Server;
let gatewayUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'hoga-secrets-echoed-'));
/** The access tokens the gateway saw. */
const seen = new Set<string>();

/**
 * The requests the gateway in front of the simulator answers itself, with `status`, quoting the
 * Authorization header (and the bare token) it was sent; it passes every other one on.
 */
let refuses: { path: RegExp; method: string; status: number } | null = null;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    start: '2026-11-23T10:00:00.000+09:00',
    speed: 30,
    rateLimit: false,
    clientId: CLIENT_ID,
    clientSecret: SECRET,
  });
  const upstream = new URL(sim.url);
  gateway = http.createServer((req, res) => {
    const authorization = req.headers.authorization ?? '';
    const token = authorization.replace(/^Bearer /, '');
    if (token !== '') seen.add(token);
    if (refuses?.path.test(req.url ?? '') === true && req.method === refuses.method) {
      const message = `gateway refused ${req.method} ${req.url} of token ${token} (authorization: ${authorization})`;
      if (refuses.status === 200) {
        // a 200 that is no JSON (a login page of a proxy in between), quoting the request
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(message);
        return;
      }
      res.writeHead(refuses.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'gateway-refused', message } }));
      return;
    }
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  gateway.listen(0, '127.0.0.1');
  await once(gateway, 'listening');
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});
afterAll(async () => {
  gateway.closeAllConnections();
  gateway.close();
  await sim.close();
});

function environment(name: string): NodeJS.ProcessEnv {
  return {
    ...envWithoutHoga(),
    HOGA_BASE_URL: gatewayUrl,
    HOGA_CLIENT_ID: CLIENT_ID,
    HOGA_CLIENT_SECRET: SECRET,
    HOGA_TOKEN_FILE: join(dir, `${name}-tokens.json`),
    HOGA_DB: join(dir, `${name}.sqlite`),
  };
}

/** Every row of every table of the database but the token cache (which keeps the token, 0600), as text. */
function databaseText(file: string): string {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('token_cache', 'token_leases')",
      )
      .all() as { name: string }[];
    return tables.map(({ name }) => JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all())).join('\n');
  } finally {
    db.close();
  }
}

/**
 * The names of the `sources` that hold an access token the gateway saw, or the client secret, or
 * their first 16 characters (a token cut short is still most of it).
 */
function holdingSecrets(sources: Readonly<Record<string, string>>): string[] {
  expect(seen.size).toBeGreaterThan(0);
  const secrets = [...seen, SECRET].map((secret) => secret.slice(0, 16));
  return Object.entries(sources)
    .filter(([, text]) => secrets.some((secret) => text.includes(secret)))
    .map(([name]) => name);
}

describe('an error answer quoting the access token', () => {
  // Before: 'hoga: gateway-refused (HTTP 400) from getPrices: gateway refused GET /api/v1/... of
  // token wiS4RX… (authorization: Bearer wiS4RX…)': the live token on stderr, in --json's message
  // and -v's stack.
  it.each([
    { name: 'text', args: ['-v'] },
    { name: 'json', args: ['-v', '--json'] },
  ])('is told without the token ($name)', async ({ name, args }) => {
    refuses = { path: /^\/api\/v1\/prices/, method: 'GET', status: 400 };
    const logFile = join(dir, `quote-${name}.log`);
    const run = await hoga(['quote', '005930', ...args, '--log-file', logFile], {
      env: environment(`quote-${name}`),
    });
    expect(run.code).toBe(1);
    expect(run.err).toContain('gateway refused GET /api/v1/prices');
    expect(run.err).toContain('of token <secret> (authorization: Bearer <secret>)');
    expect(holdingSecrets({ stdout: run.out, stderr: run.err, log: readFileSync(logFile, 'utf8') })).toEqual(
      [],
    );
  });

  // Before: 'getPrices: unexpected response shape at (body): expected JSON, found gateway refused
  // GET /api/v1/prices?symbols=005930 of token GKr-tBcGhPYfCCTrdCEVi96UK6dYEisgp55B6': most of
  // the token, and under -v all of it again in the stack.
  it('in a 200 answer that is no JSON, is told without the token', async () => {
    refuses = { path: /^\/api\/v1\/prices/, method: 'GET', status: 200 };
    const logFile = join(dir, 'quote-200.log');
    const run = await hoga(['quote', '005930', '-v', '--log-file', logFile], {
      env: environment('quote-200'),
    });
    expect(run.code).toBe(1);
    expect(run.err).toContain('expected JSON, found gateway refused GET /api/v1/prices');
    expect(holdingSecrets({ stdout: run.out, stderr: run.err, log: readFileSync(logFile, 'utf8') })).toEqual(
      [],
    );
  });

  // Before: the refused order's line on stdout ('rejected …: gateway-refused createOrder: HTTP 422
  // … of token GKr-tB… (authorization: Bearer GKr-tB…)') and its OrderRejected row in the
  // database's journal held the live token.
  it('refusing a live order, stays out of the run output, log and database', async () => {
    refuses = { path: /^\/api\/v1\/orders/, method: 'POST', status: 422 };
    const env = environment('run');
    const logFile = join(dir, 'run.log');
    const strategy = join(REPO_ROOT, 'packages/cli/test/fixtures/buys-every-bar.ts');
    const r = start(
      [
        'run',
        strategy,
        '--mode',
        'live',
        '--symbols',
        '005930',
        '--candle-poll-ms',
        '250',
        '--log-file',
        logFile,
      ],
      env,
    );
    const rejected = await until(r, /gateway refused POST/, 90_000);
    r.child.kill('SIGINT');
    expect(await exitedWithin(r, 60_000)).toBe(0);
    expect(rejected).toBe(true);
    const sources = {
      output: r.out.join(''),
      log: readFileSync(logFile, 'utf8'),
      database: databaseText(env.HOGA_DB!),
    };
    expect(holdingSecrets(sources)).toEqual([]);
    expect(sources.output).toContain('of token <secret>');
  }, 180_000);
});

describe("a strategy's log of the environment", () => {
  // Before: the record's HOGA_CLIENT_SECRET field and the 'HOGA_CLIENT_SECRET=…' line of its text
  // were written in clear on the run's output and in the log file: the logger hid the secret under
  // a key named clientSecret or client_secret, not HOGA_CLIENT_SECRET, and the variable was there.
  it('hides the client secret in its fields and its text', async () => {
    refuses = null;
    const env = environment('env-log');
    const logFile = join(dir, 'env-log.log');
    const strategy = join(REPO_ROOT, 'packages/cli/test/fixtures/logs-its-environment.ts');
    const r = start(['run', strategy, '--mode', 'paper', '--symbols', '005930', '--log-file', logFile], env);
    const logged = await until(r, /environment:/, 90_000);
    r.child.kill('SIGINT');
    expect(await exitedWithin(r, 60_000)).toBe(0);
    expect(logged).toBe(true);
    const sources = { output: r.out.join(''), log: readFileSync(logFile, 'utf8') };
    expect(holdingSecrets(sources)).toEqual([]);
    expect(sources.output).toContain(`HOGA_CLIENT_ID=${CLIENT_ID}`);
    // the secret is no longer in hoga's environment once the command starts (holdClientSecret);
    // the logger would hide it anyway (logger-deep-redaction.test.ts)
    expect(sources.log).toContain(`"HOGA_CLIENT_ID":"${CLIENT_ID}"`);
  }, 180_000);
});

describe('a strategy inspecting itself', () => {
  // Before: util.inspect of a live strategy, 12 levels deep, reached the engine's broker client:
  // its config's clientSecret and its token manager's accessToken, in clear (62 and 32 times).
  it('shows neither the client secret nor the access token', async () => {
    refuses = null;
    const env = environment('inspect');
    const out = join(dir, 'inspected.txt');
    const config = join(dir, 'inspect-config.json');
    writeFileSync(config, JSON.stringify({ out }));
    const strategy = join(REPO_ROOT, 'packages/cli/test/fixtures/inspects-itself.ts');
    const r = start(['run', strategy, '--config', config, '--mode', 'live', '--symbols', '005930'], env);
    const inspected = await until(r, /inspected/, 90_000);
    r.child.kill('SIGINT');
    expect(await exitedWithin(r, 60_000)).toBe(0);
    expect(inspected).toBe(true);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(`BrokerClient { baseUrl: '${gatewayUrl}', clientId: '${CLIENT_ID}' }`);
    expect(holdingSecrets({ inspected: text })).toEqual([]);
  }, 180_000);
});

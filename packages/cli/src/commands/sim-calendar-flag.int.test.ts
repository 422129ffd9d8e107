/**
 * `hoga sim --calendar <file.json>` declares holidays and special sessions at the start, in the
 * shape of the simulator's start option `calendar` (docs/simulator.md): a real `hoga sim` child
 * process, talked to over HTTP. Before, `hoga sim` had no such flag (a test started it with
 * `--control` and posted to `/_sim/calendar`). A bad file is a usage error naming the file and
 * the field, before anything listens.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { HOGA_BIN, hoga } from '../hoga-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-sim-calendar-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let sim: ChildProcess | undefined;
afterEach(() => {
  sim?.kill('SIGTERM');
  sim = undefined;
});

/** A file in the test's folder holding `text`. */
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Starts `hoga sim <args>` and resolves with its URL once it listens. */
function startSim(args: readonly string[]): Promise<string> {
  const child = spawn(process.execPath, [HOGA_BIN, 'sim', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  sim = child;
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  return new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /^listening on (\S+)$/m.exec(out)?.[1];
      if (url !== undefined) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`hoga sim exited ${code}: ${err}`)));
  });
}

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=sim-client&client_secret=sim-secret',
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** An answer of the simulator: its `result`, or its `error`. */
interface Answer {
  readonly status: number;
  readonly json: {
    readonly result?: { readonly today?: unknown; readonly nextBusinessDay?: { readonly date: string } };
    readonly error?: { readonly code: string };
  };
}

async function call(url: string, bearer: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'x-service-account': '1',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Answer['json'] };
}

const order = { symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '1', price: '50000' };

describe('hoga sim --calendar', () => {
  it('declares a KR holiday: the calendar endpoint answers it closed, and an order that day is refused', async () => {
    // Tuesday 2026-11-24, a trading day by the built-in calendar, declared a KR holiday
    const calendar = file(
      'holiday.json',
      JSON.stringify({
        holidays: [{ market: 'KR', date: '2026-11-24' }],
        specialSessions: [{ market: 'KR', date: '2026-11-25', open: '10:00' }],
      }),
    );
    const url = await startSim(['--start', '2026-11-24T10:00:00+09:00', '--calendar', calendar]);
    const bearer = await token(url);
    const day = await call(url, bearer, '/api/v1/market-calendar/KR?date=2026-11-24');
    expect(day.status).toBe(200);
    expect(day.json.result?.today).toEqual({ date: '2026-11-24', integrated: null });
    expect(day.json.result?.nextBusinessDay?.date).toBe('2026-11-25');
    const late = await call(url, bearer, '/api/v1/market-calendar/KR?date=2026-11-25');
    // the special session: a late opening at 10:00 KST, the close as usual
    expect(late.json.result?.today).toMatchObject({
      integrated: {
        regularMarket: {
          startTime: '2026-11-25T10:00:00.000+09:00',
          endTime: '2026-11-25T15:30:00.000+09:00',
        },
      },
    });
    const placed = await call(url, bearer, '/api/v1/orders', order);
    expect([placed.status, placed.json.error?.code]).toEqual([422, 'order-hours-closed']);
  }, 60_000);

  it('without it, the same day trades (the order is taken)', async () => {
    const url = await startSim(['--start', '2026-11-24T10:00:00+09:00']);
    const bearer = await token(url);
    const placed = await call(url, bearer, '/api/v1/orders', order);
    expect(placed.status, JSON.stringify(placed.json)).toBe(200);
  }, 60_000);

  const bad = [
    {
      name: 'a file that does not exist',
      path: () => join(dir, 'missing.json'),
      message: (p: string) => `hoga sim: --calendar ${p}: cannot read it (ENOENT)`,
    },
    {
      name: 'a file that is not JSON',
      path: () => file('not-json.json', '{"holidays": ['),
      message: (p: string) => `hoga sim: --calendar ${p}: not valid JSON`,
    },
    {
      name: 'a date that does not exist, naming the field',
      path: () => file('bad-date.json', JSON.stringify({ holidays: [{ market: 'KR', date: '2026-11-31' }] })),
      message: (p: string) =>
        `hoga sim: --calendar ${p}: holidays.0.date: found "2026-11-31", expected a calendar date`,
    },
    {
      // before: zod's own words, 'holidays: Invalid input: expected array, received string'
      name: 'a list that is not one, naming the field and the value',
      path: () => file('not-a-list.json', JSON.stringify({ holidays: '2026-11-24' })),
      message: (p: string) => `hoga sim: --calendar ${p}: holidays: found "2026-11-24", expected array`,
    },
    {
      // before: 'holidays.0.market: Invalid option: expected one of "KR"|"US"', the value unsaid
      name: 'an unknown market, naming the field and the value',
      path: () =>
        file('bad-market.json', JSON.stringify({ holidays: [{ market: 'JP', date: '2026-11-24' }] })),
      message: (p: string) =>
        `hoga sim: --calendar ${p}: holidays.0.market: found "JP", expected one of "KR"|"US"`,
    },
    {
      name: 'a close too early, naming the field',
      path: () =>
        file(
          'bad-close.json',
          JSON.stringify({
            specialSessions: [{ market: 'KR', date: '2026-11-25', open: '10:00', close: '10:10' }],
          }),
        ),
      message: (p: string) =>
        `hoga sim: --calendar ${p}: specialSessions.0.close: expected a close at least 20 minutes after the open 10:00`,
    },
    {
      name: 'an unknown key',
      path: () => file('unknown-key.json', JSON.stringify({ holiday: [] })),
      message: (p: string) =>
        `hoga sim: --calendar ${p}: holiday: found [], expected no such field (a typo?)`,
    },
  ];
  it.each(bad)(
    'refuses $name: exit 2, nothing listens',
    async (c) => {
      const path = c.path();
      const run = await hoga(['sim', '--port', '0', '--calendar', path]);
      expect(run.code, run.err).toBe(2);
      expect(run.out).toBe('');
      expect(run.err).toContain(c.message(path));
      expect(run.err.split('\n').filter((l) => l !== '')).toHaveLength(1);
    },
    60_000,
  );
});

/**
 * Issue 13's features over the real `hoga`: `hoga init` and profiles (env overrides the file, `.env`
 * loaded), `hoga data download|list|export` (resumes after Ctrl-C), and `-v`/`--log-file` showing
 * retries and token requests without secrets.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags } from './hoga-process.test-helper.js';

let sim: SimulatorHandle;
const home = mkdtempSync(join(tmpdir(), 'hoga-features-'));

beforeAll(async () => {
  sim = await startSimulator({ start: '2026-11-23T10:00:00.000+09:00', rateLimit: false, control: true });
});
afterAll(async () => {
  await sim.close();
});

describe('hoga init and profiles', () => {
  it('writes a commented config with profiles sim and live, a .env template and .gitignore entries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-init-'));
    writeFileSync(join(dir, '.gitignore'), 'node_modules/');
    const run = await hoga(['init'], { cwd: dir });
    expect(run.code).toBe(0);
    const config = readFileSync(join(dir, 'hoga.config.json'), 'utf8');
    expect(config).toMatch(/^\/\/ /);
    expect(config).toContain('"sim": {');
    expect(config).toContain('"live": {');
    expect(readFileSync(join(dir, '.env'), 'utf8')).toContain('HOGA_CLIENT_SECRET=');
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(
      'node_modules/\n# hoga: secrets and local data\n.env\ndata/\n',
    );
    const again = await hoga(['init'], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/already exists; give --force/);
  });

  it('--dir makes a directory that does not exist yet, and names one that is a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-init-dir-'));
    // before: 'hoga: …/new/project/hoga.config.json does not exist', exit 2
    const made = await hoga(['init', '--dir', join(dir, 'new', 'project')], { cwd: dir });
    expect(made.code, made.err).toBe(0);
    expect(existsSync(join(dir, 'new', 'project', 'hoga.config.json'))).toBe(true);
    // before: 'next: hoga sim …', which in the working directory finds no hoga.config.json
    expect(made.out).toContain(`next: cd ${join('new', 'project')}, then: hoga sim   (in another terminal)`);
    writeFileSync(join(dir, 'a-file'), '');
    const file = await hoga(['init', '--dir', join(dir, 'a-file')], { cwd: dir });
    expect([file.code, file.err]).toEqual([
      2,
      `hoga: --dir ${join(dir, 'a-file')} is a file, not a directory\n`,
    ]);
  });

  it('--profile fills the connection from the file, .env supplies the secret, the environment wins', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-profile-'));
    expect((await hoga(['init'], { cwd: dir })).code).toBe(0);
    const file = join(dir, 'hoga.config.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('https://openapi.example.com', sim.url));
    writeFileSync(join(dir, '.env'), 'HOGA_CLIENT_ID=sim-client\nHOGA_CLIENT_SECRET="sim-secret"\n');
    const live = await hoga(['quote', '005930', '--profile', 'live'], { cwd: dir, env: { HOME: home } });
    expect(live.err).toBe('');
    expect(live.out).toMatch(/^005930\s+[\d,]+\s+KRW/m);
    const overridden = await hoga(['quote', '005930', '--profile', 'live'], {
      cwd: dir,
      env: { HOME: home, HOGA_BASE_URL: 'not-a-url' },
    });
    expect(overridden.code).toBe(2);
    expect(overridden.err).toContain('baseUrl is invalid (HOGA_BASE_URL or --base-url)');
    const unknown = await hoga(['fx', '--profile', 'paper'], { cwd: dir, env: { HOME: home } });
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/has no profile "paper" \(it has sim, live\)/);
  });

  // Before: a .env holding the client secret was read silently whoever else could read it too.
  it('warns when a .env holding the client secret may be read by other users', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-open-env-'));
    const profiles = { defaultProfile: 'live', profiles: { live: { baseUrl: sim.url } } };
    writeFileSync(join(dir, 'hoga.config.json'), JSON.stringify(profiles));
    const dotenv = join(dir, '.env');
    writeFileSync(dotenv, 'HOGA_CLIENT_ID=sim-client\nHOGA_CLIENT_SECRET=sim-secret\n');
    chmodSync(dotenv, 0o644);
    const open = await hoga(['quote', '005930'], { cwd: dir, env: { HOME: home } });
    expect(open.code).toBe(0);
    expect(open.err).toBe(
      `hoga: warning: ${dotenv} holds HOGA_CLIENT_SECRET and may be read by other users (mode 0644); chmod 600 it\n`,
    );
    chmodSync(dotenv, 0o600);
    const closed = await hoga(['quote', '005930'], { cwd: dir, env: { HOME: home } });
    expect(closed.err).toBe('');
    // A .env without the secret may be read by anyone.
    writeFileSync(dotenv, 'HOGA_CLIENT_ID=sim-client\n');
    chmodSync(dotenv, 0o644);
    const noSecret = await hoga(['quote', '005930'], {
      cwd: dir,
      env: { HOME: home, HOGA_CLIENT_SECRET: 'sim-secret' },
    });
    expect(noSecret.err).toBe('');
  });

  // Before: a profile could hold the secret itself only (in a file that may be committed), or leave
  // it to .env and the environment; it could not point at a file holding it.
  it('a profile names a secret file with clientSecretFile, relative to the config file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-profile-secret-file-'));
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets', 'broker'), 'sim-secret\n', { mode: 0o600 });
    const profiles = {
      profiles: {
        live: { baseUrl: sim.url, clientId: 'sim-client', clientSecretFile: 'secrets/broker' },
      },
    };
    writeFileSync(join(dir, 'hoga.config.json'), JSON.stringify(profiles));
    mkdirSync(join(dir, 'sub'));
    const live = await hoga(['quote', '005930', '--profile', 'live'], {
      cwd: join(dir, 'sub'),
      env: { HOME: home },
    });
    expect(live.err).toBe('');
    expect(live.out).toMatch(/^005930\s+[\d,]+\s+KRW/m);
  });

  it('reads hoga.config.json and .env written with a byte-order mark, as --config files are', async () => {
    // (their parsers trim the mark as white space; the --config and --risk-config readers strip it)
    const dir = mkdtempSync(join(tmpdir(), 'hoga-profile-bom-'));
    expect((await hoga(['init'], { cwd: dir })).code).toBe(0);
    const file = join(dir, 'hoga.config.json');
    writeFileSync(
      file,
      `\ufeff${readFileSync(file, 'utf8').replace('https://openapi.example.com', sim.url)}`,
    );
    writeFileSync(join(dir, '.env'), '\ufeffHOGA_CLIENT_ID=sim-client\nHOGA_CLIENT_SECRET=sim-secret\n');
    const live = await hoga(['quote', '005930', '--profile', 'live'], { cwd: dir, env: { HOME: home } });
    expect(live.err).toBe('');
    expect(live.out).toMatch(/^005930\s+[\d,]+\s+KRW/m);
  });

  it('every command takes --profile', async () => {
    for (const args of [
      ['quote', '--help'],
      ['db', 'info', '--help'],
      ['data', 'download', '--help'],
      ['sim', '--help'],
    ]) {
      expect((await hoga(args)).out).toContain('--profile <name>');
    }
  });
});

describe('hoga data', () => {
  it('downloads, resumes without refetching, lists and exports the cache', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-data-'));
    const db = join(dir, 'candles.sqlite');
    const args = [
      'data',
      'download',
      '--symbols',
      '005930,aapl',
      '--interval',
      '1d',
      '--from',
      '2026-10-01',
      '--to',
      '2026-11-20',
    ];
    const first = await hoga([...args, '--db', db, ...simFlags(sim.url)], { env: { HOME: home } });
    expect(first.err).toContain('005930 1d: downloaded');
    expect(first.out).toMatch(/^downloaded \d+ candles in \d+ pages into /);
    expect(first.code).toBe(0);
    const second = await hoga([...args, '--db', db, ...simFlags(sim.url)], { env: { HOME: home } });
    expect(second.out).toMatch(/^downloaded 0 candles in 0 pages .*already cached: 005930, AAPL/);
    const list = await hoga(['data', 'list', '--db', db, '--csv']);
    expect(list.out.split('\n')[0]).toBe('symbol,interval,adjusted,ranges,from,until,candles');
    expect(list.out).toMatch(/^005930,1d,yes,1,2026-10-01 00:00 \+09:00,/m);
    const exported = await hoga([
      'data',
      'export',
      '--db',
      db,
      '--interval',
      '1d',
      '--symbols',
      '005930',
      '--from',
      '2026-11-19',
      '--to',
      '2026-11-20',
    ]);
    expect(exported.out).toMatch(
      /^symbol,interval,time,open,high,low,close,volume\n005930,1d,2026-11-19T00:00:00\.000\+09:00,[\d.]+,[\d.]+,[\d.]+,[\d.]+,\d+\n005930,1d,2026-11-20T00:00:00\.000\+09:00,.*\n$/,
    );
    const parquet = await hoga(['data', 'export', '--db', db, '--interval', '1d', '--format', 'parquet']);
    expect(parquet.code).toBe(2);
    expect(parquet.err).toContain('parquet is binary: give --out <file>');
    const csvAll = await hoga(['data', 'export', '--db', db, '--interval', '1d']);
    expect(csvAll.code).toBe(0);
    const file = join(dir, 'candles.parquet');
    const written = await hoga([
      'data',
      'export',
      '--db',
      db,
      '--interval',
      '1d',
      '--format',
      'parquet',
      '--out',
      file,
    ]);
    expect(written.code).toBe(0);
    const [header, ...csvRows] = csvAll.out.trimEnd().split('\n');
    expect(written.err).toContain(`wrote ${csvRows.length} candles to ${file}`);
    const read = await parquetReadObjects({ file: await asyncBufferFromFile(file) });
    expect(Object.keys(read[0] ?? {})).toEqual(header?.split(','));
    expect(read).toHaveLength(csvRows.length);
    expect(new Set(read.map((r) => r.symbol))).toEqual(new Set(['005930', 'AAPL']));
    for (const i of [0, Math.floor(csvRows.length / 2), csvRows.length - 1]) {
      expect(Object.values(read[i] ?? {}).join(',')).toBe(csvRows[i]);
    }
  });

  it('stops on Ctrl-C keeping what it stored, and a rerun fetches only the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-data-int-'));
    const db = join(dir, 'candles.sqlite');
    const args = [
      'data',
      'download',
      '--symbols',
      '005930',
      '--interval',
      '1m',
      // two weeks of minute candles (about 37 pages, the client pacing them ~0.2 s apart): the
      // interrupt after 5 requests leaves most of it to the rerun (before: 5 weeks, 97 pages)
      '--from',
      '2026-11-09',
      '--to',
      '2026-11-20',
      '--db',
      db,
      ...simFlags(sim.url),
    ];
    const chartRequests = () => Object.values(sim.counters().requestsByGroup).reduce((a, b) => a + b, 0);
    const before = chartRequests();
    const interrupted = await hoga(args, {
      env: { HOME: home },
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (chartRequests() - before >= 5) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 20);
        child.on('exit', () => clearInterval(poll));
      },
    });
    expect(interrupted.err).toContain('interrupted; what was downloaded is kept in');
    expect(interrupted.code).toBe(130);
    const kept = await hoga(['data', 'list', '--db', db, '--json']);
    const [series] = JSON.parse(kept.out) as { candles: number }[];
    expect(series!.candles).toBeGreaterThan(0);
    const rest = await hoga(args, { env: { HOME: home } });
    expect(rest.code).toBe(0);
    const [done] = JSON.parse((await hoga(['data', 'list', '--db', db, '--json'])).out) as {
      candles: number;
      ranges: number;
    }[];
    const added = Number(/downloaded ([\d,]+) candles/.exec(rest.out)?.[1]?.replace(/,/g, ''));
    expect(added).toBeGreaterThan(0);
    expect(done!.candles).toBe(series!.candles + added);
    expect(done!.ranges).toBe(1);
  }, 180_000);
});

describe('-v and --log-file', () => {
  it('show token requests and retries, never a secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-log-'));
    const log = join(dir, 'hoga.log');
    await fetch(`${sim.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'internal-error', path: '/api/v1/exchange-rate*', count: 1 }),
    });
    const run = await hoga(['fx', '-v', '--log-file', log, ...simFlags(sim.url)], { env: { HOME: dir } });
    expect(run.code).toBe(0);
    expect(run.err).toContain('requesting an access token');
    expect(run.err).toMatch(/retrying in \d+ s \(attempt 2 of 5\)/);
    expect(existsSync(log)).toBe(true);
    const records = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string });
    expect(records.map((r) => r.msg)).toEqual(
      expect.arrayContaining(['requesting an access token', 'retrying']),
    );
    expect(run.err + readFileSync(log, 'utf8')).not.toContain('sim-secret');
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags, tempHome } from '../hoga-process.test-helper.js';

let sim: SimulatorHandle;
let dir: string;
let db: string;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-data-int-'));
  db = join(dir, 'hoga.sqlite');
  env = { HOME: tempHome() };
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `hoga data download` of 005930's daily candles from `from` to `to` on the simulator. */
function download(from: string, to: string) {
  return hoga(
    [
      'data',
      'download',
      '--symbols',
      '005930',
      '--interval',
      '1d',
      '--from',
      from,
      '--to',
      to,
      '--db',
      db,
      ...simFlags(sim.url),
    ],
    { env, cwd: dir },
  );
}

describe('hoga data with --to before --from', () => {
  it('download says so (exit 2), not "before the broker\'s history?"', async () => {
    const run = await download('2025-03-14', '2025-03-03');
    expect(run.err).toContain('--to (2025-03-03) is before --from (2025-03-14)');
    expect(run.code).toBe(2);
  });

  it('export says so (exit 2) instead of printing an empty CSV, and fails on a file it cannot write', async () => {
    const downloaded = await download('2025-03-03', '2025-03-14');
    expect(downloaded.code).toBe(0);
    const ok = await hoga(
      ['data', 'export', '--interval', '1d', '--from', '2025-03-03', '--to', '2025-03-14', '--db', db],
      { env, cwd: dir },
    );
    expect(ok.code).toBe(0);
    expect(ok.out.trim().split('\n')).toHaveLength(1 + 10);
    const reversed = await hoga(
      ['data', 'export', '--interval', '1d', '--from', '2025-03-14', '--to', '2025-03-03', '--db', db],
      { env, cwd: dir },
    );
    expect(reversed.err).toContain('--to (2025-03-03) is before --from (2025-03-14)');
    expect(reversed.code).toBe(2);
    expect(reversed.out).toBe('');
    const nowhere = join(dir, 'missing-dir', 'candles.csv');
    const unwritable = await hoga(['data', 'export', '--interval', '1d', '--out', nowhere, '--db', db], {
      env,
      cwd: dir,
    });
    expect(unwritable.err).toContain(nowhere);
    expect(unwritable.err).not.toContain('wrote');
    expect(unwritable.code).not.toBe(0);
  });
});

describe('hoga data with a US date-time --from and a date --to of the same New York day', () => {
  // AAPL's after-market of 2025-01-03 (16:30 New York is 06:30 KST on the 4th): a date --to of a US
  // symbol ends at 20:00 New York on it. Before, both commands ended it at KST midnight and refused
  // the range as --to before --from (exit 2), as hoga backtest did.
  const range = ['--from', '2025-01-03T16:30:00-05:00', '--to', '2025-01-03'];

  it('download and export take it', async () => {
    const downloaded = await hoga(
      [
        'data',
        'download',
        '--symbols',
        'AAPL',
        '--interval',
        '1m',
        ...range,
        '--db',
        db,
        ...simFlags(sim.url),
      ],
      { env, cwd: dir },
    );
    expect(downloaded.err).not.toContain('is before --from');
    expect(downloaded.code).toBe(0);
    for (const symbols of [['--symbols', 'AAPL'], []]) {
      const exported = await hoga(['data', 'export', ...symbols, '--interval', '1m', ...range, '--db', db], {
        env,
        cwd: dir,
      });
      expect(exported.err).not.toContain('is before --from');
      expect(exported.code).toBe(0);
      expect(exported.out.trim().split('\n').length).toBeGreaterThan(1);
    }
  });
});

// Before: `hoga data export --out candles.parquet` wrote CSV text into candles.parquet (the format
// was csv unless --format said otherwise), which no Parquet reader opens.
describe('hoga data export --out with a .parquet name', () => {
  it('writes Parquet without --format, and refuses --format csv into a .parquet file (exit 2)', async () => {
    const downloaded = await download('2025-03-03', '2025-03-14');
    expect(downloaded.code).toBe(0);
    const file = join(dir, 'candles.parquet');
    const inferred = await hoga(['data', 'export', '--interval', '1d', '--out', file, '--db', db], {
      env,
      cwd: dir,
    });
    expect(inferred.code, inferred.err).toBe(0);
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PAR1');
    expect(bytes.subarray(-4).toString('latin1')).toBe('PAR1');
    const other = join(dir, 'other.parquet');
    const refused = await hoga(
      ['data', 'export', '--interval', '1d', '--format', 'csv', '--out', other, '--db', db],
      { env, cwd: dir },
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--format csv writes CSV text');
    expect(existsSync(other)).toBe(false);
    // a .csv name, or none, stays CSV
    const csv = await hoga(['data', 'export', '--interval', '1d', '--db', db], { env, cwd: dir });
    expect(csv.out.startsWith('symbol,interval,time,')).toBe(true);
  });
});

describe('hoga data download output', () => {
  const args = (file: string, symbols = '005930,AAPL') =>
    [
      'data',
      'download',
      '--symbols',
      symbols,
      '--interval',
      '1d',
      '--from',
      '2025-03-03',
      '--to',
      '2025-03-14',
      '--db',
      join(dir, file),
      ...simFlags(sim.url),
    ] as string[];

  it('--json prints its summary as JSON on stdout, one plain line per symbol on stderr (before: a plain line on stdout)', async () => {
    const run = await hoga([...args('json.sqlite'), '--json'], { env, cwd: dir });
    expect(run.code, run.err).toBe(0);
    expect(JSON.parse(run.out)).toEqual({
      database: join(dir, 'json.sqlite'),
      candles: 20,
      pages: 2,
      cachedSymbols: [],
    });
    expect(run.err).toContain('005930 1d: downloaded 10 candles in 1 page');
    expect(run.err).toContain('AAPL 1d: downloaded 10 candles in 1 page');
    const again = await hoga([...args('json.sqlite'), '--json'], { env, cwd: dir });
    expect(JSON.parse(again.out)).toMatchObject({ candles: 0, pages: 0, cachedSymbols: ['005930', 'AAPL'] });
  });

  it('names an unknown symbol and what to check (exit 2), as hoga backtest does', async () => {
    const run = await hoga(args('unknown.sqlite', '005930,999999'), { env, cwd: dir });
    expect(run.code).toBe(2);
    expect(run.err).toContain('unknown symbol 999999: the broker has no stock with that code');
    expect(run.err).toContain('check --symbols');
  });

  it('says "1 candle in 1 page", not "1 candles in 1 pages"', async () => {
    const one = [
      'data',
      'download',
      '--symbols',
      '005930',
      '--interval',
      '1d',
      '--from',
      '2025-03-04',
    ].concat(['--to', '2025-03-04', '--db', join(dir, 'one.sqlite'), ...simFlags(sim.url)]);
    const run = await hoga(one, { env, cwd: dir });
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain('005930 1d: downloaded 1 candle in 1 page\n');
    expect(run.out).toBe(`downloaded 1 candle in 1 page into ${join(dir, 'one.sqlite')}\n`);
  });
});

// Before: `until` was the covered range's exclusive end, so a daily series through 2025-03-14
// read "until 2025-03-15 00:00" while one holding today's candle (its range ends a millisecond past
// the stamp) read "until" today: the same words for a day in and a day out.
describe('hoga data list', () => {
  it('shows until as the last candle stamp covered: the last trading date of 1d, the last minute of 1m', async () => {
    const file = join(dir, 'until.sqlite');
    const range = (interval: string, from: string, to: string) =>
      ['data', 'download', '--symbols', '005930', '--interval', interval, '--from', from, '--to', to].concat([
        '--db',
        file,
        ...simFlags(sim.url),
      ]);
    expect((await hoga(range('1d', '2025-03-03', '2025-03-14'), { env, cwd: dir })).code).toBe(0);
    expect((await hoga(range('1m', '2025-03-04', '2025-03-04'), { env, cwd: dir })).code).toBe(0);
    const list = await hoga(['data', 'list', '--db', file, '--csv'], { env, cwd: dir });
    expect(list.out.trim().split('\n').slice(1)).toEqual([
      expect.stringMatching(/^005930,1d,yes,1,2025-03-03 00:00 \+09:00,2025-03-14 00:00 \+09:00,10$/),
      expect.stringMatching(/^005930,1m,yes,1,2025-03-04 00:00 \+09:00,2025-03-04 23:59 \+09:00,\d+$/),
    ]);
    const [daily] = JSON.parse(
      (await hoga(['data', 'list', '--db', file, '--json'], { env, cwd: dir })).out,
    ) as {
      until: string;
      end: string;
    }[];
    expect(daily).toMatchObject({ until: '2025-03-14 00:00 +09:00', end: '2025-03-15 00:00 +09:00' });
  });
});

// Before: "247540 1d: downloaded 0 candles in 1 page", and the user was left to wonder whether the
// download had failed (a backtest of the range then had no bars of it).
describe('hoga data download of a range the broker has no candles in', () => {
  it('says so per symbol and why that can be (here: before the listing, 2019-03-05)', async () => {
    const run = await hoga(
      [
        'data',
        'download',
        '--symbols',
        '247540',
        '--interval',
        '1d',
        '--from',
        '2019-01-02',
        '--to',
        '2019-02-28',
      ].concat(['--db', join(dir, 'unlisted.sqlite'), ...simFlags(sim.url)]),
      { env, cwd: dir },
    );
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain(
      '247540 1d: the broker has no candles in the range downloaded (before the listing or the minute history, a holiday, no trades): none stored',
    );
  });
});

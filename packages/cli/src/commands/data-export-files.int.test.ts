import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  dir = mkdtempSync(join(tmpdir(), 'hoga-data-export-'));
  db = join(dir, 'hoga.sqlite');
  env = { HOME: tempHome() };
  const downloaded = await hoga(
    [
      'data',
      'download',
      '--symbols',
      '005930',
      '--interval',
      '1d',
      '--from',
      '2025-03-03',
      '--to',
      '2025-03-14',
      '--db',
      db,
      ...simFlags(sim.url),
    ],
    { env, cwd: dir },
  );
  expect(downloaded.code, downloaded.err).toBe(0);
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const exportRows = async (file: string) => {
  const run = await hoga(['data', 'export', '--interval', '1d', '--db', file], { env, cwd: dir });
  expect(run.code, run.err).toBe(0);
  return run.out.trim().split('\n').length - 1;
};

// Before: the output file was opened (truncated) before the database was read, so an --out naming
// the database emptied it: the candle cache, and with it every stored order and run, was gone.
describe('hoga data export --out naming a database', () => {
  it.each(['csv', 'parquet'])('refuses it (exit 2) and leaves the database whole (%s)', async (format) => {
    const copy = join(dir, `copy-${format}.sqlite`);
    copyFileSync(db, copy);
    const before = readFileSync(copy);
    const run = await hoga(
      ['data', 'export', '--interval', '1d', '--db', copy, '--out', copy, '--format', format],
      { env, cwd: dir },
    );
    expect(run.code).toBe(2);
    expect(run.err).toContain(`${copy} is the database read (${copy})`);
    expect(run.err).toContain('would destroy it');
    expect(run.err).not.toContain('wrote');
    expect(readFileSync(copy).equals(before)).toBe(true);
    expect(await exportRows(copy)).toBe(10);
    // another hoga database given as --out is not overwritten either
    const other = await hoga(['data', 'export', '--interval', '1d', '--db', db, '--out', copy], {
      env,
      cwd: dir,
    });
    expect(other.code).toBe(2);
    expect(other.err).toContain(`${copy} is a SQLite database`);
    expect(await exportRows(copy)).toBe(10);
  });
});

// Before: a bad --from was found after the output file had been truncated (and, on stdout, after
// the header had been printed): a mistyped rerun destroyed the previous export.
describe('hoga data export with a bad range and an existing --out file', () => {
  it('says so (exit 2) and leaves the file as it was', async () => {
    const file = join(dir, 'previous.csv');
    writeFileSync(file, 'the previous export\n');
    const run = await hoga(
      ['data', 'export', '--interval', '1d', '--from', '20250303', '--db', db, '--out', file],
      { env, cwd: dir },
    );
    expect(run.code).toBe(2);
    expect(run.err).toContain('20250303');
    expect(readFileSync(file, 'utf8')).toBe('the previous export\n');
    const stdout = await hoga(['data', 'export', '--interval', '1d', '--from', '20250303', '--db', db], {
      env,
      cwd: dir,
    });
    expect(stdout.code).toBe(2);
    expect(stdout.out).toBe('');
  });
});

// Before: a symbol with no cached candles in the range (never downloaded, a typo, a range outside
// the cache) gave a CSV of the header alone and exit 0, without a word.
describe('hoga data export of a symbol with nothing cached in the range', () => {
  it('says which symbol had no candles and how to fill the cache', async () => {
    const run = await hoga(['data', 'export', '--interval', '1d', '--symbols', '005930,AAPL', '--db', db], {
      env,
      cwd: dir,
    });
    expect(run.code).toBe(0);
    expect(run.out.trim().split('\n')).toHaveLength(1 + 10);
    expect(run.err).toContain('no cached 1d candles of AAPL');
    expect(run.err).toContain('hoga data download');
    expect(run.err).not.toContain('005930');
    const outside = await hoga(
      [
        'data',
        'export',
        '--interval',
        '1d',
        '--symbols',
        '005930',
        '--from',
        '2025-04-01',
        '--to',
        '2025-04-30',
        '--db',
        db,
      ],
      { env, cwd: dir },
    );
    expect(outside.code).toBe(0);
    expect(outside.err).toContain('no cached 1d candles of 005930 from 2025-04-01 to 2025-04-30');
  });
});

// Before: a symbol given twice was exported twice, every candle on two rows.
describe('hoga data export of a symbol named twice', () => {
  it('writes its candles once', async () => {
    const run = await hoga(
      ['data', 'export', '--interval', '1d', '--symbols', '005930, 005930,005930', '--db', db],
      { env, cwd: dir },
    );
    expect(run.code).toBe(0);
    expect(run.out.trim().split('\n')).toHaveLength(1 + 10);
  });
});

// Before: an --out in a directory that does not exist said `…/x.csv does not exist`, naming the
// file about to be made as the thing missing (and Parquet read every candle first).
describe('hoga data export --out in a directory that does not exist', () => {
  it.each(['x.csv', 'x.parquet'])('names the missing directory (exit 2) (%s)', async (name) => {
    const missing = join(dir, 'no-such-dir');
    const run = await hoga(['data', 'export', '--interval', '1d', '--db', db, '--out', join(missing, name)], {
      env,
      cwd: dir,
    });
    expect(run.code).toBe(2);
    expect(run.err).toContain(`the directory ${missing} does not exist`);
    expect(run.err).not.toContain(`${name} does not exist`);
    expect(run.err).not.toContain('wrote');
  });
});

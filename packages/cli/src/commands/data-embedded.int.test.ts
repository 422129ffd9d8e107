/**
 * `hoga data download` with no broker configured downloads from the embedded simulator, as
 * `hoga backtest` does, into the file such a backtest reads (`./data/hoga-sim.sqlite` unless
 * `--db`), and `hoga data list` and `export` read that file then. Before, the download asked for
 * HOGA_BASE_URL. Real `hoga` processes in a fresh directory.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../hoga-process.test-helper.js';

let cwd: string;
let home: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'hoga-data-embedded-'));
  home = tempHome();
});
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('hoga data with no broker configured', () => {
  it("downloads from the embedded simulator into the backtests' file, and list and export read it", async () => {
    const options = { cwd, env: { HOME: home } };
    const range = '--symbols 005930 --interval 1d --from 2025-01-01 --to 2025-03-31'.split(' ');
    const download = await hoga(['data', 'download', ...range], options);
    expect(download.code, download.err).toBe(0);
    const sim = join(cwd, 'data', 'hoga-sim.sqlite');
    expect(download.err).toContain(
      `no broker configured: downloading from an embedded simulator into ${sim}, where hoga backtest without a broker reads`,
    );
    expect(download.out).toMatch(
      new RegExp(`^downloaded [\\d,]+ candles in \\d+ pages? into ${literal(sim)}`, 'm'),
    );
    expect(existsSync(join(cwd, 'data', 'hoga.sqlite'))).toBe(false);

    const list = await hoga(['data', 'list', '--json'], options);
    expect(list.code, list.err).toBe(0);
    expect(
      (JSON.parse(list.out) as { symbol: string; interval: string }[]).map((r) => [r.symbol, r.interval]),
    ).toEqual([['005930', '1d']]);
    const csv = await hoga(['data', 'export', '--interval', '1d'], options);
    expect(csv.code, csv.err).toBe(0);
    expect(csv.out.split('\n').filter((line) => line.startsWith('005930,1d,')).length).toBeGreaterThan(50);

    // a rerun finds the candles there: nothing more to download (as a backtest of the range finds them)
    const again = await hoga(['data', 'download', ...range], options);
    expect(again.out).toContain('downloaded 0 candles in 0 pages');
  }, 120_000);
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

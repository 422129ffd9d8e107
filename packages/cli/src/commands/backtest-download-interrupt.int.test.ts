import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, signalWhenStderrShows, simFlags } from '../hoga-process.test-helper.js';
import { SMA } from './backtest-runs.test-helper.js';

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-download-interrupt-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

// Before: Ctrl-C while `hoga backtest` downloaded the bars of --symbols killed the process by the
// signal (no handler was installed until the run began): nothing was said, and on a terminal the
// progress bar's hidden cursor stayed hidden. The README's exit code 130 says a download keeps what
// it stored; `hoga data download` says so and where.
describe('Ctrl-C while hoga backtest downloads the bars of --symbols', () => {
  it('stops the download, says what was kept where, and exits 130 by itself', async () => {
    const db = join(dir, 'hoga.sqlite');
    // two weeks of minute bars of each symbol: dozens of pages at the chart group's 5 requests a
    // second; the signal comes once the first symbol is stored, while the second downloads
    const run = await hoga(
      [
        'backtest',
        SMA,
        '--symbols',
        '005930,000660',
        '--interval',
        '1m',
        '--from',
        '2026-10-05',
        '--to',
        '2026-10-16',
        ...simFlags(sim.url),
        '--db',
        db,
      ],
      { onSpawn: signalWhenStderrShows('005930 1m: downloaded', 'SIGINT'), killAfterMs: 110_000 },
    );
    expect(run.signal, run.err).toBeNull();
    expect(run.code, run.err).toBe(130);
    expect(run.err).toContain(
      `hoga: interrupted while downloading candles; what was downloaded is kept in ${db}`,
    );
    expect(run.err).toContain('run the same command again to fetch the rest');
    expect(run.out).toBe('');
    // the first symbol's candles stay cached
    const database = HogaDatabase.open(db);
    try {
      const stored = database.connection
        .prepare("SELECT COUNT(*) AS n FROM candles WHERE symbol = '005930' AND interval = '1m'")
        .get() as { n: number };
      expect(stored.n).toBeGreaterThan(0);
    } finally {
      database.close();
    }
  }, 120_000);
});

// Before: Ctrl-C while `hoga backtest` read the USD/KRW rates (the wait it announces, about 90 s
// for a year of US days) killed the process by the signal, without a word: no message said the
// run had not started or that the rates read so far were kept.
describe('Ctrl-C while hoga backtest reads the USD/KRW rates', () => {
  it('stops the reading, says what was kept where, and exits 130 by itself', async () => {
    const db = join(dir, 'fx.sqlite');
    const run = await hoga(
      [
        'backtest',
        SMA,
        '--symbols',
        'AAPL',
        '--interval',
        '1d',
        '--from',
        '2025-01-01',
        '--to',
        '2025-03-31',
        ...simFlags(sim.url),
        '--db',
        db,
      ],
      { onSpawn: signalWhenStderrShows('USD/KRW: reading', 'SIGINT'), killAfterMs: 110_000 },
    );
    expect(run.signal, run.err).toBeNull();
    expect(run.code, run.err).toBe(130);
    expect(run.err).toContain(
      `hoga: interrupted while reading USD/KRW rates; the rates read are kept in ${db}`,
    );
    expect(run.err).toContain('run the same command again');
    expect(run.out).toBe('');
  }, 120_000);
});

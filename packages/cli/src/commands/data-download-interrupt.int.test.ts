/**
 * SIGINT or SIGTERM while `hoga data download` downloads: the download stops between pages, says
 * what was kept where, and exits by itself (130 after Ctrl-C, 143 after SIGTERM). Before, only
 * SIGINT had a listener, added with `process.once`: SIGTERM (a service manager's, `kill`'s) left
 * the token cache's lock library (signal-exit) the only listener, which re-raised it, and the
 * process died by the signal without a word; and the Ctrl-C listener was safe only because
 * signal-exit happened to register its own first (see runtime/interrupts.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, signalWhenStderrShows, simFlags } from '../hoga-process.test-helper.js';

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-data-download-interrupt-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hoga data download, interrupted', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: stops, says what was kept where, exit %i, the first symbol kept',
    async (signal, code) => {
      const db = join(dir, `${signal}.sqlite`);
      // two weeks of minute bars of each symbol: dozens of pages at the chart group's 5 requests a
      // second; the signal comes once the first symbol is stored, while the second downloads
      const run = await hoga(
        [
          'data',
          'download',
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
        { onSpawn: signalWhenStderrShows('005930 1m: downloaded', signal), killAfterMs: 110_000 },
      );
      expect(run.signal, run.err).toBeNull();
      expect(run.code, run.err).toBe(code);
      expect(run.err).toContain(
        `what was downloaded is kept in ${db}: run the same command again to fetch the rest`,
      );
      expect(run.out).toBe('');
      const database = HogaDatabase.open(db);
      try {
        const stored = database.connection
          .prepare("SELECT COUNT(*) AS n FROM candles WHERE symbol = '005930' AND interval = '1m'")
          .get() as { n: number };
        expect(stored.n).toBeGreaterThan(0);
      } finally {
        database.close();
      }
    },
    120_000,
  );
});

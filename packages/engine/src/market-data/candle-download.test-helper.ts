/**
 * The set-up of the candle downloader's integration tests: one simulator over HTTP for the file
 * (its clock at {@link NOW}, stopped), a directory of SQLite files, and downloaders with a client
 * of their own each; what a test opened is closed after it. Test code only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient, MemoryTokenCache } from '@hoga/connector';
import { VirtualClock } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { CandleDownloader } from './candle-downloader.js';
import type { DownloadProgress } from './download-progress.js';

/** The simulator's time, and the downloaders' clock. */
export const NOW = '2026-11-25T12:00:00.000+09:00';

/** What a test file gets from {@link candleDownloadSetup}. */
export interface CandleDownloadSetup {
  /** Opens (creating) a SQLite file of the test directory, closed after the test. */
  open(name: string): HogaDatabase;
  /** A downloader into `db`'s candle cache through a new client of the simulator. */
  downloader(db: HogaDatabase, onProgress?: (e: DownloadProgress) => void): CandleDownloader;
}

/**
 * Registers the hooks of a test file (the simulator started before its tests and closed after
 * them; clients and files closed after each test; the directory removed at the end).
 *
 * @param prefix - the name of the directory of its files, in the system's temporary directory
 */
export function candleDownloadSetup(prefix: string): CandleDownloadSetup {
  let sim: SimulatorHandle | undefined;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const clients: BrokerClient[] = [];
  const dbs: HogaDatabase[] = [];
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: 7, start: NOW, speed: 0, control: true });
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
    for (const d of dbs.splice(0)) d.close();
  });
  afterAll(async () => {
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    open(name) {
      const db = HogaDatabase.open(join(dir, name));
      dbs.push(db);
      return db;
    },
    downloader(db, onProgress) {
      if (sim === undefined) throw new Error('the simulator is not started yet');
      const clock = new VirtualClock(DateTime.fromISO(NOW).toMillis());
      const client = new BrokerClient({
        clock,
        tokenCache: new MemoryTokenCache(),
        config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
      });
      clients.push(client);
      return new CandleDownloader({
        client,
        cache: db.candles,
        clock,
        ...(onProgress ? { onProgress } : {}),
      });
    },
  };
}

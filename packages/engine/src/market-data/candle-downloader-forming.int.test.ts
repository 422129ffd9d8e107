/**
 * The minute just ended, seen by a machine whose clock runs a little ahead of the broker's (a
 * couple of seconds without time sync is common; the broker also takes a moment to close a
 * minute). Before, a minute counted as complete the instant the local clock passed its end, so the
 * broker's candle of a minute still in progress there (spec, candle rule 14) was stored as final
 * and never asked again: the cache kept a bar with part of its trades. Now a candle counts as
 * complete a few seconds after its end. Simulator over HTTP, real SQLite files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient, MemoryTokenCache } from '@hoga/connector';
import { VirtualClock } from '@hoga/core';
import { startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { CandleDownloader, downloadTargets } from './candle-downloader.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-dl-forming-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const key = { symbol: '005930', interval: '1m', adjusted: true } as const;
const TODAY = downloadTargets(['005930'], '1m', '2026-11-25', '2026-11-25');

/** Downloads today's minutes with the broker at `brokerNow` and the local clock `aheadMs` ahead. */
async function download(db: HogaDatabase, brokerNow: string, aheadMs: number): Promise<void> {
  const sim = await startSimulator({ port: 0, seed: 7, start: brokerNow, speed: 0, control: true });
  const clock = new VirtualClock(DateTime.fromISO(brokerNow).toMillis() + aheadMs);
  const client = new BrokerClient({
    clock,
    tokenCache: new MemoryTokenCache(),
    config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
  });
  try {
    await new CandleDownloader({ client, cache: db.candles, clock }).ensure('1m', TODAY);
  } finally {
    client.close();
    await sim.close();
  }
}

describe('CandleDownloader with the local clock a little ahead of the broker', () => {
  it('stores no minute the broker has not closed yet: a later download completes it as the broker does', async () => {
    const db = HogaDatabase.open(join(dir, 'ahead.sqlite'));
    const fresh = HogaDatabase.open(join(dir, 'fresh.sqlite'));
    try {
      // the broker at 14:02:58 (the 14:03 candle forming), the machine 3 s ahead (14:03:01)
      await download(db, '2026-11-25T14:02:58.000+09:00', 3_000);
      await download(db, '2026-11-25T21:00:00.000+09:00', 0);
      await download(fresh, '2026-11-25T21:00:00.000+09:00', 0);
      const all = { start: 0, end: Number.MAX_SAFE_INTEGER };
      const at1403 = Date.parse('2026-11-25T14:03:00+09:00');
      const minute = (d: HogaDatabase) => d.candles.get(key, { start: at1403, end: at1403 + 1 });
      expect(minute(db)).toEqual(minute(fresh));
      expect(db.candles.get(key, all)).toEqual(fresh.candles.get(key, all));
    } finally {
      db.close();
      fresh.close();
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient, MemoryTokenCache } from '@hoga/connector';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedCandles } from './cached-candles.js';

describe('cachedCandles', () => {
  let sim: SimulatorHandle;
  let client: BrokerClient;
  let db: HogaDatabase;
  let dir: string;
  const key = { symbol: '005930', interval: '1d', adjusted: true } as const;
  const end = DateTime.fromISO('2026-11-21T00:00:00+09:00');
  const chartRequests = () => sim.counters().requestsByGroup.MARKET_DATA_CHART ?? 0;

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, start: '2026-11-23T10:00:00+09:00', rateLimit: false });
    dir = mkdtempSync(join(tmpdir(), 'hoga-candles-'));
    db = HogaDatabase.open(join(dir, 'hoga.sqlite'));
    client = new BrokerClient({
      config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
      tokenCache: new MemoryTokenCache(),
    });
  });

  afterAll(async () => {
    client.close();
    db.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('downloads a year of daily candles once and serves the second call from the file', async () => {
    const from = end.minus({ years: 1 }).toMillis();
    const first = await cachedCandles(client, db, key, from, end.toMillis());
    expect(first.downloaded).toBeGreaterThan(230);
    expect(first.candles).toHaveLength(first.downloaded);
    const stamps = first.candles.map((c) => c.ts);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect(stamps.every((ts) => ts >= from && ts < end.toMillis())).toBe(true);

    const requestsBefore = chartRequests();
    const second = await cachedCandles(client, db, key, from, end.toMillis());
    expect(second).toMatchObject({ downloaded: 0, rangesFetched: 0 });
    expect(second.candles.map((c) => c.close.toFixed())).toEqual(first.candles.map((c) => c.close.toFixed()));
    expect(chartRequests()).toBe(requestsBefore);
  });

  it('asks the broker only for the part of a wider range that is not cached', async () => {
    const from = end.minus({ years: 2 }).toMillis();
    const wider = await cachedCandles(client, db, key, from, end.toMillis());
    expect(wider.rangesFetched).toBe(1);
    expect(wider.downloaded).toBeGreaterThan(230);
    expect(wider.downloaded).toBeLessThan(wider.candles.length);
    expect(db.candles.coverage(key)).toEqual([{ start: from, end: end.toMillis() }]);
  });
});

/**
 * `pnpm --filter @hoga/examples candles`: starts the simulator in-process, downloads two years of
 * daily candles of 005930 into a SQLite file, then asks again and shows that the second time
 * nothing is downloaded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient, MemoryTokenCache } from '@hoga/connector';
import { startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { DateTime } from 'luxon';
import { cachedCandles } from './cached-candles.js';

const sim = await startSimulator({ seed: 7, start: '2026-11-23T10:00:00+09:00' });
const dir = mkdtempSync(join(tmpdir(), 'hoga-example-'));
const db = HogaDatabase.open(join(dir, 'hoga.sqlite'));
const client = new BrokerClient({
  config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
  tokenCache: new MemoryTokenCache(),
});
try {
  const to = DateTime.fromISO('2026-11-21T00:00:00+09:00');
  const from = to.minus({ years: 2 });
  const key = { symbol: '005930', interval: '1d', adjusted: true } as const;
  for (const attempt of ['first', 'second']) {
    const result = await cachedCandles(client, db, key, from.toMillis(), to.toMillis());
    const last = result.candles.at(-1);
    console.log(
      `${attempt} call: ${result.candles.length} daily candles, ${result.downloaded} downloaded in ` +
        `${result.rangesFetched} range(s); last close ${last?.close.toFixed() ?? '-'} KRW`,
    );
  }
} finally {
  client.close();
  db.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
}

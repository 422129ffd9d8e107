/**
 * A separate process for the rate-sharing test: one client (a file token cache shared with the
 * other process, and the share folder when given) sending `calls` price reads at once from a common
 * start time, then printing what it did as JSON.
 *
 * Usage: tsx rate-worker.ts <baseUrl> <cacheFile> <startAtEpochMs> <calls> [<shareDir>]
 */
import { BrokerClient, FileTokenCache, ProcessRateShare } from '../src/index.js';

const [baseUrl, cacheFile, startAt, calls, shareDir] = process.argv.slice(2);
const config = {
  baseUrl: baseUrl ?? '',
  clientId: 'sim-client',
  clientSecret: 'sim-secret',
  accountSeq: 1,
  backoffBaseMs: 100,
};
const client = new BrokerClient({
  config,
  tokenCache: new FileTokenCache(cacheFile!),
  ...(shareDir === undefined ? {} : { rateShare: new ProcessRateShare({ dir: shareDir, ...config }) }),
});
// the token first, so that both processes start reading with the one token
await client.tokens.token();
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
const t0 = Date.now();
const results = await Promise.allSettled(
  Array.from({ length: Number(calls) }, () => client.getPrices(['005930'])),
);
const ms = Date.now() - t0;
client.close();
console.log(
  JSON.stringify({
    ok: results.filter((r) => r.status === 'fulfilled').length,
    failures: results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : [])),
    ms,
    rateLimited: client.executor.stats.rateLimited,
  }),
);

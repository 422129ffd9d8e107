/**
 * A separate engine process for the token-sharing test: one client with a file token cache,
 * making calls at a steady pace from a common start time, then printing what it did as JSON.
 *
 * Usage: tsx token-worker.ts <baseUrl> <cacheFile> <startAtEpochMs> <calls> <pauseMs>
 */
import { BrokerClient, FileTokenCache } from '../src/index.js';

const [baseUrl, cacheFile, startAt, calls, pauseMs] = process.argv.slice(2);
const client = new BrokerClient({
  config: {
    baseUrl: baseUrl ?? '',
    clientId: 'sim-client',
    clientSecret: 'sim-secret',
    accountSeq: 1,
    backoffBaseMs: 100,
  },
  tokenCache: new FileTokenCache(cacheFile!),
});
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
let ok = 0;
const failures: string[] = [];
for (let i = 0; i < Number(calls); i++) {
  try {
    await client.getCommissions();
    ok++;
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  }
  await new Promise((resolve) => setTimeout(resolve, Number(pauseMs)));
}
client.close();
console.log(
  JSON.stringify({
    ok,
    failures,
    issued: client.tokens.issuedCount,
    refreshes: client.executor.stats.tokenRefreshes,
  }),
);

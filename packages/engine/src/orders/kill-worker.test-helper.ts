/**
 * A live order-manager process for the SIGKILL test (test code only).
 *
 * Usage: node --import tsx kill-worker.test-helper.ts <simUrl> <dbFile> work|settle (the test runs
 * it bundled: node <bundle> <simUrl> <dbFile> work|settle)
 *
 * `work` reconciles, then loops: place a resting buy, modify it to a marketable price, place another
 * resting buy and cancel it, poll; it prints `submit <n>`, `modify <n>`, `cancel <n>` before each
 * command so the test can kill it while the command's answer is held back; the marker named by
 * `HOGA_KILL_AT` waits for a line on stdin first, so the test knows which request comes next. `settle` reconciles and
 * polls until no command is unsettled, then prints one JSON line with what it holds.
 */

import { BrokerClient } from '@hoga/connector';
import { VirtualClock } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { cancelOf, modifyTo, submitLimit } from './live-fixture.test-helper.js';
import { OrderManager } from './order-manager.js';

const [url, dbFile, mode] = process.argv.slice(2) as [string, string, string];
const clockAnswer = (await (await fetch(`${url}/_sim/clock`)).json()) as { now: string };
const clock = new VirtualClock(clockAnswer.now);
const client = new BrokerClient({
  clock,
  config: {
    baseUrl: url,
    clientId: 'sim-client',
    clientSecret: 'sim-secret',
    backoffBaseMs: 20,
    backoffMaxMs: 100,
  },
});
const db = HogaDatabase.open(dbFile, { clock });
const manager = new OrderManager(client, db, clock, { minChecks: 2, unknownAfterMs: 0 });
const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
/** Prints a marker; the one named by HOGA_KILL_AT waits for a line on stdin before going on. */
const gate = async (marker: string): Promise<void> => {
  say(marker);
  if (process.env.HOGA_KILL_AT !== marker) return;
  await new Promise<void>((go) => process.stdin.once('data', () => go()));
};

await manager.reconcile();
say('ready');
if (mode === 'work') {
  const limits = await client.getPriceLimits('005930');
  const lower = String(limits.lowerLimitPrice);
  const upper = String(limits.upperLimitPrice);
  for (let n = 0; n < 20; n++) {
    const resting = submitLimit('005930', 'BUY', '3', lower);
    await gate(`submit ${n}`);
    await manager.execute(resting);
    await gate(`modify ${n}`);
    await manager.execute(modifyTo(resting, upper, '3'));
    const other = submitLimit('005930', 'BUY', '2', lower);
    await manager.execute(other);
    await gate(`cancel ${n}`);
    await manager.execute(cancelOf(other));
    await manager.pollOnce();
  }
  say('done');
} else {
  for (let i = 0; i < 10 && manager.store.unresolvedCommands().length > 0; i++) await manager.pollOnce();
  await manager.pollOnce();
  const mismatched = await manager.checkPositions();
  say(
    JSON.stringify({
      unresolved: manager.store.unresolvedCommands().map((c) => `${c.kind}:${c.status}`),
      mismatched,
      positions: Object.fromEntries([...manager.store.positions()].map(([s, q]) => [s, q.toString()])),
    }),
  );
}
client.close();
db.close();

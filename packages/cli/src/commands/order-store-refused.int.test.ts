/**
 * `hoga order cancel` of an order whose cancel the store refuses to record (a full disk, a file
 * locked past the busy timeout; here a test-only trigger on the `order_commands` insert), as a
 * child process over the simulator with a real SQLite file. The order manager writes a command's
 * row before it sends it: refused, nothing is sent, and the command says so.
 * Before: `refused by the broker: store-unavailable: the cancel was not sent: …` and, with
 * `--json`, `sent: true`, though the broker never heard of the cancel. Now: `not sent:
 * store-unavailable: …`, exit 1 (`--json`: `sent: false`, `outcome: "not-sent"`); once the store
 * takes writes, the cancel goes through.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, hogaToEnd as hoga, readStore, setup } from './run-process.test-helper.js';

afterEach(closeSims);

describe('hoga order cancel while the store refuses to record it', () => {
  it('says not sent with the code and exits 1; once the store takes writes, the cancel goes through', async () => {
    const { sim, db } = await setup();
    const environment = env(sim, db);
    const quote = await hoga(['quote', '005930', '--json'], environment);
    expect(quote.code, quote.out).toBe(0);
    const last = Number((JSON.parse(quote.stdout) as { lastPrice: string }[])[0]?.lastPrice);
    // a limit buy 10 % under the market, on the 100-won grid: it rests
    const limit = String(Math.floor((last * 0.9) / 100) * 100);
    const placed = await hoga(['order', 'buy', '005930', '1', '--limit', limit, '--json'], environment);
    expect(placed.code, placed.out).toBe(0);
    const { clientOrderId } = JSON.parse(placed.stdout) as { clientOrderId: string };
    const sentBefore = sim.counters().requestsByGroup.ORDER ?? 0;

    readStore(db, (d) =>
      d.connection.exec(
        `CREATE TRIGGER test_refuse BEFORE INSERT ON order_commands WHEN NEW.kind = 'cancel'
           BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`,
      ),
    );
    const text = await hoga(['order', 'cancel', clientOrderId], environment);
    expect(text.out).toContain(
      'not sent: store-unavailable: the cancel was not sent: the store refuses writes (test: the disk is full)',
    );
    expect(text.out).not.toContain('refused by the broker');
    expect(text.code).toBe(1);
    const json = await hoga(['order', 'cancel', clientOrderId, '--json'], environment);
    expect(JSON.parse(json.stdout)).toMatchObject({
      verdict: 'accepted',
      sent: false,
      outcome: 'not-sent',
      clientOrderId,
      code: 'store-unavailable',
    });
    expect(json.code).toBe(1);
    // nothing reached the broker: the order rests
    expect(sim.counters().requestsByGroup.ORDER ?? 0).toBe(sentBefore);

    readStore(db, (d) => d.connection.exec('DROP TRIGGER test_refuse'));
    const canceled = await hoga(['order', 'cancel', clientOrderId, '--json'], environment);
    expect(canceled.code, canceled.out).toBe(0);
    expect(JSON.parse(canceled.stdout)).toMatchObject({ sent: true, outcome: 'sent', clientOrderId });
  }, 180_000);
});

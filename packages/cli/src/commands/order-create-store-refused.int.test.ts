/**
 * `hoga order buy` while the store refuses the order's rows (a full disk, a file locked past the
 * busy timeout; here test-only triggers on the inserts), as a child process over the simulator
 * with a real SQLite file. The create's line is in the command journal before the request leaves
 * (so it is never placed twice); its rows are written after. Refused: the command waits for the
 * broker's answer and says what the broker did and why the store could not record it, exit 1.
 * Before: `sent: …, but the broker's answer did not arrive`, the request left in flight as the
 * process ended, and the store's refusal unsaid. Once the store takes writes, the same command
 * with the same --client-order-id records the order, placed once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, hogaToEnd as hoga, readStore, setup } from './run-process.test-helper.js';

afterEach(closeSims);

describe('hoga order buy while the store refuses its rows', () => {
  it.each([
    ['the order row', 'orders', ''],
    ["the create's command row", 'order_commands', "WHEN NEW.kind = 'create'"],
  ])(
    "refused at %s: says placed, with the broker order and the store's reason, exit 1; the rerun records it once",
    async (_what, table, when) => {
      const { sim, db } = await setup();
      const environment = env(sim, db);
      const quote = await hoga(['quote', '005930', '--json'], environment);
      expect(quote.code, quote.out).toBe(0);
      const last = Number((JSON.parse(quote.stdout) as { lastPrice: string }[])[0]?.lastPrice);
      // a limit buy 10 % under the market, on the 100-won grid: it rests
      const limit = String(Math.floor((last * 0.9) / 100) * 100);
      const warm = await hoga(['order', 'buy', '005930', '1', '--limit', limit, '--json'], environment);
      expect(warm.code, warm.out).toBe(0);
      const sentBefore = sim.counters().requestsByGroup.ORDER ?? 0;
      readStore(db, (d) =>
        d.connection.exec(
          `CREATE TRIGGER test_refuse BEFORE INSERT ON ${table} ${when}
           BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`,
        ),
      );
      const id = `full-disk-${table}`;
      const buy = ['order', 'buy', '005930', '1', '--limit', limit, '--client-order-id', id];
      const text = await hoga(buy, environment);
      expect(text.out).not.toContain('did not arrive');
      const placed = new RegExp(
        `^placed: ${id} \\(broker order (\\S+)\\); the store could not record it \\(.*test: the disk is full.*\\): once the store takes writes again, run the same command with --client-order-id ${id} to record it \\(it is not placed twice\\)$`,
        'm',
      ).exec(text.out);
      expect(placed, text.out).not.toBeNull();
      expect(text.code).toBe(1);
      expect(sim.counters().requestsByGroup.ORDER ?? 0).toBe(sentBefore + 1);

      readStore(db, (d) => d.connection.exec('DROP TRIGGER test_refuse'));
      const again = await hoga(buy, environment);
      expect(again.code, again.out).toBe(0);
      // the same order, recorded now: the create sent again under its key is answered with it
      expect(again.out).toContain(`${id} (broker order ${placed?.[1]})`);
      expect(readStore(db, (d) => d.orders.get(id))).toMatchObject({
        brokerOrderId: placed?.[1],
        state: 'ACCEPTED',
      });
    },
    180_000,
  );
});

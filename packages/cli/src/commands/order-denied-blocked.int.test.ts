/**
 * `hoga order buy` of a symbol the order manager bars (`symbol-blocked`: its position differs from
 * the broker's holdings, as a `hoga run` beside it found), as a child process over the simulator
 * with a real SQLite file. The risk checks accept it; the order manager denies it and sends nothing.
 * Before: the command printed `sent: cli-…: OrderDenied` and exited 0, with no reason, as though
 * the order had gone to the broker. Now it says `denied: symbol-blocked: …` and exits 3, as a
 * denial of the risk checks does (`--json`: `verdict: "denied"`, `sent: false`, the code).
 */
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, hogaToEnd as hoga, setup } from './run-process.test-helper.js';

afterEach(closeSims);

describe('hoga order buy of a barred symbol', () => {
  it('says denied with the code and exits 3, not sent', async () => {
    const { sim, db } = await setup();
    const environment = env(sim, db);
    expect((await hoga(['db', 'migrate', '--db', db], environment)).code).toBe(0);
    const store = HogaDatabase.open(db);
    store.connection
      .prepare('INSERT INTO om_blocked_symbols (symbol, reason, since) VALUES (?, ?, ?)')
      .run('005930', 'position mismatch', 0);
    store.close();
    const text = await hoga(['order', 'buy', '005930', '1', '--limit', '50000'], environment);
    expect(text.out).toContain('denied: symbol-blocked');
    expect(text.out).not.toContain('sent:');
    expect(text.code).toBe(3);
    const json = await hoga(['order', 'buy', '005930', '1', '--limit', '50000', '--json'], environment);
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'denied', sent: false, code: 'symbol-blocked' });
    expect(json.code).toBe(3);
    expect(sim.counters().ordersCreated).toBe(0);
  }, 120_000);
});

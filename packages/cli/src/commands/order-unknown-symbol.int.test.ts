/**
 * `hoga order buy` of a symbol the broker does not know, as a child process over the simulator.
 * The risk module reads the stock, its warnings, prices, limits, buying power and calendars at
 * once; the broker's 404 on one ends the command, which closes the connection with the others
 * still in flight. Before: each of those printed `retrying in 1 s … after network-connection`
 * under the real error (five lines a user took for a broken network) and the command lingered a
 * second more; the connector now repeats nothing once its client is closed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, hogaToEnd as hoga, setup } from './run-process.test-helper.js';

afterEach(closeSims);

describe('hoga order buy of an unknown symbol', () => {
  it('names the symbol, exits 1 and retries nothing after the failure', async () => {
    const { sim, db } = await setup(true, 1);
    const environment = env(sim, db);
    for (const symbol of ['ZZZZ', '999999']) {
      const run = await hoga(['order', 'buy', symbol, '1', '--limit', '100'], environment);
      expect(run.out).toContain(`stock-not-found`);
      expect(run.out).toContain(symbol);
      expect(run.out).not.toContain('retrying');
      expect(run.out).not.toContain('network-connection');
      expect(run.code).toBe(1);
    }
    expect(sim.counters().ordersCreated).toBe(0);
  }, 120_000);
});

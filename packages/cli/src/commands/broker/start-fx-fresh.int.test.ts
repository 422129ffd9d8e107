/**
 * `pnpm start` (`hoga start`), the first command a new user runs, trades against the simulator at
 * ×30: the broker's USD/KRW rate, refreshed every minute of the simulator's clock, must be read as
 * often. Before, the run's exchange-rate stream read it every 60 real seconds (half an hour of the
 * simulator's time): twelve seconds into the demo the rate had lapsed by five minutes, and the demo
 * warned that the exchange-rate stream had given no newer one, telling the user to check the
 * connection to the broker.
 */
import { describe, expect, it } from 'vitest';
import { hoga } from '../../hoga-process.test-helper.js';

describe('hoga start, the exchange rate', () => {
  it('keeps the rate fresh at ×30 for 16 s (8 simulated minutes): no stale-rate warning', async () => {
    const run = await hoga(['start', '--seconds', '16'], { killAfterMs: 90_000 });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^summary: \d+ orders, \d+ fills, \d+ bars$/m);
    expect(`${run.out}${run.err}`).not.toMatch(/exchange-rate stream has given no newer one/);
    expect(run.err).toBe('');
  }, 120_000);
});

/**
 * The account figures the risk module judges orders by are not taken as fresh from a read that was
 * sent before they changed. Before, a background read of the sellable quantity sent before a sell
 * filled, and answered after (a slow network, a broker under load), put the figure of before the
 * fill back as fresh: the fill's `forget` was undone, and the next sell of the same shares was let
 * through (the broker then refuses it) until the figure aged out.
 */
import { Decimal } from '@hoga/core';
import { startSimulator } from '@hoga/simulator';
import { describe, expect, it } from 'vitest';
import { KR_OPEN, simClient, simClock } from '../orders/live-fixture.test-helper.js';
import { AccountInfoProvider } from './account-info-provider.js';

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('account figures read while they change', () => {
  it('re-reads the sellable quantity a fill changed while its read was in flight', async () => {
    const sim = await startSimulator({ port: 0, seed: 7, start: KR_OPEN, speed: 0, rateLimit: false });
    const clock = simClock(sim);
    const client = simClient(sim, clock);
    try {
      const held = (await client.getSellableQuantity('005930')).sellableQuantity;
      expect(held.gt(0)).toBe(true);
      const funds = new AccountInfoProvider(client, clock, 5_000);
      // the background read: the broker answers it now, and the answer is held back 1.5 s
      sim.injectFault({
        kind: 'delay-after-commit',
        path: '/api/v1/sellable-quantity',
        method: 'GET',
        delayMs: 1_500,
        count: 1,
      });
      const background = funds.refresh('KRW', '005930');
      await until(() => sim.control.faults().length === 0);
      // meanwhile every share is sold, and the fill makes the figures stale (as the risk engine does)
      await client.createOrder({ symbol: '005930', side: 'SELL', orderType: 'MARKET', quantity: held });
      funds.forget('KRW', '005930');
      await background;
      // the next sell's read of what it needs (not forced: only what is stale)
      await funds.refresh('KRW', '005930');
      const broker = (await client.getSellableQuantity('005930')).sellableQuantity;
      expect(broker.toFixed()).toBe('0');
      // before: the 100 shares of before the fill
      expect(funds.sellableQuantity('005930')?.toFixed()).toBe(broker.toFixed());
      expect(funds.cashBuyingPower('KRW')?.gt(new Decimal(0))).toBe(true);
    } finally {
      client.close();
      await sim.close();
    }
  }, 60_000);
});

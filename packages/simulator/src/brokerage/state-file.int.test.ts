import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SimMarket } from '../market/sim-market.js';
import { Brokerage } from './brokerage.js';

const KR_MORNING = '2026-11-23T10:00:00+09:00';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hoga-brokerage-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function open(statePath: string, at = KR_MORNING) {
  const clock = new VirtualClock(at);
  const market = new SimMarket({ seed: 7, clock });
  const brokerage = await Brokerage.open({ market, clock, seed: 7, statePath });
  return { clock, market, brokerage };
}

describe('Brokerage', () => {
  describe('.save and .open', () => {
    it('brings back cash, holdings, orders, the clientOrderId window and the id sequence after a restart', async () => {
      const statePath = join(dir, 'nested', 'sim-state.json');
      const first = await open(statePath);
      const filled = (await first.brokerage.createOrder(1, {
        symbol: '005930',
        side: 'BUY',
        orderType: 'MARKET',
        quantity: '3',
      })) as { orderId: string };
      const body = {
        symbol: '005930',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '2',
        price: first.market.priceLimits('005930', first.clock.now())!.lower.toFixed(),
        clientOrderId: 'k-1',
      };
      const resting = await first.brokerage.createOrder(1, body);
      await first.brokerage.save();
      expect((await stat(statePath)).mode & 0o777).toBe(0o600);
      expect(await readdir(join(dir, 'nested'))).toEqual(['sim-state.json']);

      const second = await open(statePath);
      const query = (q: string) => new URLSearchParams(q);
      expect(second.brokerage.orderDetail(1, filled.orderId)).toEqual(
        first.brokerage.orderDetail(1, filled.orderId),
      );
      expect(second.brokerage.buyingPower(1, query('currency=KRW'))).toEqual(
        first.brokerage.buyingPower(1, query('currency=KRW')),
      );
      expect(second.brokerage.holdings(1, query('symbol=005930'))).toEqual(
        first.brokerage.holdings(1, query('symbol=005930')),
      );
      expect(await second.brokerage.createOrder(1, body)).toEqual(resting);
      expect(second.brokerage.counters()).toEqual(first.brokerage.counters());
      const next = (await second.brokerage.createOrder(1, { ...body, clientOrderId: 'k-2' })) as {
        orderId: string;
      };
      expect([filled.orderId, (resting as { orderId: string }).orderId]).not.toContain(next.orderId);
    });

    it('keeps the cancels counted across a restart, and reads a file written before they were counted', async () => {
      const statePath = join(dir, 'counts.json');
      const first = await open(statePath);
      const price = first.market.priceLimits('005930', first.clock.now())!.lower.toFixed();
      const body = { symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '1', price };
      const { orderId } = (await first.brokerage.createOrder(1, body)) as { orderId: string };
      await first.brokerage.cancelOrder(1, orderId, {});
      await first.brokerage.save();
      expect((await open(statePath)).brokerage.counters()).toMatchObject({
        ordersCreated: 1,
        ordersCanceled: 1,
      });
      const old = JSON.parse(await readFile(statePath, 'utf8'));
      delete old.counters.ordersModified;
      delete old.counters.ordersCanceled;
      await writeFile(statePath, JSON.stringify(old));
      expect((await open(statePath)).brokerage.counters()).toMatchObject({
        ordersCreated: 1,
        ordersModified: 0,
        ordersCanceled: 0,
      });
    });

    it('starts fresh when the state file does not exist yet', async () => {
      const { brokerage } = await open(join(dir, 'absent.json'));
      expect(brokerage.counters().ordersCreated).toBe(0);
    });

    it('fails fast on a corrupt state file, naming it', async () => {
      const statePath = join(dir, 'bad.json');
      await writeFile(statePath, JSON.stringify({ version: 1, sequence: 'x' }));
      await expect(open(statePath)).rejects.toThrow(/bad\.json is corrupt/);
      expect(await readFile(statePath, 'utf8')).toContain('"sequence":"x"');
    });
  });
});

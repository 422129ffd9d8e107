import { describe, expect, it } from 'vitest';
import { SimulatorError } from '../src/index.js';
import { useSimulators } from './conformance-kit.js';
import { krLimit } from './kr-orders.test-helper.js';
import { type Json, KR_OPEN, outcome, startTestSimulator, type TestClient } from './sim-client.js';

const setup = useSimulators();

async function lowerLimit(client: TestClient): Promise<string> {
  const res = await client.get('/api/v1/price-limits', { symbol: '005930' });
  return res.body.result.lowerLimitPrice as string;
}

describe('control API', () => {
  describe('/_sim routes', () => {
    it('do not exist without control: true', async () => {
      const { client } = await setup({ control: false });
      const res = await client.request('GET', '/_sim/counters', { auth: false, account: null });
      expect(outcome(res)).toBe('404 edge-blocked');
    });

    it('answer GET /_sim/clock without control: true (read-only: engines follow the simulated clock), nothing else', async () => {
      const { client } = await setup({ control: false, start: KR_OPEN, speed: 30 });
      const res = await client.request('GET', '/_sim/clock', { auth: false, account: null });
      expect(res.status).toBe(200);
      expect(res.body.speed).toBe(30);
      expect(String(res.body.now).startsWith('2026-11-23T10:00')).toBe(true);
      const set = await client.request('POST', '/_sim/clock', {
        auth: false,
        account: null,
        body: { advanceMs: 60_000 },
      });
      expect(outcome(set)).toBe('404 edge-blocked');
    });

    it('answer 404 edge-blocked for an unknown control path', async () => {
      const { client } = await setup();
      const res = await client.request('GET', '/_sim/nothing', { auth: false, account: null });
      expect(outcome(res)).toBe('404 edge-blocked');
    });
  });

  describe('clock', () => {
    it('reads, sets, advances and changes the speed of the simulated clock', async () => {
      const { sim, client } = await setup();
      expect(await client.control('GET', '/_sim/clock')).toEqual({
        now: '2026-11-23T10:00:00.000+09:00',
        speed: 0,
      });
      expect(await client.control('POST', '/_sim/clock', { at: '2026-11-24T09:30:00+09:00' })).toEqual({
        now: '2026-11-24T09:30:00.000+09:00',
        speed: 0,
      });
      const advanced = await client.control('POST', '/_sim/clock', { advanceMs: 90_000, speed: 60 });
      expect(advanced.now.startsWith('2026-11-24T09:31:30')).toBe(true);
      expect(advanced.speed).toBe(60);
      expect(sim.now().toMillis()).toBeGreaterThanOrEqual(Date.parse('2026-11-24T09:31:30+09:00'));
    });

    it('rejects a malformed instant with 400 invalid-request naming the field', async () => {
      const { client } = await setup();
      const res = await client.request('POST', '/_sim/clock', {
        auth: false,
        account: null,
        body: { at: 'soon' },
      });
      expect(outcome(res)).toBe('400 invalid-request');
      expect(res.body.error.data).toEqual({ field: 'at' });
    });

    it('moves the market with the clock', async () => {
      const { sim, client } = await setup();
      const before = await client.get('/api/v1/prices', { symbols: '005930' });
      sim.advanceClock(30 * 60_000);
      const after = await client.get('/api/v1/prices', { symbols: '005930' });
      expect(after.body.result[0].timestamp).not.toBe(before.body.result[0].timestamp);
    });
  });

  describe('prices', () => {
    it('moves a symbol price now', async () => {
      const { client } = await setup();
      expect(await client.control('POST', '/_sim/prices', { symbol: '005930', price: '70000' })).toEqual({
        symbol: '005930',
        price: '70000',
      });
      const res = await client.get('/api/v1/prices', { symbols: '005930' });
      expect(res.body.result[0].lastPrice).toBe('70000');
    });

    it.each([
      [{ symbol: 'NOPE', price: '1' }, '404 stock-not-found'],
      [{ symbol: '005930', price: '-1' }, '400 invalid-request'],
      [{ symbol: '005930', price: '1e5' }, '400 invalid-request'],
      [{ symbol: '005930' }, '400 invalid-request'],
    ])('refuses %j with %s', async (body, expected) => {
      const { client } = await setup();
      const res = await client.request('POST', '/_sim/prices', { auth: false, account: null, body });
      expect(outcome(res)).toBe(expected);
    });
  });

  describe('faults', () => {
    it('are listed, removed and cleared over HTTP', async () => {
      const { client } = await setup();
      const { id } = await client.control('POST', '/_sim/faults', {
        kind: 'maintenance',
        path: '/api/v1/*',
        count: 3,
      });
      await client.control('POST', '/_sim/faults', { kind: 'delay', path: '/api/v1/prices', delayMs: 10 });
      const listed = await client.control('GET', '/_sim/faults');
      expect(listed.faults.map((f: Json) => [f.kind, f.remaining])).toEqual([
        ['maintenance', 3],
        ['delay', null],
      ]);
      expect(await client.control('DELETE', `/_sim/faults/${id}`)).toEqual({ removed: true });
      expect(await client.control('DELETE', '/_sim/faults')).toEqual({ cleared: true });
      expect((await client.control('GET', '/_sim/faults')).faults).toEqual([]);
    });

    it('refuses an invalid fault spec with 400 naming the field', async () => {
      const { client } = await setup();
      const res = await client.request('POST', '/_sim/faults', {
        auth: false,
        account: null,
        body: { kind: 'internal-error', path: '*', rate: 3 },
      });
      expect(outcome(res)).toBe('400 invalid-request');
      expect(res.body.error.data).toEqual({ field: 'rate' });
    });

    it('delay: answers after the delay', async () => {
      const { sim, client } = await setup();
      await client.login();
      sim.injectFault({ kind: 'delay', path: '/api/v1/prices', delayMs: 300 });
      const started = performance.now();
      const res = await client.get('/api/v1/prices', { symbols: 'AAPL' });
      expect(outcome(res)).toBe('200');
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    });

    it('malformed-body: answers 200 with a body that is not valid JSON, after doing the work', async () => {
      const { sim, client } = await setup();
      const price = await lowerLimit(client);
      sim.injectFault({ kind: 'malformed-body', path: '/api/v1/orders', method: 'POST', count: 1 });
      const res = await client.post('/api/v1/orders', krLimit('BUY', '1', price));
      expect(res.status).toBe(200);
      expect(res.body).toBeUndefined();
      expect(res.text.startsWith('{"result":')).toBe(true);
      expect(sim.counters().ordersCreated).toBe(1);
    });

    it('drop-after-commit: commits the order and closes the connection without an answer', async () => {
      const { sim, client } = await setup();
      const price = await lowerLimit(client);
      sim.injectFault({ kind: 'drop-after-commit', path: '/api/v1/orders', method: 'POST', count: 1 });
      const body = krLimit('BUY', '1', price);
      await expect(client.post('/api/v1/orders', body)).rejects.toThrow();
      const open = await client.get('/api/v1/orders', { status: 'OPEN' });
      expect(open.body.result.orders).toHaveLength(1);
    });

    it('delay-after-commit: commits the order at once, answers only after delayMs', async () => {
      const { sim, client } = await setup();
      const price = await lowerLimit(client);
      sim.injectFault({
        kind: 'delay-after-commit',
        path: '/api/v1/orders',
        method: 'POST',
        count: 1,
        delayMs: 600,
      });
      const body = krLimit('BUY', '1', price);
      const started = performance.now();
      const pending = client.post('/api/v1/orders', body);
      let seen: Json[] = [];
      while (seen.length === 0 && performance.now() - started < 5_000) {
        seen = (await client.get('/api/v1/orders', { status: 'OPEN' })).body.result.orders;
      }
      const seenAt = performance.now() - started;
      const res = await pending;
      const answeredAt = performance.now() - started;
      expect(outcome(res)).toBe('200');
      expect(seen.map((o: Json) => o.orderId)).toEqual([res.body.result.orderId]);
      expect(answeredAt).toBeGreaterThanOrEqual(590);
      expect(seenAt).toBeLessThan(answeredAt);
      expect(sim.counters().ordersCreated).toBe(1);
    });

    it('hide-new-orders: keeps new orders out of the lists for a while, but not out of the detail', async () => {
      const { sim, client } = await setup();
      const price = await lowerLimit(client);
      sim.injectFault({
        kind: 'hide-new-orders',
        path: '/api/v1/orders',
        method: 'POST',
        durationMs: 30_000,
        count: 1,
      });
      const res = await client.post('/api/v1/orders', krLimit('BUY', '1', price));
      const id = res.body.result.orderId as string;
      expect((await client.get('/api/v1/orders', { status: 'OPEN' })).body.result.orders).toEqual([]);
      expect(outcome(await client.get(`/api/v1/orders/${id}`))).toBe('200');
      sim.advanceClock(31_000);
      const open = await client.get('/api/v1/orders', { status: 'OPEN' });
      expect(open.body.result.orders.map((o: Json) => o.orderId)).toEqual([id]);
    });

    it('rate: hits about that share of matching requests, the same ones for the same seed', async () => {
      const pattern = async (): Promise<string> => {
        const { sim, client } = await setup({ seed: 11 });
        sim.injectFault({ kind: 'internal-error', path: '/api/v1/prices', rate: 0.5 });
        let result = '';
        for (let i = 0; i < 40; i++)
          result += (await client.get('/api/v1/prices', { symbols: 'AAPL' })).status === 500 ? 'x' : '.';
        return result;
      };
      const first = await pattern();
      expect(await pattern()).toBe(first);
      const hits = first.split('').filter((c) => c === 'x').length;
      expect(hits).toBeGreaterThan(8);
      expect(hits).toBeLessThan(32);
    });

    it('apply only to the given method', async () => {
      const { sim, client } = await setup();
      sim.injectFault({ kind: 'internal-error', path: '/api/v1/orders', method: 'POST' });
      expect(outcome(await client.get('/api/v1/orders', { status: 'OPEN' }))).toBe('200');
      expect(outcome(await client.post('/api/v1/orders', {}))).toBe('500 internal-error');
    });
  });

  describe('counters', () => {
    it('count requests per group, tokens, 429s and orders', async () => {
      const { sim, client } = await setup();
      await client.get('/api/v1/prices', { symbols: 'AAPL' });
      await client.get('/api/v1/candles', { symbol: 'AAPL', interval: '1d', count: '1' });
      await client.get('/api/v1/accounts');
      await client.get('/api/v1/nothing');
      const counters = await client.control('GET', '/_sim/counters');
      expect(counters).toEqual({
        requestsTotal: 5,
        requestsByGroup: { AUTH: 1, MARKET_DATA: 1, MARKET_DATA_CHART: 1, ACCOUNT: 1 },
        rateLimited: 0,
        tokensIssued: 1,
        faultsFired: 0,
        ordersCreated: 0,
        ordersModified: 0,
        ordersCanceled: 0,
        ordersPerClientOrderId: {},
      });
      expect(sim.counters()).toEqual(counters);
    });
  });

  describe('startSimulator options', () => {
    it.each([
      [{ start: '2026-11-23T10:00:00' }, 'start'],
      [{ start: 'tomorrow' }, 'start'],
      [{ port: 70_000 }, 'port'],
      [{ speed: -1 }, 'speed'],
      [{ tokenTtlSeconds: 0 }, 'tokenTtlSeconds'],
      [{ accountHeader: 'X Service' }, 'accountHeader'],
    ])('rejects %j with SimulatorError naming %s', async (options, field) => {
      const error = await startTestSimulator(options).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SimulatorError);
      expect(error).toMatchObject({ code: 'invalid-simulator-option', field });
    });
  });

  describe('handle', () => {
    it('starts where asked and reports its URL', async () => {
      const { sim } = await setup();
      expect(sim.url).toBe(`http://127.0.0.1:${sim.port}`);
      expect(sim.now().toISO()).toBe('2026-11-23T10:00:00.000+09:00');
      expect(KR_OPEN).toBe('2026-11-23T10:00:00+09:00');
    });

    it('closes idle keep-alive connections and can be closed twice', async () => {
      const { sim, client } = await setup();
      await client.get('/api/v1/prices', { symbols: 'AAPL' });
      await sim.close();
      await sim.close();
      await expect(fetch(`${sim.url}/api/v1/prices`)).rejects.toThrow();
    });
  });
});

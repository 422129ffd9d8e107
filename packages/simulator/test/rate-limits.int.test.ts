import { describe, expect, it } from 'vitest';
import type { SimulatorOptions } from '../src/index.js';
import { type Ctx, useSimulators } from './conformance-kit.js';
import { KR_OPEN, outcome, type SimResponse, type TestClient } from './sim-client.js';

const startSim = useSimulators();

/** A simulator with its rate limits on (unless `options` say otherwise) and a logged-in client. */
async function withSim(options: SimulatorOptions = {}): Promise<Ctx> {
  const ctx = await startSim({ rateLimit: true, ...options });
  await ctx.client.login();
  return ctx;
}

function limitHeaders(res: SimResponse): [string | null, string | null, string | null, string | null] {
  return [
    res.headers.get('x-ratelimit-limit'),
    res.headers.get('x-ratelimit-remaining'),
    res.headers.get('x-ratelimit-reset'),
    res.headers.get('retry-after'),
  ];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('rate limits', () => {
  describe('token bucket per client and group', () => {
    it('counts the remaining tokens down and answers 429 with Retry-After when empty', async () => {
      const { sim, client } = await withSim();
      await client.get('/api/v1/prices', { symbols: 'AAPL' });
      await sleep(1_100);
      // the bucket (10, full again) refills a token every 100 ms of real time while the burst goes
      // on: on a loaded machine the 13 requests span several of those (before: 12 were allowed
      // where the test allowed at most 11, and a refill within the first ten broke the countdown)
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 13 }, () => client.get('/api/v1/prices', { symbols: 'AAPL' })),
      );
      const refills = Math.floor((performance.now() - started) / 100);
      const allowed = answers.filter((r) => r.status === 200);
      const refused = answers.filter((r) => r.status !== 200);
      expect(allowed.length).toBeGreaterThanOrEqual(10);
      expect(allowed.length).toBeLessThanOrEqual(10 + refills);
      const remaining = allowed
        .map((r) => Number(r.headers.get('x-ratelimit-remaining')))
        .sort((x, y) => y - x);
      if (refills === 0) expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      else {
        // counted down from 9 one by one (a refill may repeat a step, never skip one), down to 0
        // before any request was refused
        const lowest = remaining.at(-1) ?? -1;
        expect(remaining[0]).toBe(9);
        expect(new Set(remaining)).toEqual(new Set(Array.from({ length: 10 - lowest }, (_, i) => 9 - i)));
        if (refused.length > 0) expect(lowest).toBe(0);
      }
      expect(allowed.every((r) => r.headers.get('retry-after') === null)).toBe(true);
      for (const res of refused) {
        expect(outcome(res)).toBe('429 rate-limit-exceeded');
        expect(limitHeaders(res)).toEqual(['10', '0', '1', '1']);
        expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
      }
      expect(sim.counters().rateLimited).toBe(refused.length);
    });

    it('refills the bucket in real time', async () => {
      const { client } = await withSim();
      expect(outcome(await client.get('/api/v1/accounts'))).toBe('200');
      expect(outcome(await client.get('/api/v1/accounts'))).toBe('429 rate-limit-exceeded');
      await sleep(1_050);
      const res = await client.get('/api/v1/accounts');
      expect(outcome(res)).toBe('200');
      expect(limitHeaders(res)).toEqual(['1', '0', '1', null]);
    });

    it('keeps the groups apart', async () => {
      const { client } = await withSim();
      await client.get('/api/v1/accounts');
      expect(outcome(await client.get('/api/v1/accounts'))).toBe('429 rate-limit-exceeded');
      const holdings = await client.get('/api/v1/holdings');
      expect(outcome(holdings)).toBe('200');
      expect(limitHeaders(holdings)).toEqual(['5', '4', '1', null]);
    });

    it('sends the headers on error answers too', async () => {
      const { client } = await withSim();
      const res = await client.get('/api/v1/orderbook', { symbol: 'NOPE' });
      expect(outcome(res)).toBe('404 stock-not-found');
      expect(limitHeaders(res)).toEqual(['10', '9', '1', null]);
    });

    it.each([
      ['/api/v1/stocks', { symbols: 'AAPL' }, '5'],
      ['/api/v1/exchange-rate', { baseCurrency: 'USD', quoteCurrency: 'KRW' }, '3'],
      ['/api/v1/candles', { symbol: 'AAPL', interval: '1d' }, '5'],
      ['/api/v1/orders', { status: 'OPEN' }, '5'],
      ['/api/v1/commissions', {}, '6'],
    ])('reports the limit of %s as %s per second', async (path, query, limit) => {
      const { client } = await withSim();
      const res = await client.get(path, query);
      expect(res.headers.get('x-ratelimit-limit')).toBe(limit);
    });
  });

  describe('peak window 09:00–09:10 KST', () => {
    it.each([
      ['ORDER_INFO', (client: TestClient) => client.get('/api/v1/commissions'), 200],
      ['ORDER', (client: TestClient) => client.post('/api/v1/orders', {}), 400],
    ] as const)('lowers %s to 3 per second inside the window', async (_group, call, served) => {
      const { client } = await withSim({ start: '2026-11-23T09:05:00+09:00' });
      const answers = await Promise.all(Array.from({ length: 6 }, () => call(client)));
      const allowed = answers.filter((r) => r.status === served);
      const refused = answers.filter((r) => r.status !== served);
      expect(allowed.length).toBeGreaterThanOrEqual(3);
      expect(allowed.length).toBeLessThanOrEqual(4);
      expect(refused.map(outcome)).toEqual(refused.map(() => '429 rate-limit-exceeded'));
      expect(answers.map((r) => r.headers.get('x-ratelimit-limit'))).toEqual(Array(6).fill('3'));
    });

    it('gives the normal limits back at 09:10 KST and leaves other groups alone', async () => {
      const { sim, client } = await withSim({ start: '2026-11-23T09:09:59+09:00' });
      expect((await client.get('/api/v1/commissions')).headers.get('x-ratelimit-limit')).toBe('3');
      expect((await client.get('/api/v1/prices', { symbols: 'AAPL' })).headers.get('x-ratelimit-limit')).toBe(
        '10',
      );
      sim.setClock('2026-11-23T09:10:00+09:00');
      expect((await client.get('/api/v1/commissions')).headers.get('x-ratelimit-limit')).toBe('6');
      sim.setClock(KR_OPEN);
      expect((await client.post('/api/v1/orders', {})).headers.get('x-ratelimit-limit')).toBe('6');
    });
  });

  describe('rate-limit-burst fault', () => {
    it('answers 429 whatever the buckets say, for the fault count', async () => {
      const { sim, client } = await withSim();
      sim.injectFault({ kind: 'rate-limit-burst', path: '/api/v1/prices', count: 2 });
      const answers: SimResponse[] = [];
      for (let i = 0; i < 3; i++) answers.push(await client.get('/api/v1/prices', { symbols: 'AAPL' }));
      expect(answers.map(outcome)).toEqual(['429 rate-limit-exceeded', '429 rate-limit-exceeded', '200']);
      expect(answers[0]?.headers.get('retry-after')).toBe('1');
      expect(sim.counters().rateLimited).toBe(2);
    });
  });

  describe('rateLimits: a group limited otherwise than the spec says', () => {
    it('enforces and announces the limit given, and leaves the other groups at the spec', async () => {
      const { client } = await withSim({ rateLimits: { ACCOUNT: { perSecond: 4, peakPerSecond: null } } });
      const answers = await Promise.all(Array.from({ length: 3 }, () => client.get('/api/v1/accounts')));
      // 3 at once: the spec's 1 a second refused two of them
      expect(answers.map(outcome)).toEqual(['200', '200', '200']);
      expect(answers.map((r) => r.headers.get('x-ratelimit-limit'))).toEqual(['4', '4', '4']);
      expect((await client.get('/api/v1/holdings')).headers.get('x-ratelimit-limit')).toBe('5');
    });
  });

  describe('rateLimit: false', () => {
    it('never answers 429 and still sends the headers', async () => {
      const { client } = await withSim({ rateLimit: false });
      const answers: SimResponse[] = [];
      for (let i = 0; i < 5; i++) answers.push(await client.get('/api/v1/accounts'));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(limitHeaders(answers[4] as SimResponse)).toEqual(['1', '1', '0', null]);
    });
  });
});

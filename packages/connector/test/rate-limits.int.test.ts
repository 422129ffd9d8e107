import { spawn } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimitGroup } from '@hoga/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerClient, MemoryTokenCache } from '../src/index.js';
import { type SimFixture, startFixture } from './simulator-fixture.js';

let fx: SimFixture;

/** 09:04:58 KST: inside the 09:00–09:10 peak window of ORDER_INFO. */
const START = '2026-11-23T09:04:58.000+09:00';

beforeAll(async () => {
  fx = await startFixture({ rateLimit: true, start: START });
});
afterAll(async () => {
  await fx.close();
});

/** Bursts of the pacing test, each from a fresh client. */
const ROUNDS = 10;

/** One token cache for the siblings: clients of one client id must share one token (spec). */
const siblingTokens = new MemoryTokenCache();

function sibling(tokenCache: MemoryTokenCache = siblingTokens, on: SimFixture = fx): BrokerClient {
  return new BrokerClient({
    clock: fx.clock,
    tokenCache,
    config: {
      baseUrl: on.sim.url,
      clientId: 'sim-client',
      clientSecret: 'sim-secret',
      accountSeq: 1,
      backoffBaseMs: 100,
      maxRetries: 10,
    },
  });
}

describe('rate limits against the simulator with its limits on', () => {
  it('paces a burst of 25 reads to 10/s without a single 429', async () => {
    // The machine busy: a second process spinning on a core for the whole test (it ends itself
    // after a minute should this test die before killing it).
    const spinner = spawn(
      process.execPath,
      ['-e', 'const end = Date.now() + 60_000; while (Date.now() < end);'],
      {
        stdio: 'ignore',
      },
    );
    // Two simulators (the same market, limits on), taken in turn: each round's server has had a
    // whole round (at least 1.4 s) to refill its buckets (10 tokens a second), where one simulator
    // slept 1.2 s before each round for it.
    const spare = await startFixture({ rateLimit: true, start: START });
    const rateLimited: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const server = round % 2 === 0 ? fx : spare;
        // A fresh client each round, as a new command would be: the first ten requests are let go
        // at once, then wait for the token issue before they actually leave. In half the rounds
        // (each simulator's in turn) the token issue is slow, so that they leave late for sure.
        const client = sibling(new MemoryTokenCache(), server);
        if (round % 4 === 1 || round % 4 === 2) {
          server.sim.injectFault({ kind: 'delay', path: '/oauth2/token', delayMs: 150, count: 1 });
        }
        const before = server.sim.counters().rateLimited;
        const started = Date.now();
        await Promise.all(Array.from({ length: 25 }, () => client.getOrderbook('005930')));
        expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
        rateLimited.push(server.sim.counters().rateLimited - before);
        client.close();
      }
    } finally {
      spinner.kill();
      await spare.close();
    }
    expect(rateLimited).toEqual(Array.from({ length: ROUNDS }, () => 0));
  }, 60_000);

  it('paces by when answers come back: a burst that reaches the server late gets no 429', async () => {
    // A real TCP proxy in front of the simulator holds the first ten requests back 200 ms after
    // they left the client (a busy machine or network); the server counts them on arrival. A
    // limiter that counted them when they left let the eleventh go 150 ms later, into an empty bucket.
    const target = new URL(fx.sim.url);
    let toHold = 0;
    const sockets = new Set<Socket>();
    const proxy: Server = createServer((client) => {
      const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
      sockets.add(client);
      sockets.add(upstream);
      client.on('data', (chunk) => {
        const hold = toHold > 0 && /^(GET|POST) /.test(chunk.toString('latin1', 0, 5));
        if (hold) toHold--;
        if (hold) setTimeout(() => upstream.write(chunk), 200);
        else upstream.write(chunk);
      });
      upstream.pipe(client);
      const close = (): void => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const address = proxy.address();
    if (address === null || typeof address === 'string') throw new Error('no proxy address');
    const client = new BrokerClient({
      clock: fx.clock,
      tokenCache: new MemoryTokenCache(),
      config: {
        baseUrl: `http://127.0.0.1:${address.port}`,
        clientId: 'sim-client',
        clientSecret: 'sim-secret',
        accountSeq: 1,
        maxRetries: 0,
      },
    });
    try {
      await client.getOrderbook('005930'); // the token issued, the connection made
      await sleep(1_200);
      const before = fx.sim.counters().rateLimited;
      toHold = 10;
      await Promise.all(Array.from({ length: 15 }, () => client.getOrderbook('005930')));
      expect(fx.sim.counters().rateLimited - before).toBe(0);
    } finally {
      client.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('uses the 3/s peak limit of ORDER_INFO between 09:00 and 09:10 KST', async () => {
    expect(fx.client.limiter.limitOf(RateLimitGroup.ORDER_INFO)).toBe(3);
    const before = fx.sim.counters().rateLimited;
    const started = Date.now();
    await Promise.all(Array.from({ length: 8 }, () => fx.client.getBuyingPower('KRW')));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(fx.sim.counters().rateLimited - before).toBe(0);
  });

  it('recovers from real 429s when two clients of one client id share the budget', async () => {
    const [a, b] = [sibling(), sibling()];
    const before = fx.sim.counters().rateLimited;
    const calls = [a, b].flatMap((client) => Array.from({ length: 15 }, () => client.getPrices(['005930'])));
    const results = await Promise.allSettled(calls);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(fx.sim.counters().rateLimited - before).toBeGreaterThan(0);
    expect(a.executor.stats.rateLimited + b.executor.stats.rateLimited).toBe(
      fx.sim.counters().rateLimited - before,
    );
    a.close();
    b.close();
  });
});

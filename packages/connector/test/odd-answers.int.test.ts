/**
 * Answers no broker means to give, but which a proxy, a gateway or a misconfigured edge in front of
 * it does: served over HTTP on 127.0.0.1 by a tiny server of the test's own.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@hoga/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  BrokerClient,
  candlePages,
  closedOrders,
  NetworkError,
  ResponseShapeError,
  ServerError,
} from '../src/index.js';

/** What the test server answers to `GET /api/v1/prices` (the token endpoint always issues). */
type PricesAnswer = (res: http.ServerResponse) => void;

const servers: http.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function serve(
  prices: PricesAnswer,
  token?: (body: string, res: http.ServerResponse) => void,
): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/oauth2/token' && token !== undefined) {
        token(Buffer.concat(chunks).toString('utf8'), res);
        return;
      }
      if (req.url === '/oauth2/token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'odd-token', token_type: 'Bearer', expires_in: 86_400 }));
        return;
      }
      prices(res);
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function client(baseUrl: string, config: Record<string, unknown>, lines: string[] = []): BrokerClient {
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => lines.push(line) } });
  return new BrokerClient({
    logger,
    config: { baseUrl, clientId: 'odd-client', clientSecret: 'odd-secret', backoffBaseMs: 20, ...config },
  });
}

const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n' +
  '<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

describe('answers from something other than the broker', () => {
  it("names a gateway's HTML error page in one line instead of quoting its markup", async () => {
    const url = await serve((res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(NGINX_502);
    });
    const broker = client(url, { maxRetries: 0 });
    try {
      const error = await broker.getPrices(['005930']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      const message = (error as ServerError).message;
      expect(message).toContain('502 Bad Gateway');
      expect(message).toMatch(/HTML page/);
      expect(message).not.toMatch(/[<>\r\n]/);
    } finally {
      broker.close();
    }
  });

  it("never repeats the client secret that an edge's refusal of the token request echoes", async () => {
    const secret = 'odd secret/+&=';
    // a firewall's refusal quoting the request it blocked: the form, the secret URL-encoded in it
    const url = await serve(
      () => undefined,
      (form, res) => {
        res.writeHead(403, { 'content-type': 'text/plain' });
        res.end(`Request blocked: ${form} (client_secret=${secret})`);
      },
    );
    const lines: string[] = [];
    const broker = client(url, { maxRetries: 0, clientSecret: secret }, lines);
    try {
      const error = await broker.getPrices(['005930']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      const said = `${(error as AuthenticationError).message} ${JSON.stringify(error)} ${lines.join('')}`;
      expect(said).toContain('Request blocked');
      expect(said).not.toContain(secret);
      expect(said).not.toContain(new URLSearchParams({ s: secret }).toString().slice(2));
      expect(said).not.toContain(encodeURIComponent(secret));
    } finally {
      broker.close();
    }
  });

  it('waits out a Retry-After far ahead at most 5 minutes, without spinning on an overflowing timer', async () => {
    // a date a year ahead: beyond what a Node timer holds (24.8 days), so it would fire at once
    const url = await serve((res) => {
      const inAYear = new Date(Date.now() + 365 * 86_400_000).toUTCString();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': inAYear });
      res.end(JSON.stringify({ error: { code: 'rate-limit-exceeded', message: 'Too many requests' } }));
    });
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    const lines: string[] = [];
    const broker = client(url, { maxRetries: 2 }, lines);
    const controller = new AbortController();
    try {
      const call = broker.getPrices(['005930'], { signal: controller.signal }).catch((e: unknown) => e);
      await vi.waitFor(() => expect(lines.join('')).toContain('"msg":"retrying"'), { timeout: 10_000 });
      // the back-off timer is set by now; a warning is emitted on the next tick
      await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      const error = await call;
      expect(error).toBeInstanceOf(NetworkError);
      expect(warnings.filter((w) => w.name === 'TimeoutOverflowWarning').length).toBe(0);
      const retry = JSON.parse(lines.find((l) => l.includes('"msg":"retrying"'))!) as { delayMs: number };
      expect(retry.delayMs).toBeLessThanOrEqual(5 * 60_000 * 1.2);
      expect(retry.delayMs).toBeGreaterThan(60_000);
    } finally {
      process.off('warning', onWarning);
      broker.close();
    }
  });
});

/** Drains an async iterable, at most `max` items (a loop that never ends stops there). */
async function drain<T>(items: AsyncIterable<T>, max: number): Promise<T[] | unknown> {
  const out: T[] = [];
  try {
    for await (const item of items) {
      out.push(item);
      if (out.length >= max) break;
    }
    return out;
  } catch (error) {
    return error;
  }
}

describe('rate-limit headers out of their domain', () => {
  it('an X-RateLimit-Limit below one request a second is not followed (it stopped the group, spinning a timer)', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-limit': '0.000000001' });
      res.end(JSON.stringify({ result: [] }));
    });
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    const broker = client(url, {});
    try {
      await broker.getPrices(['005930']);
      // the next call of the group goes out as the published table allows
      await broker.getPrices(['005930']);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'TimeoutOverflowWarning').length).toBe(0);
    } finally {
      process.off('warning', onWarning);
      broker.close();
    }
  });
});

describe('pages that do not move on', () => {
  it('a candle page whose nextBefore does not go back is refused, not fetched again and again', async () => {
    // every answer: the same two candles, and "go on before 10:00" whatever `before` was asked
    const url = await serve((res) => {
      const candle = (t: string) => ({
        timestamp: t,
        openPrice: '100',
        highPrice: '100',
        lowPrice: '100',
        closePrice: '100',
        volume: '1',
        currency: 'KRW',
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          result: {
            candles: [candle('2026-11-23T10:01:00.000+09:00'), candle('2026-11-23T10:00:00.000+09:00')],
            nextBefore: '2026-11-23T10:00:00.000+09:00',
          },
        }),
      );
    });
    const broker = client(url, {});
    try {
      const from = '2026-11-20T09:00:00.000+09:00';
      const result = await drain(candlePages(broker, '005930', { interval: '1m', from }), 50);
      expect(result).toBeInstanceOf(ResponseShapeError);
      expect((result as ResponseShapeError).message).toMatch(/nextBefore/);
    } finally {
      broker.close();
    }
  });

  it('a closed-orders page that hands back the cursor it was asked with is refused', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: { orders: [ORDER], nextCursor: 'c1', hasNext: true } }));
    });
    const broker = client(url, { accountSeq: 1 });
    try {
      const result = await drain(closedOrders(broker), 50);
      expect(result).toBeInstanceOf(ResponseShapeError);
      expect((result as ResponseShapeError).message).toMatch(/nextCursor/);
    } finally {
      broker.close();
    }
  });
});

const ORDER = {
  orderId: 'o-1',
  symbol: '005930',
  side: 'BUY',
  orderType: 'LIMIT',
  timeInForce: 'DAY',
  status: 'FILLED',
  price: '100',
  quantity: '1',
  currency: 'KRW',
  orderedAt: '2026-11-23T10:00:00.000+09:00',
  execution: { filledQuantity: '1', averageFilledPrice: '100' },
};

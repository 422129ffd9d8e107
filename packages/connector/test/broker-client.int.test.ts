import { BrokerOrderStatus, Decimal, newClientOrderId } from '@hoga/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrokerClient,
  candlePages,
  closedOrders,
  InvalidArgumentError,
  NotFoundError,
  RequestValidationError,
} from '../src/index.js';
import { type SimFixture, startFixture } from './simulator-fixture.js';

let fx: SimFixture;
let client: BrokerClient;

beforeAll(async () => {
  fx = await startFixture({ rateLimit: false });
  client = fx.client;
});
afterAll(async () => {
  await fx.close();
});

const KST_OFFSET = 9 * 60;

describe('BrokerClient', () => {
  describe('.issueToken', () => {
    it('issues a bearer token with its expiry from expires_in', async () => {
      const token = await client.issueToken();
      expect(token.tokenType).toBe('Bearer');
      expect(token.accessToken.length).toBeGreaterThan(10);
      expect(token.expiresAt - token.issuedAt).toBe(86_400_000);
    });
  });

  describe('.getOrderbook', () => {
    it('returns decimals with asks rising and bids falling, keeping the +09:00 offset', async () => {
      const book = await client.getOrderbook('005930');
      expect(book.currency).toBe('KRW');
      expect(book.timestamp.offset).toBe(KST_OFFSET);
      expect(book.asks.length).toBeGreaterThan(0);
      expect(book.bids.length).toBeGreaterThan(0);
      for (let i = 1; i < book.asks.length; i++)
        expect(book.asks[i]!.price.gt(book.asks[i - 1]!.price)).toBe(true);
      for (let i = 1; i < book.bids.length; i++)
        expect(book.bids[i]!.price.lt(book.bids[i - 1]!.price)).toBe(true);
      expect(book.asks[0]!.volume).toBeInstanceOf(Decimal);
      expect(book.raw.asks).toBeInstanceOf(Array);
    });

    it('throws NotFoundError stock-not-found with a request id for an unknown symbol', async () => {
      const error = await client.getOrderbook('NOPE99').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({
        status: 404,
        code: 'stock-not-found',
        family: 'not-found',
        retryable: false,
      });
      expect((error as NotFoundError).requestId).toMatch(/\S+/);
    });
  });

  describe('.getPrices', () => {
    it('returns one price per symbol for KR and US symbols', async () => {
      const prices = await client.getPrices(['005930', 'AAPL']);
      expect(prices.map((p) => p.symbol).sort()).toEqual(['005930', 'AAPL']);
      for (const price of prices) expect(price.lastPrice.gt(0)).toBe(true);
    });

    it('rejects more than 200 symbols before sending', async () => {
      const symbols = Array.from({ length: 201 }, (_, i) => `A${i}`);
      await expect(client.getPrices(symbols)).rejects.toBeInstanceOf(InvalidArgumentError);
    });
  });

  describe('.getTrades', () => {
    it('returns at most count trades, newest first', async () => {
      const trades = await client.getTrades('005930', { count: 10 });
      expect(trades.length).toBeLessThanOrEqual(10);
      for (let i = 1; i < trades.length; i++) {
        expect(trades[i]!.timestamp.toMillis()).toBeLessThanOrEqual(trades[i - 1]!.timestamp.toMillis());
      }
    });
  });

  describe('.getPriceLimits', () => {
    it('gives KR limits around the price and null limits for US stocks', async () => {
      const kr = await client.getPriceLimits('005930');
      expect(kr.upperLimitPrice!.gt(kr.lowerLimitPrice!)).toBe(true);
      const us = await client.getPriceLimits('AAPL');
      expect(us.upperLimitPrice).toBeNull();
      expect(us.lowerLimitPrice).toBeNull();
    });
  });

  describe('.getCandles', () => {
    it('returns a page of 1m candles newest first with a nextBefore', async () => {
      const page = await client.getCandles('005930', { interval: '1m', count: 5 });
      expect(page.candles.length).toBe(5);
      expect(page.candles[0]!.timestamp > page.candles[1]!.timestamp).toBe(true);
      expect(page.nextBefore).not.toBeNull();
    });

    it('maps a bad interval from the broker to RequestValidationError naming the field', async () => {
      const error = await client.getCandles('005930', { interval: '5m' as '1m' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).field).toBe('interval');
    });
  });

  describe('.getStocks', () => {
    it('returns reference data with KR details only for KR stocks', async () => {
      const stocks = await client.getStocks(['005930', 'AAPL']);
      const kr = stocks.find((s) => s.symbol === '005930')!;
      const us = stocks.find((s) => s.symbol === 'AAPL')!;
      expect(kr.currency).toBe('KRW');
      expect(kr.koreanMarketDetail).not.toBeNull();
      expect(us.koreanMarketDetail).toBeNull();
      expect(kr.sharesOutstanding.gt(0)).toBe(true);
    });
  });

  describe('.getStockWarnings', () => {
    it('returns an array (possibly empty) for a known stock and 404 for an unknown one', async () => {
      expect(Array.isArray(await client.getStockWarnings('005930'))).toBe(true);
      await expect(client.getStockWarnings('NOPE99')).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('.getExchangeRate', () => {
    it('returns the USD/KRW display rate with a one-minute validity window', async () => {
      const fx = await client.getExchangeRate();
      expect(fx.baseCurrency).toBe('USD');
      expect(fx.quoteCurrency).toBe('KRW');
      expect(fx.rate.gt(100)).toBe(true);
      expect(fx.validUntil > fx.validFrom).toBe(true);
    });

    it('maps equal currencies to RequestValidationError invalid-request', async () => {
      const error = await client
        .getExchangeRate({ baseCurrency: 'USD', quoteCurrency: 'USD' })
        .catch((e) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({ code: 'invalid-request', status: 400 });
    });
  });

  describe('.getKrMarketCalendar', () => {
    it('returns three days with today trading in integrated mode', async () => {
      const calendar = await client.getKrMarketCalendar();
      expect(calendar.today.date).toBe('2026-11-23');
      expect(calendar.today.integrated?.regularMarket?.startTime.offset).toBe(KST_OFFSET);
      expect(calendar.previousBusinessDay.date < calendar.today.date).toBe(true);
    });
  });

  describe('.getUsMarketCalendar', () => {
    it('returns three days of US sessions in KST', async () => {
      const calendar = await client.getUsMarketCalendar('2026-11-23');
      expect(calendar.today.date).toBe('2026-11-23');
      expect(calendar.today.regularMarket?.startTime.offset).toBe(KST_OFFSET);
    });
  });

  describe('.getAccounts', () => {
    it('lists accounts with integer accountSeq', async () => {
      const accounts = await client.getAccounts();
      expect(accounts[0]!.accountSeq).toBe(1);
      expect(await client.accountSeq()).toBe(1);
    });
  });

  describe('.getHoldings', () => {
    it('returns items with decimals and per-currency totals', async () => {
      const holdings = await client.getHoldings();
      const samsung = holdings.items.find((i) => i.symbol === '005930')!;
      expect(samsung.quantity.eq(100)).toBe(true);
      expect(holdings.totalPurchaseAmount.krw.gt(0)).toBe(true);
    });
  });

  describe('.getBuyingPower', () => {
    it('returns cash buying power per currency', async () => {
      const krw = await client.getBuyingPower('KRW');
      expect(krw.currency).toBe('KRW');
      expect(krw.cashBuyingPower.gt(0)).toBe(true);
    });
  });

  describe('.getSellableQuantity', () => {
    it('returns the held quantity for 005930', async () => {
      const sellable = await client.getSellableQuantity('005930');
      expect(sellable.sellableQuantity.lte(100)).toBe(true);
    });
  });

  describe('.getCommissions', () => {
    it('returns a decimal-fraction rate per market', async () => {
      const commissions = await client.getCommissions();
      expect(commissions.map((c) => c.marketCountry).sort()).toEqual(['KR', 'US']);
      for (const c of commissions) expect(c.commissionRate.lt(0.01)).toBe(true);
    });
  });

  describe('.createOrder', () => {
    it('creates a limit order and answers the same order for the same clientOrderId', async () => {
      const book = await client.getOrderbook('000660');
      const clientOrderId = newClientOrderId('t');
      const request = {
        symbol: '000660',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: new Decimal(1),
        price: book.bids[book.bids.length - 1]!.price,
        clientOrderId,
      } as const;
      const first = await client.createOrder(request);
      const again = await client.createOrder(request);
      expect(again.orderId).toBe(first.orderId);
      expect(first.clientOrderId).toBe(clientOrderId);
      const detail = await client.getOrder(first.orderId);
      expect(detail.status).toBe(BrokerOrderStatus.PENDING);
      expect(detail.price!.eq(request.price)).toBe(true);
    });
  });

  describe('.modifyOrder', () => {
    it('replaces an open order by a new one and marks the original REPLACED', async () => {
      const book = await client.getOrderbook('035420');
      const low = book.bids[book.bids.length - 1]!.price;
      const created = await client.createOrder({
        symbol: '035420',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: new Decimal(2),
        price: low,
      });
      const outcome = await client.modifyOrder(created.orderId, {
        orderType: 'LIMIT',
        price: low,
        quantity: new Decimal(1),
      });
      expect(outcome.kind).toBe('acknowledged');
      if (outcome.kind !== 'acknowledged') return;
      expect(outcome.orderId).not.toBe(created.orderId);
      expect((await client.getOrder(created.orderId)).status).toBe(BrokerOrderStatus.REPLACED);
      expect((await client.getOrder(outcome.orderId)).quantity.eq(1)).toBe(true);
    });
  });

  describe('.cancelOrder', () => {
    it('cancels an open order, and a second cancel is a ConflictError already-canceled', async () => {
      const book = await client.getOrderbook('035720');
      const created = await client.createOrder({
        symbol: '035720',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: new Decimal(1),
        price: book.bids[book.bids.length - 1]!.price,
      });
      const outcome = await client.cancelOrder(created.orderId);
      expect(outcome.kind).toBe('acknowledged');
      expect((await client.getOrder(created.orderId)).status).toBe(BrokerOrderStatus.CANCELED);
      await expect(client.cancelOrder(created.orderId)).rejects.toMatchObject({
        status: 409,
        code: 'already-canceled',
      });
    });
  });

  describe('.listOrders', () => {
    it('lists OPEN orders and pages CLOSED ones', async () => {
      const open = await client.listOrders({ status: 'OPEN' });
      expect(open.orders.length).toBeGreaterThan(0);
      for (const order of open.orders) expect(order.orderedAt.offset).toBe(KST_OFFSET);
      const closed = await client.listOrders({ status: 'CLOSED', limit: 1 });
      expect(closed.orders.length).toBe(1);
    });
  });

  describe('.getOrder', () => {
    it('throws NotFoundError order-not-found for an unknown id', async () => {
      await expect(client.getOrder('does-not-exist')).rejects.toMatchObject({
        code: 'order-not-found',
        status: 404,
      });
    });
  });
});

describe('candlePages', () => {
  it('reads 1m candles across pages down to `from`, each once, newest first', async () => {
    const to = '2026-11-23T10:00:00.000+09:00';
    const from = '2026-11-20T14:00:00.000+09:00';
    const seen: number[] = [];
    for await (const candle of candlePages(client, '005930', { interval: '1m', from, to, pageSize: 200 })) {
      seen.push(candle.timestamp.toMillis());
    }
    expect(seen.length).toBeGreaterThan(200);
    expect(new Set(seen).size).toBe(seen.length);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeLessThan(seen[i - 1]!);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(Date.parse(from));
    expect(Math.max(...seen)).toBeLessThan(Date.parse(to));
  });
});

describe('closedOrders', () => {
  it('follows the cursor through every CLOSED order', async () => {
    const all: string[] = [];
    for await (const order of closedOrders(client, { limit: 1 })) all.push(order.orderId);
    const direct = await client.listOrders({ status: 'CLOSED', limit: 100 });
    expect(all.sort()).toEqual(direct.orders.map((o) => o.orderId).sort());
    expect(all.length).toBeGreaterThanOrEqual(2);
  });
});

describe('BrokerClient with a configured account header', () => {
  it('sends accountSeq under the configured name, which a broker expecting it accepts', async () => {
    const header = 'X-Other-Account';
    const other = await startFixture(
      { rateLimit: false, accountHeader: header },
      { config: { accountHeader: header, accountSeq: 2 } },
    );
    try {
      expect((await other.client.getBuyingPower('KRW')).cashBuyingPower.toFixed()).toBe('100000');
      const spec = await startFixture(
        { rateLimit: false, accountHeader: header },
        { config: { accountSeq: 2 } },
      );
      try {
        await expect(spec.client.getBuyingPower('KRW')).rejects.toMatchObject({
          status: 400,
          code: 'account-header-required',
        });
      } finally {
        await spec.close();
      }
    } finally {
      await other.close();
    }
  });
});

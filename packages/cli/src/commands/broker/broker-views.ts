/**
 * What each broker command prints: a readable table, or JSON with `--json`.
 *
 * @module
 */
import {
  type BrokerClient,
  type Candle,
  type CandleInterval,
  candlePages,
  closedOrders,
  type KrMarketCalendarResult,
  type MarketSession,
  type OrderRecord,
  type UsMarketCalendarResult,
} from '@hoga/connector';
import type { Decimal } from '@hoga/core';
import { type Cell, renderTable, toJson } from '../../output/table.js';

type Render = (json: boolean) => string;

const time = (dt: { toFormat(f: string): string } | null | undefined) =>
  dt?.toFormat('yyyy-MM-dd HH:mm:ss ZZ') ?? '-';

function percent(rate: Decimal): string {
  return `${rate.times(100).toFixed(2)}%`;
}

/** `hoga quote`: last prices. */
export async function quoteView(client: BrokerClient, symbols: readonly string[]): Promise<Render> {
  const prices = await client.getPrices(symbols);
  return (json) =>
    json
      ? toJson(prices)
      : renderTable(
          ['symbol', 'last', 'currency', 'time'],
          prices.map((p) => [p.symbol, p.lastPrice, p.currency, time(p.timestamp)]),
        );
}

/** `hoga orderbook`: the best `depth` levels a side, asks above bids. */
export async function orderbookView(client: BrokerClient, symbol: string, depth: number): Promise<Render> {
  const book = await client.getOrderbook(symbol);
  return (json) => {
    if (json) return toJson(book);
    const asks = book.asks.slice(0, depth).reverse();
    const bids = book.bids.slice(0, depth);
    const rows: Cell[][] = [
      ...asks.map((l): Cell[] => ['ask', l.price, l.volume]),
      ...bids.map((l): Cell[] => ['bid', l.price, l.volume]),
    ];
    return `${symbol} ${book.currency} at ${time(book.timestamp)}\n${renderTable(['side', 'price', 'volume'], rows)}`;
  };
}

/** `hoga candles`: candles oldest first. */
export async function candlesView(
  client: BrokerClient,
  symbol: string,
  options: { interval: CandleInterval; count?: number; from?: string; to?: string },
): Promise<Render> {
  const candles: Candle[] = [];
  const limit = options.count ?? (options.from === undefined ? 20 : undefined);
  const range = {
    interval: options.interval,
    ...(limit === undefined ? {} : { limit }),
    pageSize: Math.min(200, limit ?? 200),
    ...(options.from === undefined ? {} : { from: options.from }),
    ...(options.to === undefined ? {} : { to: options.to }),
  };
  for await (const candle of candlePages(client, symbol, range)) candles.push(candle);
  candles.reverse();
  return (json) =>
    json
      ? toJson(candles)
      : renderTable(
          ['time', 'open', 'high', 'low', 'close', 'volume'],
          candles.map((c) => [
            time(c.timestamp),
            c.openPrice,
            c.highPrice,
            c.lowPrice,
            c.closePrice,
            c.volume,
          ]),
        );
}

/** `hoga stock`: reference data. */
export async function stockView(client: BrokerClient, symbols: readonly string[]): Promise<Render> {
  const stocks = await client.getStocks(symbols);
  return (json) =>
    json
      ? toJson(stocks)
      : renderTable(
          ['symbol', 'name', 'market', 'type', 'status', 'currency', 'listed', 'suspended'],
          stocks.map((s) => [
            s.symbol,
            s.name,
            s.market,
            s.securityType,
            s.status,
            s.currency,
            s.listDate,
            s.koreanMarketDetail === null ? '-' : String(s.koreanMarketDetail.krxTradingSuspended),
          ]),
        );
}

/** `hoga fx`: the USD/KRW display rate. */
export async function fxView(client: BrokerClient): Promise<Render> {
  const rate = await client.getExchangeRate();
  return (json) =>
    json
      ? toJson(rate)
      : renderTable(
          ['pair', 'rate', 'mid', 'change (bp)', 'direction', 'valid from', 'valid until'],
          [
            [
              `${rate.baseCurrency}/${rate.quoteCurrency}`,
              rate.rate,
              rate.midRate,
              rate.basisPoint,
              rate.rateChangeType,
              time(rate.validFrom),
              time(rate.validUntil),
            ],
          ],
        );
}

function session(s: MarketSession | null | undefined): string {
  return s ? `${s.startTime.toFormat('MM-dd HH:mm')}–${s.endTime.toFormat('MM-dd HH:mm')}` : 'closed';
}

/** `hoga calendar`: the three business days around a date. */
export async function calendarView(
  client: BrokerClient,
  market: 'KR' | 'US',
  date?: string,
): Promise<Render> {
  const days = ['previousBusinessDay', 'today', 'nextBusinessDay'] as const;
  if (market === 'KR') {
    const calendar: KrMarketCalendarResult = await client.getKrMarketCalendar(date);
    return (json) =>
      json
        ? toJson(calendar)
        : renderTable(
            ['day', 'date', 'pre-market', 'regular', 'after-market'],
            days.map((key) => {
              const day = calendar[key];
              const hours = day.integrated;
              return [
                key,
                day.date,
                session(hours?.preMarket),
                session(hours?.regularMarket),
                session(hours?.afterMarket),
              ];
            }),
          );
  }
  const calendar: UsMarketCalendarResult = await client.getUsMarketCalendar(date);
  return (json) =>
    json
      ? toJson(calendar)
      : renderTable(
          ['day', 'date', 'day market', 'pre-market', 'regular', 'after-market'],
          days.map((key) => {
            const day = calendar[key];
            return [
              key,
              day.date,
              session(day.dayMarket),
              session(day.preMarket),
              session(day.regularMarket),
              session(day.afterMarket),
            ];
          }),
        );
}

/** `hoga accounts`. */
export async function accountsView(client: BrokerClient): Promise<Render> {
  const accounts = await client.getAccounts();
  return (json) =>
    json
      ? toJson(accounts)
      : renderTable(
          ['accountSeq', 'account no', 'type'],
          accounts.map((a) => [a.accountSeq, a.accountNo, a.accountType]),
        );
}

/** `hoga holdings`: items and the summary. */
export async function holdingsView(client: BrokerClient): Promise<Render> {
  const holdings = await client.getHoldings();
  return (json) => {
    if (json) return toJson(holdings);
    const table = renderTable(
      ['symbol', 'name', 'qty', 'avg price', 'last', 'value', 'P/L', 'P/L %', 'ccy'],
      holdings.items.map((i) => [
        i.symbol,
        i.name,
        i.quantity,
        i.averagePurchasePrice,
        i.lastPrice,
        i.marketValue.amount,
        i.profitLoss.amount,
        percent(i.profitLoss.rate),
        i.currency,
      ]),
    );
    const v = holdings.marketValue.amount;
    const usd = v.usd === null ? '' : ` + ${v.usd.toFixed()} USD`;
    return `${table}\n\nmarket value ${v.krw.toFixed()} KRW${usd}; P/L ${percent(holdings.profitLoss.rate)} (KRW basis)`;
  };
}

function orderRows(orders: readonly OrderRecord[]): Cell[][] {
  return orders.map((o) => [
    o.orderId.length > 12 ? `${o.orderId.slice(0, 12)}…` : o.orderId,
    o.symbol,
    o.side,
    o.orderType,
    o.status,
    o.price,
    o.quantity,
    o.execution.filledQuantity,
    o.execution.averageFilledPrice,
    time(o.orderedAt),
  ]);
}

/** `hoga orders`: OPEN orders, or the newest CLOSED ones up to `limit`. */
export async function ordersView(
  client: BrokerClient,
  status: 'OPEN' | 'CLOSED',
  limit: number,
): Promise<Render> {
  let orders: OrderRecord[] = [];
  if (status === 'OPEN') {
    orders = [...(await client.listOrders({ status: 'OPEN' })).orders];
  } else {
    for await (const order of closedOrders(client, { limit: Math.min(100, limit) })) {
      orders.push(order);
      if (orders.length >= limit) break;
    }
  }
  return (json) =>
    json
      ? toJson(orders)
      : orders.length === 0
        ? `no ${status} orders`
        : renderTable(
            ['order', 'symbol', 'side', 'type', 'status', 'price', 'qty', 'filled', 'avg fill', 'ordered'],
            orderRows(orders),
          );
}

/** `hoga buying-power`: cash buying power in KRW and USD. */
export async function buyingPowerView(client: BrokerClient): Promise<Render> {
  const krw = await client.getBuyingPower('KRW');
  const usd = await client.getBuyingPower('USD');
  return (json) =>
    json
      ? toJson([krw, usd])
      : renderTable(
          ['currency', 'cash buying power'],
          [
            [krw.currency, krw.cashBuyingPower],
            [usd.currency, usd.cashBuyingPower],
          ],
        );
}

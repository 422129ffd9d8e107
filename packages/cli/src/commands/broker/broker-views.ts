/**
 * What each broker command prints: a table by default, `--csv` or `--json`.
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
import { type Decimal, NEW_YORK_ZONE } from '@hoga/core';
import type { DateTime } from 'luxon';
import type { Tabular } from '../../output/emit.js';
import { type Cell, formatMoney, type MoneyCell, type SignedCell } from '../../output/table.js';
import { CliError, ExitCode } from '../../runtime/exit-codes.js';

const time = (dt: { toFormat(f: string): string } | null | undefined) =>
  dt?.toFormat('yyyy-MM-dd HH:mm:ss ZZ') ?? '-';

const money = (amount: Decimal | null | undefined, currency: string, signed = false): MoneyCell | null =>
  amount === null || amount === undefined ? null : { money: amount, currency, signed };

function percent(rate: Decimal): SignedCell {
  const value = rate.times(100);
  return {
    signed: `${value.isPositive() && !value.isZero() ? '+' : ''}${value.toFixed(2)}%`,
    sign: value.isZero() ? 0 : value.isNegative() ? -1 : 1,
  };
}

/** `hoga quote`: last prices. */
export async function quoteView(client: BrokerClient, symbols: readonly string[]): Promise<Tabular<unknown>> {
  const prices = await client.getPrices(symbols);
  return {
    headers: ['symbol', 'last', 'currency', 'time'],
    records: prices,
    row: (p) => {
      const price = p as (typeof prices)[number];
      return [price.symbol, money(price.lastPrice, price.currency), price.currency, time(price.timestamp)];
    },
  };
}

/** `hoga orderbook`: the best `depth` levels a side, asks above bids. */
export async function orderbookView(
  client: BrokerClient,
  symbol: string,
  depth: number,
): Promise<Tabular<{ side: string; price: Decimal; volume: Decimal }>> {
  const book = await client.getOrderbook(symbol);
  const asks = book.asks.slice(0, depth);
  const bids = book.bids.slice(0, depth);
  const levels = [
    ...[...asks].reverse().map((l) => ({ side: 'ask', price: l.price, volume: l.volume })),
    ...bids.map((l) => ({ side: 'bid', price: l.price, volume: l.volume })),
  ];
  return {
    title: `${symbol} ${book.currency} at ${time(book.timestamp)}`,
    headers: ['side', 'price', 'volume'],
    records: levels,
    row: (l) => [l.side, money(l.price, book.currency), l.volume],
    jsonWhole: { ...book, symbol, depth, asks, bids },
  };
}

/** Where `hoga candles` reports its progress (a terminal line on stderr). */
export type CandleProgress = (fetched: number, reached: DateTime | null) => void;

/** `hoga candles`: candles oldest first. */
export async function candlesView(
  client: BrokerClient,
  symbol: string,
  options: { interval: CandleInterval; count?: number; from?: DateTime; to?: DateTime },
  progress?: CandleProgress,
): Promise<Tabular<Candle>> {
  const candles: Candle[] = [];
  const limit = options.count ?? (options.from === undefined ? 20 : undefined);
  const range = {
    interval: options.interval,
    ...(limit === undefined ? {} : { limit }),
    pageSize: Math.min(200, limit ?? 200),
    ...(options.from === undefined ? {} : { from: options.from }),
    ...(options.to === undefined ? {} : { to: options.to }),
  };
  for await (const candle of candlePages(client, symbol, range)) {
    candles.push(candle);
    if (progress !== undefined && candles.length % 200 === 0) progress(candles.length, candle.timestamp);
  }
  progress?.(candles.length, null);
  candles.reverse();
  return {
    headers: ['time', 'open', 'high', 'low', 'close', 'volume'],
    records: candles,
    row: (c) => {
      const ccy = /^\d/.test(symbol) ? 'KRW' : 'USD';
      return [
        time(c.timestamp),
        money(c.openPrice, ccy),
        money(c.highPrice, ccy),
        money(c.lowPrice, ccy),
        money(c.closePrice, ccy),
        c.volume,
      ];
    },
    empty: `no ${options.interval} candles of ${symbol} in that range`,
  };
}

/** `hoga stock`: reference data; an unknown symbol is an error (exit 1). */
export async function stockView(client: BrokerClient, symbols: readonly string[]): Promise<Tabular<unknown>> {
  const stocks = await client.getStocks(symbols);
  const known = new Set(stocks.map((s) => s.symbol));
  const unknown = symbols.filter((s) => !known.has(s));
  if (unknown.length > 0) {
    throw new CliError(
      `unknown symbol${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: the broker has no such stock (check the code, e.g. 005930 or AAPL)`,
      ExitCode.FAILURE,
    );
  }
  return {
    headers: ['symbol', 'name', 'market', 'type', 'status', 'currency', 'listed', 'suspended'],
    records: stocks,
    row: (x) => {
      const s = x as (typeof stocks)[number];
      return [
        s.symbol,
        s.name,
        s.market,
        s.securityType,
        s.status,
        s.currency,
        s.listDate,
        s.koreanMarketDetail === null ? '-' : String(s.koreanMarketDetail.krxTradingSuspended),
      ];
    },
  };
}

/** `hoga fx`: the USD/KRW display rate. */
export async function fxView(client: BrokerClient): Promise<Tabular<unknown>> {
  const rate = await client.getExchangeRate();
  return {
    headers: ['pair', 'rate', 'mid', 'change (bp)', 'direction', 'valid from', 'valid until'],
    records: [rate],
    row: () => [
      `${rate.baseCurrency}/${rate.quoteCurrency}`,
      rate.rate,
      rate.midRate,
      rate.basisPoint,
      rate.rateChangeType,
      time(rate.validFrom),
      time(rate.validUntil),
    ],
    jsonWhole: rate,
  };
}

/** A session's hours, in KST or (`zone`) another time zone; `closed` for none. */
function session(s: MarketSession | null | undefined, zone?: string): string {
  if (!s) return 'closed';
  const at = (t: DateTime) => (zone === undefined ? t : t.setZone(zone)).toFormat('MM-dd HH:mm');
  return `${at(s.startTime)}–${at(s.endTime)}`;
}

const DAYS = ['previousBusinessDay', 'today', 'nextBusinessDay'] as const;

/** `hoga calendar`: the three business days around a date. */
export async function calendarView(
  client: BrokerClient,
  market: 'KR' | 'US',
  date?: string,
): Promise<Tabular<unknown>> {
  if (market === 'KR') {
    const calendar: KrMarketCalendarResult = await client.getKrMarketCalendar(date);
    return {
      headers: ['day', 'date', 'pre-market', 'regular', 'after-market'],
      records: DAYS,
      row: (key) => {
        const day = calendar[key as (typeof DAYS)[number]];
        const hours = day.integrated;
        return [
          key as string,
          day.date,
          session(hours?.preMarket),
          session(hours?.regularMarket),
          session(hours?.afterMarket),
        ];
      },
      jsonWhole: calendar,
    };
  }
  const calendar: UsMarketCalendarResult = await client.getUsMarketCalendar(date);
  return {
    // in New York time, where US hours are read (an early close shows as a regular session to 13:00)
    headers: ['day', 'date', 'day market (NY)', 'pre-market (NY)', 'regular (NY)', 'after-market (NY)'],
    records: DAYS,
    row: (key) => {
      const day = calendar[key as (typeof DAYS)[number]];
      return [
        key as string,
        day.date,
        session(day.dayMarket, NEW_YORK_ZONE),
        session(day.preMarket, NEW_YORK_ZONE),
        session(day.regularMarket, NEW_YORK_ZONE),
        session(day.afterMarket, NEW_YORK_ZONE),
      ];
    },
    jsonWhole: calendar,
  };
}

/** `hoga accounts`. */
export async function accountsView(client: BrokerClient): Promise<Tabular<unknown>> {
  const accounts = await client.getAccounts();
  return {
    headers: ['accountSeq', 'account no', 'type'],
    records: accounts,
    row: (x) => {
      const a = x as (typeof accounts)[number];
      return [a.accountSeq, a.accountNo, a.accountType];
    },
  };
}

/** `hoga holdings`: items and the summary. */
export async function holdingsView(client: BrokerClient): Promise<Tabular<unknown>> {
  const holdings = await client.getHoldings();
  const v = holdings.marketValue.amount;
  const usd = v.usd === null ? '' : ` + ${formatMoney(v.usd, 'USD')}`;
  return {
    headers: ['symbol', 'name', 'qty', 'avg price', 'last', 'value', 'P/L', 'P/L %', 'ccy'],
    records: holdings.items,
    row: (x) => {
      const i = x as (typeof holdings.items)[number];
      return [
        i.symbol,
        i.name,
        i.quantity,
        money(i.averagePurchasePrice, i.currency),
        money(i.lastPrice, i.currency),
        money(i.marketValue.amount, i.currency),
        money(i.profitLoss.amount, i.currency, true),
        percent(i.profitLoss.rate),
        i.currency,
      ];
    },
    jsonWhole: holdings,
    footer: `market value ${formatMoney(v.krw, 'KRW')} KRW${usd}; P/L ${percent(holdings.profitLoss.rate).signed} (KRW basis)`,
  };
}

function orderRow(o: OrderRecord): Cell[] {
  return [
    o.orderId.length > 12 ? `${o.orderId.slice(0, 12)}…` : o.orderId,
    o.symbol,
    o.side,
    o.orderType,
    o.status,
    money(o.price, o.currency),
    o.quantity,
    o.execution.filledQuantity,
    money(o.execution.averageFilledPrice, o.currency),
    time(o.orderedAt),
  ];
}

/** `hoga orders`: OPEN orders, or the newest CLOSED ones up to `limit`. */
export async function ordersView(
  client: BrokerClient,
  status: 'OPEN' | 'CLOSED',
  limit: number,
): Promise<Tabular<OrderRecord>> {
  let orders: OrderRecord[] = [];
  if (status === 'OPEN') {
    orders = [...(await client.listOrders({ status: 'OPEN' })).orders];
  } else {
    for await (const order of closedOrders(client, { limit: Math.min(100, limit) })) {
      orders.push(order);
      if (orders.length >= limit) break;
    }
  }
  return {
    headers: ['order', 'symbol', 'side', 'type', 'status', 'price', 'qty', 'filled', 'avg fill', 'ordered'],
    records: orders,
    row: orderRow,
    empty: `no ${status} orders`,
  };
}

/** `hoga buying-power`: cash buying power in KRW and USD. */
export async function buyingPowerView(client: BrokerClient): Promise<Tabular<unknown>> {
  const krw = await client.getBuyingPower('KRW');
  const usd = await client.getBuyingPower('USD');
  return {
    headers: ['currency', 'cash buying power'],
    records: [krw, usd],
    row: (x) => {
      const b = x as typeof krw;
      return [b.currency, money(b.cashBuyingPower, b.currency)];
    },
  };
}

/**
 * A 1-minute KR backtest over the simulator's own candles (downloaded over HTTP into a real SQLite
 * cache) judges limit prices by the same daily price limits as the simulator's broker: ±30 % of the
 * previous day's regular close (its closing auction, the trade in the 15:31 candle), not of the
 * day's last candle (20:00, after the NXT after-market) nor of the 15:30 candle (its last trade is
 * the continuous session's, before the closing auction); after a day of special hours, of that
 * day's close (the CSAT day's 16:30 auction, in the 16:31 candle). The same orders, at and one tick
 * past each limit, are sent to the simulator's order endpoint, and the answers must agree.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerApiError, BrokerClient, MemoryTokenCache } from '@hoga/connector';
import {
  type Bar,
  type ClientOrderId,
  createLogger,
  Decimal,
  type OrderEvent,
  VirtualClock,
} from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { CandleBarReader, HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { BarFeed } from '../market-data/bar-feed.js';
import { CandleDownloader, downloadTargets } from '../market-data/candle-downloader.js';
import { FixedFxRates } from '../portfolio/fx-rates.js';
import { Strategy } from '../strategy/strategy.js';
import { runBacktest } from './run-backtest.js';

/** The owner's limits out of the way: the test is about the broker's rules. */
const WIDE = {
  defaults: {
    maxOrderValueKrw: '100000000000000',
    maxPositionValuePerSymbolKrw: '100000000000000',
    maxTotalPositionValueKrw: '100000000000000',
  },
};
const KST_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;

let sim: SimulatorHandle | undefined;
let client: BrokerClient | undefined;
let dir: string | undefined;
let db: HogaDatabase | undefined;

/**
 * The simulator (seed 7) frozen at `now` (an order day, 10:00 KST), a client for it, and the 1m
 * candles of `symbols` from the day before to `now`, downloaded into a SQLite file.
 */
async function setUp(now: string, symbols: readonly string[]): Promise<void> {
  sim = await startSimulator({ port: 0, seed: 7, start: now, speed: 0, control: true, rateLimit: false });
  client = new BrokerClient({
    clock: new VirtualClock(Date.parse(now)),
    tokenCache: new MemoryTokenCache(),
    config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
  });
  dir = mkdtempSync(join(tmpdir(), 'hoga-bt-limits-'));
  db = HogaDatabase.open(join(dir, 'hoga.sqlite'));
  const day = now.slice(0, 10);
  await new CandleDownloader({ client, cache: db.candles, clock: new VirtualClock(Date.parse(now)) }).ensure(
    '1m',
    downloadTargets(symbols, '1m', dayBefore(day), day),
  );
}
afterEach(async () => {
  client?.close();
  db?.close();
  await sim?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  sim = client = db = dir = undefined;
});

/** The weekday before `day` (`YYYY-MM-DD`; the days used here follow a trading weekday). */
function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

/** The broker's limits of `symbol` today: `[lower, upper]`. */
async function brokerLimits(symbol: string): Promise<string[]> {
  const limits = await (client as BrokerClient).getPriceLimits(symbol);
  return [limits.lowerLimitPrice?.toFixed() ?? '', limits.upperLimitPrice?.toFixed() ?? ''];
}

/** The closes of `symbol`'s 1m candles of `day` stamped at `times` (`HH:mm` KST), from the cache. */
function closes(symbol: string, day: string, times: readonly string[]): (string | undefined)[] {
  const start = Date.parse(`${day}T00:00:00+09:00`);
  const candles = (db as HogaDatabase).candles.get(
    { symbol, interval: '1m', adjusted: true },
    { start, end: start + DAY_MS },
  );
  const at = (hhmm: string) =>
    candles.find((c) => new Date(c.ts + KST_MS).toISOString().slice(11, 16) === hhmm)?.close.toFixed();
  return times.map(at);
}

/** One limit buy of 1 share. */
interface Probe {
  readonly symbol: string;
  readonly price: number;
}

/** The simulator's answer to a limit buy of 1 at `price`: `accepted` or the refusal's code. */
async function brokerAnswer({ symbol, price }: Probe): Promise<string> {
  try {
    await (client as BrokerClient).createOrder({
      symbol,
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: new Decimal(1),
      price: new Decimal(price),
    });
    return 'accepted';
  } catch (error) {
    if (error instanceof BrokerApiError) return error.code;
    throw error;
  }
}

/** The backtest's answer to each probe, placed on the order day's first regular-session bar. */
async function backtestAnswers(now: string, probes: readonly Probe[]): Promise<string[]> {
  const orderDay = now.slice(0, 10);
  const from = Date.parse(`${dayBefore(orderDay)}T00:00:00+09:00`);
  const answers = new Map<ClientOrderId, string>();
  const ids: ClientOrderId[] = [];
  class Probing extends Strategy {
    private done = false;
    override onBar(bar: Bar): void {
      const kst = new Date(bar.closeTime + KST_MS).toISOString();
      if (this.done || kst.slice(0, 10) !== orderDay || kst.slice(11, 16) < '09:01') return;
      this.done = true;
      for (const p of probes) ids.push(this.ctx.buy(p.symbol, 1, p.price));
    }
    override onOrderEvent(event: OrderEvent): void {
      if (event.type === 'OrderDenied' || event.type === 'OrderRejected')
        answers.set(event.clientOrderId, event.code ?? event.type);
      if (event.type === 'OrderAccepted') answers.set(event.clientOrderId, 'accepted');
    }
  }
  const symbols = [...new Set(probes.map((p) => p.symbol))].sort();
  const outcome = await runBacktest({
    settings: {
      runId: 'limits',
      mode: 'backtest',
      symbols,
      interval: '1m',
      cash: { KRW: new Decimal(100_000_000), USD: new Decimal(0) },
    },
    strategies: [{ strategyClass: Probing }],
    startMs: from,
    db: db as HogaDatabase,
    logger: createLogger({ level: 'silent' }),
    fx: new FixedFxRates(1400),
    risk: WIDE,
    openStream: async () =>
      BarFeed.fromStore(new CandleBarReader((db as HogaDatabase).connection), {
        symbols,
        interval: '1m',
        fromTs: from,
        toTs: Date.parse(now) + 1,
      }).stream(),
  });
  expect(outcome.status).toBe('completed');
  return ids.map((id) => answers.get(id) ?? 'no answer');
}

/** Orders at and one tick past each limit: the first of each pair taken, the second refused. */
const AT_AND_PAST = ['accepted', 'price-out-of-range', 'accepted', 'price-out-of-range'];

describe('a 1-minute KR backtest’s price limits', () => {
  it('are the broker’s: ±30 % of the previous regular close, not of the day’s last candle', async () => {
    const now = '2026-11-25T10:00:00.000+09:00';
    await setUp(now, ['005930', '000660']);
    expect(await brokerLimits('005930')).toEqual(['47000', '87200']);
    expect(await brokerLimits('000660')).toEqual(['115100', '213500']);
    // 005930: the closing auction's trade (the 15:31 candle) 67,100 (the limits); the 15:30 and
    // 20:00 candles 67,000 (46,900 to 87,100). 000660: 164,300; 15:30 165,000 (115,500 to 214,500),
    // 20:00 164,200 (115,000 to 213,000).
    const times = ['15:30', '15:31', '20:00'];
    expect(closes('005930', '2026-11-24', times)).toEqual(['67000', '67100', '67000']);
    expect(closes('000660', '2026-11-24', times)).toEqual(['165000', '164300', '164200']);

    const probes: Probe[] = [
      { symbol: '005930', price: 87_200 },
      { symbol: '005930', price: 87_300 },
      { symbol: '005930', price: 47_000 },
      { symbol: '005930', price: 46_900 },
      { symbol: '000660', price: 213_500 },
      { symbol: '000660', price: 214_000 },
      { symbol: '000660', price: 115_100 },
      { symbol: '000660', price: 115_000 },
    ];
    const broker: string[] = [];
    for (const p of probes) broker.push(await brokerAnswer(p));
    expect(broker).toEqual([...AT_AND_PAST, ...AT_AND_PAST]);
    expect(await backtestAnswers(now, probes)).toEqual(broker);
  });

  it('after a day of special hours (the CSAT day closes at 16:30) are ±30 % of that day’s close', async () => {
    const now = '2026-11-20T10:00:00.000+09:00';
    await setUp(now, ['005930']);
    expect(await brokerLimits('005930')).toEqual(['46850', '86900']);
    // the 16:31 candle (the closing auction) 66,900; 15:31 67,500 (47,250 to 87,700); 20:00 66,800
    // (46,800 to 86,800)
    expect(closes('005930', '2026-11-19', ['15:31', '16:31', '20:00'])).toEqual(['67500', '66900', '66800']);

    const probes: Probe[] = [
      { symbol: '005930', price: 86_900 },
      { symbol: '005930', price: 87_000 },
      { symbol: '005930', price: 46_850 },
      { symbol: '005930', price: 46_800 },
    ];
    const broker: string[] = [];
    for (const p of probes) broker.push(await brokerAnswer(p));
    expect(broker).toEqual(AT_AND_PAST);
    expect(await backtestAnswers(now, probes)).toEqual(broker);
  });
});

/**
 * What a quant reads of a minute backtest, recomputed independently: the reference strategy on
 * 005930 and AAPL, 1m bars from 2025-03-06 to 2025-03-11 (New York changes to daylight saving time
 * on the 9th), USD at a fixed 1,400. Every point of the stored equity curve is worked out again
 * from the cached candles and the stored trades (cash after the fills up to it, positions at their
 * last closes), its times from the candles' trading dates; the statistics from that curve and
 * from the trades (round trips net of charges, per symbol); then `hoga backtest --json`,
 * `hoga db runs --id` (report and `--json`) and `hoga db runs --csv` are held to those numbers.
 * The real `hoga` in child processes, a real SQLite file, the embedded simulator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { SMA } from './backtest-runs.test-helper.js';

const RATE = 1_400;
const START = 100_000_000 + 100_000 * RATE;

interface Trade {
  time: number;
  symbol: string;
  side: 'BUY' | 'SELL';
  quantity: string;
  price: string;
  currency: string;
  commission: string;
  tax: string;
}
interface Candle {
  symbol: string;
  ts: number;
  close: string;
}

let dir: string;
let home: string;
let file: string;
let printed: BacktestJson;
let trades: Trade[];
let equity: { time: number; equity: number }[];
let candles: Candle[];
let stored: Record<string, unknown>;

const run = (args: string[]) => hoga(args, { cwd: dir, env: { HOME: home } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-outputs-recomputed-'));
  home = tempHome();
  file = join(dir, 'runs.sqlite');
  const bt = await run([
    'backtest',
    SMA,
    ...`--symbols 005930,AAPL --interval 1m --from 2025-03-06 --to 2025-03-11 --usd-krw ${RATE} --db ${file} --json`.split(
      ' ',
    ),
  ]);
  expect(bt.code, bt.err).toBe(0);
  printed = JSON.parse(bt.out) as BacktestJson;
  const db = HogaDatabase.open(file, { migrate: false, readonly: true });
  try {
    const c = db.connection;
    trades = c
      .prepare(
        'SELECT time, symbol, side, quantity, price, currency, commission, tax FROM run_trades WHERE run_id = ? ORDER BY seq',
      )
      .all(printed.runId) as Trade[];
    equity = c
      .prepare('SELECT time, equity FROM run_equity WHERE run_id = ? ORDER BY seq')
      .all(printed.runId) as { time: number; equity: number }[];
    candles = c
      .prepare("SELECT symbol, ts, close FROM candles WHERE interval = '1m' ORDER BY ts")
      .all() as Candle[];
    stored = JSON.parse(
      c.prepare('SELECT stats FROM runs WHERE run_id = ?').pluck().get(printed.runId) as string,
    );
  } finally {
    db.close();
  }
}, 180_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** A candle's trading date: KR its KST date; US its New York date, the day market from 20:00 the evening before. */
function tradingDate(c: Candle): string {
  return c.symbol === 'AAPL'
    ? (DateTime.fromMillis(c.ts + 4 * 3_600_000, { zone: 'America/New_York' }).toISODate() as string)
    : (DateTime.fromMillis(c.ts, { zone: 'Asia/Seoul' }).toISODate() as string);
}

/** The account at `t`: the fills up to it, positions at their last closes, USD at the rate, KRW. */
function equityAt(t: number): number {
  const cash: Record<string, Decimal> = { KRW: new Decimal(100_000_000), USD: new Decimal(100_000) };
  const held: Record<string, Decimal> = {};
  for (const f of trades.filter((x) => x.time <= t)) {
    const amount = new Decimal(f.quantity).times(f.price);
    const sign = f.side === 'BUY' ? -1 : 1;
    cash[f.currency] = (cash[f.currency] as Decimal)
      .plus(amount.times(sign))
      .minus(f.commission)
      .minus(f.tax);
    held[f.symbol] = (held[f.symbol] ?? new Decimal(0)).minus(new Decimal(f.quantity).times(sign));
  }
  let krw = (cash.KRW as Decimal).plus((cash.USD as Decimal).times(RATE));
  for (const [symbol, quantity] of Object.entries(held)) {
    const last = candles.filter((c) => c.symbol === symbol && c.ts <= t).at(-1) as Candle;
    krw = krw.plus(quantity.times(last.close).times(symbol === 'AAPL' ? RATE : 1));
  }
  return krw.toNumber();
}

const kst = (ms: number) => DateTime.fromMillis(ms, { zone: 'Asia/Seoul' }).toFormat("yyyy-MM-dd'T'HH:mm");

describe('a minute backtest of 005930 and AAPL, its outputs against the stored rows', () => {
  it('stores one equity point per trading day at its last bar, each the account recomputed from candles and trades', () => {
    const lastOfDay = new Map<string, number>();
    for (const c of candles)
      lastOfDay.set(tradingDate(c), Math.max(lastOfDay.get(tradingDate(c)) ?? 0, c.ts));
    const days = [...lastOfDay.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, t]) => t);
    expect(equity.map((p) => kst(p.time))).toEqual(['2025-03-06T00:00', ...days.map(kst)]);
    // the days' ends as the simulator's sessions put them (EST, then EDT from the 9th)
    expect(days.map(kst)).toEqual([
      '2025-03-07T07:59',
      '2025-03-08T08:00',
      '2025-03-11T07:00',
      '2025-03-12T07:00',
    ]);
    expect(equity[0]?.equity).toBe(START);
    for (const p of equity.slice(1)) expect(p.equity, kst(p.time)).toBeCloseTo(equityAt(p.time), 4);
  });

  it('prints the statistics the curve and the trades give', () => {
    const values = equity.map((p) => p.equity);
    const end = values.at(-1) as number;
    let peak = values[0] as number;
    let drawdown = 0;
    for (const v of values) {
      peak = Math.max(peak, v);
      drawdown = Math.max(drawdown, (peak - v) / peak);
    }
    const returns = values.slice(1).map((v, i) => v / (values[i] as number) - 1);
    const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
    const sd = Math.sqrt(returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1));
    const years = ((equity.at(-1)?.time as number) - (equity[0]?.time as number)) / (365.25 * 86_400_000);

    // round trips: per symbol, flat to flat, net of commissions and taxes
    const open = new Map<string, { position: Decimal; pnl: Decimal }>();
    let trips = 0;
    let wins = 0;
    const charges: Record<'commissions' | 'taxes', Record<string, Decimal>> = { commissions: {}, taxes: {} };
    for (const t of trades) {
      const sign = t.side === 'BUY' ? 1 : -1;
      const trip = open.get(t.symbol) ?? { position: new Decimal(0), pnl: new Decimal(0) };
      trip.position = trip.position.plus(new Decimal(t.quantity).times(sign));
      trip.pnl = trip.pnl
        .minus(new Decimal(t.quantity).times(t.price).times(sign))
        .minus(t.commission)
        .minus(t.tax);
      open.set(t.symbol, trip);
      if (trip.position.isZero()) {
        trips++;
        if (trip.pnl.isPositive() && !trip.pnl.isZero()) wins++;
        open.delete(t.symbol);
      }
      for (const [key, value] of [
        ['commissions', t.commission],
        ['taxes', t.tax],
      ] as const) {
        charges[key][t.currency] = (charges[key][t.currency] ?? new Decimal(0)).plus(value);
      }
    }
    const text = (r: Record<string, Decimal>) =>
      Object.fromEntries(Object.entries(r).map(([currency, v]) => [currency, v.toFixed()]));

    const s = printed.stats;
    expect(trades.length).toBeGreaterThan(50);
    expect(s.trades).toBe(trades.length);
    expect([s.roundTrips, s.wins]).toEqual([trips, wins]);
    expect(Number(s.winRate)).toBe(wins / trips);
    expect(s.commissions).toEqual(text(charges.commissions));
    expect(s.taxes).toEqual(text(charges.taxes));
    expect(s.startEquity).toBe(String(START));
    expect(s.endEquity).toBe(String(Math.round(equityAt(equity.at(-1)?.time as number))));
    expect(s.netProfit).toBe(String(Math.round(end) - START));
    expect(s.fxOnUsdCash).toBe('0');
    expect(Number(s.totalReturn)).toBeCloseTo(end / START - 1, 15);
    expect(Number(s.maxDrawdown)).toBeCloseTo(drawdown, 15);
    expect(Number(s.sharpe)).toBeCloseTo((mean / sd) * Math.sqrt(252), 9);
    expect(Number(s.cagr)).toBeCloseTo((end / START) ** (1 / years) - 1, 12);
    // the bars: every cached minute of both symbols in the range
    expect(s.bars).toBe(candles.length);
    // what --json printed is what is stored: trades and curve row for row
    expect(
      printed.trades.map((t) => [
        Date.parse(t.time),
        t.symbol,
        t.side,
        t.quantity,
        t.price,
        t.commission,
        t.tax,
      ]),
    ).toEqual(trades.map((t) => [t.time, t.symbol, t.side, t.quantity, t.price, t.commission, t.tax]));
    expect(printed.equity.map((p) => [Date.parse(p.time), p.equity])).toEqual(
      equity.map((p) => [p.time, String(Math.round(p.equity))]),
    );
    expect(stored).toMatchObject({
      totalReturn: end / START - 1,
      maxDrawdown: drawdown,
      trades: trades.length,
    });
  });

  it('hoga db runs reads the same back: --id --json, the report, and the list as CSV', async () => {
    const one = await run(['db', 'runs', '--db', file, '--id', printed.runId, '--json']);
    expect(one.code, one.err).toBe(0);
    const back = JSON.parse(one.out) as BacktestJson & { status: string };
    expect(back.status).toBe('completed');
    expect(back.trades).toEqual(printed.trades);
    expect(back.equity).toEqual(printed.equity);
    expect({ ...(back.stats as object), failure: undefined }).toEqual({
      ...printed.stats,
      failure: undefined,
    });

    const report = await run(['db', 'runs', '--db', file, '--id', printed.runId]);
    expect(report.code, report.err).toBe(0);
    const row = (label: string) => new RegExp(`^${label} +(.+)$`, 'm').exec(report.out)?.[1];
    const pct = (v: unknown) => `${(Number(v) * 100).toFixed(2)} %`;
    const s = printed.stats;
    expect(row('total return')).toBe(pct(s.totalReturn));
    expect(row('max drawdown')).toBe(pct(s.maxDrawdown));
    expect(row('win rate')).toBe(pct(s.winRate));
    expect(row('start equity')).toBe('240,000,000 KRW');
    expect(row('end equity')).toBe(`${Number(s.endEquity).toLocaleString('en-US')} KRW`);
    expect(row('trades \\(fills\\)')).toBe(String(trades.length));
    const usd = (s.commissions as Record<string, string>).USD as string;
    const krw = (s.commissions as Record<string, string>).KRW as string;
    expect(row('commissions')).toBe(
      `${Number(krw).toLocaleString('en-US')} KRW, $${new Decimal(usd).toFixed(2)}`,
    );

    const csv = await run(['db', 'runs', '--db', file, '--csv']);
    expect(csv.code, csv.err).toBe(0);
    const [header, line] = csv.out.trimEnd().split('\n');
    expect(header).toBe('started,run,kind,strategy,status,return,trades');
    expect(line?.split(',').slice(1)).toEqual([
      printed.runId,
      'backtest',
      'SmaCrossover',
      'completed',
      String(stored.totalReturn),
      String(trades.length),
    ]);
  }, 60_000);
});

/**
 * A backtest's accounting checked by hand: `hoga backtest --json` of a fixed plan of trades in a KR
 * and a US stock on the simulator's daily candles (seed 1, 2025-01-02 to 2025-01-20, USD at 1,400),
 * its fills, cash, equity curve and statistics worked out below from the candles and the broker's
 * rules (KR commission 0.015 % truncated to the won, KR sell tax 0.15 % truncated, US commission
 * 0.1 % half up to the cent), and the stored run (`hoga db runs --id`) against what it printed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga as hogaBin, jsonFailure, simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { cachedBars, hogaBacktest, ROOT } from './backtest-runs.test-helper.js';

const PLAN = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'trades-a-plan.ts');
const FROM = '2025-01-02';
const TO = '2025-01-20';

let sim: SimulatorHandle;
let dir: string;
let db: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-accounting-'));
  db = join(dir, 'hoga.sqlite');
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function backtest(
  extra: readonly string[],
  symbols = '005930,AAPL',
): Promise<BacktestJson & { readonly stderr: string }> {
  const run = await hogaBacktest([
    PLAN,
    ...['--symbols', symbols, '--interval', '1d', '--from', FROM, '--to', TO, '--usd-krw', '1400'],
    ...extra,
    '--json',
    ...simFlags(sim.url),
    '--db',
    db,
  ]);
  expect(run.code, run.stderr).toBe(0);
  return { ...(JSON.parse(run.stdout) as BacktestJson), stderr: run.stderr };
}

describe('hoga backtest, checked by hand', () => {
  it('books each fill with its charges, marks the positions at the last close and reports the statistics of that curve, as stored', async () => {
    const run = await backtest([]);
    // the candles' opens the market orders fill at (an order placed on a bar fills at the next one's open)
    const opens = (symbol: string) => cachedBars(db, symbol, FROM, TO).map((b) => b.open);
    expect(opens('005930').slice(1, 10)).toEqual([
      53600, 53600, 54200, 53600, 53800, 54500, 54800, 54100, 54100,
    ]);
    expect(opens('AAPL').slice(2, 9)).toEqual([169.91, 173.24, 179.4, 177.28, 178.34, 177.07, 182.52]);
    expect(run.trades.map((t) => [t.symbol, t.side, t.quantity, t.price, t.commission, t.tax])).toEqual([
      ['005930', 'BUY', '10', '53600', '80', '0'], // 536,000 × 0.015 % = 80.4 → 80
      ['AAPL', 'BUY', '4', '169.91', '0.68', '0'], // 679.64 × 0.1 % = 0.67964 → 0.68
      ['005930', 'BUY', '5', '54200', '40', '0'], // 271,000 → 40.65 → 40
      ['AAPL', 'SELL', '4', '179.4', '0.72', '0'], // 717.60 → 0.7176 → 0.72
      ['005930', 'SELL', '8', '53800', '64', '645'], // 430,400 → 64.56 → 64; tax 645.6 → 645
      ['AAPL', 'BUY', '2', '178.34', '0.36', '0'], // 356.68 → 0.35668 → 0.36
      ['005930', 'SELL', '7', '54800', '57', '575'], // 383,600 → 57.54 → 57; tax 575.4 → 575
      ['AAPL', 'SELL', '1', '182.52', '0.18', '0'], // 0.18252 → 0.18
      ['005930', 'BUY', '3', '54100', '24', '0'], // 162,300 → 24.345 → 24
    ]);
    // Cash at the end: KRW 100,000,000 − 536,080 − 271,040 + (430,400 − 709) + (383,600 − 632)
    // − 162,324 = 99,843,215; USD 100,000 − 680.32 + 716.88 − 357.04 + 182.34 = 99,861.86. Held: 3
    // 005930 (last close 53,200) and 1 AAPL (172.76): 99,843,215 + 159,600 = 100,002,815 KRW and
    // 99,861.86 + 172.76 = 100,034.62 USD × 1,400 = 140,048,468: 240,051,283 KRW.
    // Each day's point values the day's cash and positions at that day's closes the same way.
    expect(run.equity.map((p) => [p.time, p.equity])).toEqual([
      ['2025-01-02T00:00:00.000+09:00', '240000000'],
      ['2025-01-03T06:00:00.000+09:00', '240000000'],
      ['2025-01-04T06:00:00.000+09:00', '239994920'], // 10 × (53,100 − 53,600) − 80 = −5,080
      ['2025-01-07T06:00:00.000+09:00', '240014712'],
      ['2025-01-08T06:00:00.000+09:00', '240035756'],
      ['2025-01-09T06:00:00.000+09:00', '240043564'],
      ['2025-01-10T06:00:00.000+09:00', '240051755'],
      ['2025-01-11T06:00:00.000+09:00', '240050327'],
      ['2025-01-14T06:00:00.000+09:00', '240070499'], // the peak
      ['2025-01-15T06:00:00.000+09:00', '240061833'],
      ['2025-01-16T06:00:00.000+09:00', '240054463'],
      ['2025-01-17T06:00:00.000+09:00', '240055551'],
      ['2025-01-18T06:00:00.000+09:00', '240053225'],
      ['2025-01-21T06:00:00.000+09:00', '240051283'],
    ]);
    const s = run.stats;
    expect([s.startEquity, s.endEquity]).toEqual(['240000000', '240051283']);
    // what the run made, in KRW: the end's equity less the start's, the open positions at their
    // last closes (before: no such figure, a quant subtracted the two by hand)
    expect(s.netProfit).toBe('51283');
    // 240,051,283 / 240,000,000 − 1 = 51,283 / 240,000,000
    expect(Number(s.totalReturn)).toBeCloseTo(51_283 / 240_000_000, 15);
    // from the peak 240,070,499 to 240,051,283: 19,216 / 240,070,499
    expect(Number(s.maxDrawdown)).toBeCloseTo(19_216 / 240_070_499, 15);
    // (1 + r)^(1 / years) − 1, 19.25 days from 2025-01-02 00:00 to 2025-01-21 06:00 KST
    expect(Number(s.cagr)).toBeCloseTo((240_051_283 / 240_000_000) ** (365.25 / 19.25) - 1, 12);
    // mean / sample sd of the 13 daily returns × √252
    const values = run.equity.map((p) => Number(p.equity));
    const returns = values.slice(1).map((v, i) => v / (values[i] as number) - 1);
    const mean = returns.reduce((a, r) => a + r, 0) / 13;
    const sd = Math.sqrt(returns.reduce((a, r) => a + (r - mean) ** 2, 0) / 12);
    expect(Number(s.sharpe)).toBeCloseTo((mean / sd) * Math.sqrt(252), 9);
    // AAPL: 717.60 − 679.64 − 0.68 − 0.72 = 36.56; 005930: 430,400 + 383,600 − 536,000 − 271,000
    // − 80 − 40 − 64 − 645 − 57 − 575 = 5,539: two round trips, both won; the last buys stay open
    expect([s.trades, s.roundTrips, s.wins, s.winRate]).toEqual([9, 2, 2, '1']);
    expect([s.commissions, s.taxes]).toEqual([
      { KRW: '265', USD: '1.94' }, // 80 + 40 + 64 + 57 + 24; 0.68 + 0.72 + 0.36 + 0.18
      { KRW: '1220', USD: '0' }, // 645 + 575
    ]);

    // At a fill (stamped at its bar's close) the positions are worth their last closes, the filled
    // bar's included (before, the filled symbol's was the bar before's: +2,000 KRW at the first fill,
    // 10 × (53,800 − 53,600) at the 2025-01-02 close, while that day's point counted 53,100)
    expect(
      [...run.stderr.matchAll(/filled (\S+): unrealized (.+)$/gm)].map((m) => `${m[1]} ${m[2]}`),
    ).toEqual([
      '005930 -5000 KRW, 0 USD', // 10 × (53,100 − 53,600): its day's point, 239,994,920, counts the same
      'AAPL 6000 KRW, 6.96 USD', // 4 × (171.65 − 169.91); 005930 10 × (54,200 − 53,600)
      '005930 -4500 KRW, 6.96 USD', // 15 × (53,500 − 53,800), the average of 10 at 53,600 and 5 at 54,200
      'AAPL -7500 KRW, 0 USD', // flat; 005930 at the 2025-01-08 close: 15 × (53,300 − 53,800)
      '005930 1400 KRW, 0 USD', // 7 × (54,000 − 53,800)
      'AAPL 9800 KRW, -6.66 USD', // 2 × (175.01 − 178.34); 005930 7 × (55,200 − 53,800)
      '005930 0 KRW, -6.66 USD', // flat
      'AAPL 0 KRW, 0.01 USD', // 1 × (178.35 − 178.34)
      '005930 -1200 KRW, 0.01 USD', // 3 × (53,700 − 54,100)
    ]);

    const stored = await hogaBin(['db', 'runs', '--db', db, '--id', run.runId, '--json']);
    expect(stored.code, stored.err).toBe(0);
    const back = JSON.parse(stored.out) as BacktestJson;
    expect(back.stats).toEqual({ ...run.stats, failure: null });
    const report = await hogaBin(['db', 'runs', '--db', db, '--id', run.runId]);
    expect(report.out).toMatch(/^net profit +51,283 KRW$/m);
    expect(back.equity).toEqual(run.equity);
    // each with its currency in both (before, only the stored run's had it)
    expect(back.trades).toEqual(run.trades);
    // a backtest's fills are its run's trades, not broker fills: asked for as those, hoga says
    // where they are (before: an empty list, exit 0, for a run of 9 fills)
    const fills = await hogaBin(['db', 'fills', '--mode', 'backtest', '--db', db]);
    expect([fills.code, fills.out]).toEqual([2, '']);
    expect(fills.err).toContain('hoga db runs --id RUN --json');
    expect(fills.err).toContain('hoga db orders --mode backtest --run RUN --json');
  });

  it('gives no return for an account that started with nothing, as no CAGR (before: a total return of 0.00 %)', async () => {
    const run = await backtest(['--cash', 'KRW=0,USD=0'], '005930');
    // 0 → 0: last ÷ first − 1 is 0 ÷ 0, no number; the 3 buys find no cash and the 2 sells no
    // shares (the broker answers both insufficient-buying-power)
    expect(run.stats).toMatchObject({ startEquity: '0', endEquity: '0', totalReturn: null, cagr: null });
    expect(run.stats.refused).toEqual({ 'insufficient-buying-power': 5 });
    // the same budget as hoga run's flags give it
    const text = await hogaBacktest([
      PLAN,
      ...['--symbols', '005930', '--interval', '1d', '--from', FROM, '--to', TO],
      ...['--cash-krw', '0', '--cash-usd', '0'],
      ...simFlags(sim.url),
      ...['--db', db],
    ]);
    expect(text.stdout).toMatch(/total return +n\/a\n/);
    expect(text.stdout).toMatch(/^ {2}net profit +0 KRW$/m);
    const list = await hogaBin(['db', 'runs', '--db', db]);
    expect(list.out).toMatch(/completed +- +0\n/);
  });

  it('takes the currencies of --cash in any case, as symbols are (before: usd=100 was a usage error)', async () => {
    // $100 at 1,400 and no won: the run starts at 140,000 KRW
    const run = await backtest(['--cash', 'krw=0,usd=100'], '005930');
    expect(run.stats).toMatchObject({ startEquity: '140000' });
    const refused = async (cash: string) => {
      const r = await hogaBacktest([
        PLAN,
        ...['--symbols', '005930', '--interval', '1d', '--from', FROM, '--to', TO, '--cash', cash],
        ...simFlags(sim.url),
        ...['--db', db],
      ]);
      expect([r.code, r.stdout]).toEqual([2, '']);
      return r.stderr;
    };
    expect(await refused('eur=100')).toBe(
      'hoga: --cash: expected KRW=<amount>,USD=<amount>, found "eur=100"\nsee hoga backtest --help\n',
    );
    expect(await refused('USD=1,usd=2')).toBe('hoga: --cash: USD is given twice\nsee hoga backtest --help\n');
  });

  it('prints every ratio as a plain decimal string, a tiny one too (before: "1.592e-9")', async () => {
    // one share on a trillion won: the return, the CAGR and the drawdown are all below 1e-6,
    // where JavaScript writes a number with an exponent
    const run = await backtest(['--cash', 'KRW=1000000000000,USD=0'], '005930');
    const plain = /^-?\d+(\.\d+)?$/;
    const ratios = ['totalReturn', 'cagr', 'maxDrawdown', 'sharpe', 'winRate'] as const;
    for (const key of ratios) {
      const value = run.stats[key];
      if (value !== null) expect(value, key).toMatch(plain);
    }
    expect(Math.abs(Number(run.stats.totalReturn))).toBeGreaterThan(0);
    expect(Math.abs(Number(run.stats.totalReturn))).toBeLessThan(1e-6);
    const stored = await hogaBin(['db', 'runs', '--db', db, '--id', run.runId, '--json']);
    const back = JSON.parse(stored.out) as BacktestJson;
    for (const key of ratios) {
      const value = back.stats[key];
      if (value !== null) expect(value, key).toMatch(plain);
    }
    expect(back.stats).toEqual({ ...run.stats, failure: null });
  });

  it('refuses starting cash too large for the equity curve to count to the won (before: accepted, and the loss of a share did not show in the net profit)', async () => {
    // the curve is kept in doubles: at 10^20 won one won is far below their resolution
    const run = await hogaBacktest([
      PLAN,
      ...['--symbols', '005930', '--interval', '1d', '--from', FROM, '--to', TO],
      ...['--cash', 'KRW=100000000000000000000,USD=0', '--json'],
      ...simFlags(sim.url),
      ...['--db', db],
    ]);
    // (--json: the failure as JSON, stderr's last line)
    expect(jsonFailure(run.stderr).message).toBe(
      '--cash: KRW amount 100000000000000000000 is more than 100,000,000,000,000 (the equity curve counts to the won below it)',
    );
    expect([run.code, run.stdout]).toEqual([2, '']);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedSmaTrades } from '../../../../strategies/sma-crossover-reference.test-helper.js';
import { hoga as hogaBin } from '../hoga-process.test-helper.js';
import { FROM, TO, useBacktestCli } from './backtest-cli-fixture.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { cachedBars, hogaBacktest as hoga, ROOT, SMA } from './backtest-runs.test-helper.js';

const RSI = join(ROOT, 'strategies', 'rsi-pullback.ts');

const LOGS = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'logs-fills.ts');
const SYMBOLS = ['005930', 'AAPL'];

// the failures (a bad config, a throwing strategy, an unknown symbol, an empty range, Ctrl-C) are
// in backtest-cli-failures.int.test.ts
const cli = useBacktestCli();

describe('hoga backtest', () => {
  // one USD/KRW rate: the broker's history is read at each day's end, 3 a second (90 s for this
  // year of AAPL the first time; backtest-fx-cache.int.test.ts and backtest-books-fx.int.test.ts
  // check those rates)
  const args = () => cli.args({ symbols: SYMBOLS, extra: ['--json', '--usd-krw', '1400'] });

  it("trades the SMA crossovers of the simulator's candles, as an independent computation finds them, and stores the run", async () => {
    const result = await hoga(args());
    expect(result.stderr).toContain('005930 1d: downloaded');
    expect(result.code).toBe(0);
    const run = JSON.parse(result.stdout) as BacktestJson;
    const bars = SYMBOLS.flatMap((s) => cachedBars(cli.db, s, FROM, TO));
    expect(bars.length).toBeGreaterThan(400);
    const expected = expectedSmaTrades(bars, { fast: 5, slow: 20, quantity: 10 });
    expect(expected.length).toBeGreaterThan(5);
    expect(
      run.trades.map((t) => ({
        time: Date.parse(t.time),
        symbol: t.symbol,
        side: t.side,
        quantity: Number(t.quantity),
        price: Number(t.price),
      })),
    ).toEqual(expected);
    expect(run.stats.trades).toBe(expected.length);
    expect(Object.keys(run.stats)).toEqual(
      expect.arrayContaining([
        'totalReturn',
        'cagr',
        'maxDrawdown',
        'sharpe',
        'trades',
        'winRate',
        'commissions',
        'taxes',
      ]),
    );
    // KR sells pay the transaction tax; every fill pays commission.
    expect(
      run.trades.filter((t) => t.symbol === '005930' && t.side === 'SELL').every((t) => Number(t.tax) > 0),
    ).toBe(true);
    expect(run.trades.every((t) => Number(t.commission) > 0)).toBe(true);

    cli.readStore((_, stored) => {
      expect(stored.get(run.runId)).toMatchObject({
        status: 'completed',
        kind: 'backtest',
        strategyName: 'SmaCrossover',
      });
      expect(stored.trades(run.runId)).toHaveLength(run.trades.length);
      expect(stored.equity(run.runId)).toHaveLength(run.equity.length);
    });
  }, 120_000);

  it('on minute bars to 20:00, trades the crossovers in the regular session only, and sends no market order outside it', async () => {
    // 005930 trades on the alternative exchange: its minute bars run 08:01–20:00 KST
    const from = '2026-11-16';
    const to = '2026-11-17';
    const minute = cli.args({ interval: '1m', from, to });
    const result = await hoga([...minute, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as BacktestJson;
    const bars = cachedBars(cli.db, '005930', from, to, '1m');
    expect(bars.length).toBe(2 * 720);
    const expected = expectedSmaTrades(bars, { fast: 5, slow: 20, quantity: 10 });
    expect(expected.length).toBeGreaterThan(5);
    expect(run.trades.map((t) => [Date.parse(t.time), t.side, Number(t.price)])).toEqual(
      expected.map((t) => [t.time, t.side, t.price]),
    );
    // the crosses outside the regular session are let go: before, the reference strategy sent their
    // market orders, and each was refused (order-type-not-allowed), as live refuses them
    expect(run.stats.refused).toEqual({});
    const text = await hoga(minute);
    expect(text.stdout).toMatch(/refused orders {2}none/);
    const stored = await hogaBin(['db', 'runs', '--db', cli.db, '--id', run.runId]);
    expect(stored.out).toMatch(/refused orders {2}none/);
  }, 120_000);

  it('runs the RSI pullback example on KR and US minute bars with no refused order: its market sells wait for the regular session', async () => {
    // 005930's minute bars run 08:01–20:00 KST, AAPL's from the US day market (10:00 KST) to the
    // after-market's end: most bars lie outside the regular sessions, where the broker takes
    // limit orders only (and none between the US sessions)
    const config = join(cli.dir, 'rsi-minute.json');
    writeFileSync(config, JSON.stringify({ discountPct: 0.05, maxBarsWorking: 5 }));
    const minute = cli.args({
      strategy: RSI,
      symbols: SYMBOLS,
      interval: '1m',
      from: '2026-11-16',
      to: '2026-11-18',
      extra: ['--config', config, '--usd-krw', '1400'],
    });
    const result = await hoga([...minute, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as BacktestJson;
    // before: 17 fills and 728 orders refused (order-type-not-allowed 727: a market sell on every
    // bar outside the regular session while the RSI stayed high; order-hours-closed 1)
    expect(run.stats.refused).toEqual({});
    const sells = run.trades.filter((t) => t.side === 'SELL');
    expect(new Set(sells.map((t) => t.symbol))).toEqual(new Set(SYMBOLS));
    expect(run.trades.filter((t) => t.side === 'BUY').length).toBeGreaterThanOrEqual(sells.length);
  }, 120_000);

  it("computes a mixed minute run's Sharpe ratio on the daily equity curve it prints", async () => {
    const args = cli.args({ symbols: SYMBOLS, from: '2026-11-24', to: '2026-11-27', extra: ['--json'] });
    args[args.indexOf('1d')] = '1m';
    const result = await hoga(args);
    expect(result.code, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as BacktestJson;
    // the start and one point per trading day: 11-24, 11-25, 11-26 (KR only), 11-27
    expect(run.equity).toHaveLength(5);
    const equity = run.equity.map((p) => Number(p.equity));
    const returns = equity.slice(1).map((e, i) => e / (equity[i] as number) - 1);
    const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
    const sd = Math.sqrt(returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1));
    // before: the US after-market's last hour (to 08:00 KST) counted as the next day, and the
    // Sharpe ratio was computed on 3 of the 4 days
    expect(Number(run.stats.sharpe)).toBeCloseTo((mean / sd) * Math.sqrt(252), 2);
  }, 120_000);

  it('gives the same stats, trades and equity curve to the last digit when run twice', async () => {
    const first = JSON.parse((await hoga(args())).stdout) as BacktestJson;
    const second = JSON.parse((await hoga(args())).stdout) as BacktestJson;
    expect(second.runId).not.toBe(first.runId);
    expect({ ...second, runId: '' }).toEqual({ ...first, runId: '' });
  }, 120_000);

  it('reads a stored run back with hoga db runs: the list, and one run with the trades and equity it printed', async () => {
    const printed = JSON.parse((await hoga(args())).stdout) as BacktestJson;
    const list = await hogaBin(['db', 'runs', '--db', cli.db, '--json']);
    expect(list.code, list.err).toBe(0);
    const runs = JSON.parse(list.out) as { runId: string; kind: string; status: string }[];
    expect(runs[0]).toMatchObject({ runId: printed.runId, kind: 'backtest', status: 'completed' });
    const one = await hogaBin(['db', 'runs', '--db', cli.db, '--id', printed.runId, '--json']);
    expect(one.code, one.err).toBe(0);
    const run = JSON.parse(one.out) as {
      trades: BacktestJson['trades'];
      equity: BacktestJson['equity'];
      stats: Record<string, unknown>;
    };
    const fields = (t: BacktestJson['trades'][number]) => [
      t.time,
      t.symbol,
      t.side,
      t.quantity,
      t.price,
      t.commission,
      t.tax,
    ];
    expect(run.trades.map(fields)).toEqual(printed.trades.map(fields));
    // the same curve, to the won as printed (before: the stored floats, 236110649.70999998)
    expect(run.equity).toEqual(printed.equity);
    // the statistics as printed too, decimals as strings (before: the stored numbers,
    // "totalReturn": -0.000386…, "startEquity": 239627000), and why it failed (null: it did not)
    expect(run.stats).toEqual({ ...printed.stats, failure: null });
    const listed = runs.find((r) => r.runId === printed.runId) as { stats?: unknown } | undefined;
    expect(listed?.stats).toEqual(run.stats);
    const table = await hogaBin(['db', 'runs', '--db', cli.db]);
    const row = table.out.split('\n').find((line) => line.includes(printed.runId)) ?? '';
    const stats = printed.stats as { totalReturn: string; trades: number };
    // the list's return and trade count are the run's stored statistics
    expect(row).toMatch(
      new RegExp(
        `${(Number(stats.totalReturn) * 100).toFixed(2).replace('.', '\\.')} %\\s+${stats.trades}\\s*$`,
      ),
    );
    const missing = await hogaBin(['db', 'runs', '--db', cli.db, '--id', 'no-such-run']);
    expect([missing.code, missing.err]).toEqual([1, expect.stringContaining('no run no-such-run')]);
  }, 120_000);

  it('shows a stored run with the statistics its backtest printed, to the same digits', async () => {
    const printed = await hoga(cli.args({ symbols: SYMBOLS, extra: ['--usd-krw', '1400'] }));
    expect(printed.code, printed.stderr).toBe(0);
    const runId = /^\s*run\s+(\S+)$/m.exec(printed.stdout)?.[1] ?? '';
    const shown = await hogaBin(['db', 'runs', '--db', cli.db, '--id', runId]);
    expect(shown.code, shown.err).toBe(0);
    const rows = (text: string) =>
      new Map(
        text
          .split('\n')
          .map((line) => line.trim().split(/\s{2,}/))
          .filter((parts) => parts.length === 2) as [string, string][],
      );
    const report = rows(printed.stdout);
    const stored = rows(shown.out);
    const keys = ['start equity', 'end equity', 'total return', 'CAGR', 'max drawdown', 'Sharpe ratio'];
    keys.push('trades (fills)', 'round trips', 'win rate', 'commissions', 'taxes', 'bars');
    for (const key of keys) {
      expect(report.get(key), key).toBeDefined();
      expect(stored.get(key), key).toBe(report.get(key));
    }
    // numbers grouped and money in its currency's decimals, as docs/cli.md says of hoga's output
    // (before: '239627000 KRW', '1252 KRW, 23.3 USD')
    expect(report.get('start equity')).toMatch(/^\d{1,3}(,\d{3})+ KRW$/);
    expect(report.get('commissions')).toMatch(/^\d{1,3}(,\d{3})* KRW, \$\d+\.\d{2}$/);
  }, 60_000);

  it('stores the config the strategy ran with: the file given, completed by the schema’s defaults', async () => {
    const config = join(cli.dir, 'fast3.json');
    // with the byte-order mark a Windows editor may write (before: "is not JSON: Unexpected token '﻿'")
    writeFileSync(config, `\ufeff${JSON.stringify({ fast: 3 })}`);
    const printed = JSON.parse(
      (await hoga(cli.args({ extra: ['--config', config, '--json'] }))).stdout,
    ) as BacktestJson;
    const one = await hogaBin(['db', 'runs', '--db', cli.db, '--id', printed.runId, '--json']);
    expect(one.code, one.err).toBe(0);
    const run = JSON.parse(one.out) as { params: { config: unknown } };
    expect(run.params.config).toEqual({ fast: 3, slow: 20, quantity: 10 });
  }, 60_000);

  it('runs several strategies in one engine, each with its own id, config and positions, as hoga run does', async () => {
    const fast = join(cli.dir, 'fast3-slow10.json');
    writeFileSync(fast, JSON.stringify({ fast: 3, slow: 10, quantity: 2 }));
    // the first strategy takes the first --config; the second (no id given: its class name) its defaults
    const both = await hoga([
      `${SMA}:quick`,
      SMA,
      ...cli.args({ symbols: SYMBOLS, extra: ['--config', fast, '--json', '--usd-krw', '1400'] }).slice(1),
    ]);
    expect(both.code, both.stderr).toBe(0);
    const run = JSON.parse(both.stdout) as BacktestJson;
    const bars = SYMBOLS.flatMap((s) => cachedBars(cli.db, s, FROM, TO));
    const shape = (t: BacktestJson['trades'][number]) => ({
      time: Date.parse(t.time),
      symbol: t.symbol,
      side: t.side,
      quantity: Number(t.quantity),
      price: Number(t.price),
    });
    const quick = expectedSmaTrades(bars, { fast: 3, slow: 10, quantity: 2 });
    const standard = expectedSmaTrades(bars, { fast: 5, slow: 20, quantity: 10 });
    // each strategy's crossovers, from its own position: as if it ran alone
    expect(run.trades.filter((t) => t.strategyId === 'quick').map(shape)).toEqual(quick);
    expect(run.trades.filter((t) => t.strategyId === 'SmaCrossover').map(shape)).toEqual(standard);
    expect(run.trades).toHaveLength(quick.length + standard.length);
    const stored = await hogaBin(['db', 'runs', '--db', cli.db, '--id', run.runId, '--json']);
    const params = JSON.parse(stored.out) as { strategy: string; params: { strategies: unknown } };
    expect(params.strategy).toBe('quick, SmaCrossover');
    expect(params.params.strategies).toEqual([
      { id: 'quick', file: SMA, config: { fast: 3, slow: 10, quantity: 2 } },
      { id: 'SmaCrossover', file: SMA, config: { fast: 5, slow: 20, quantity: 10 } },
    ]);
    // two strategies of one class need ids of their own
    const twice = await hoga([SMA, ...cli.args()]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('two strategies have the id SmaCrossover');
  }, 120_000);

  it("shows the strategy's log lines on stderr and in --log-file, stamped with the backtest's time", async () => {
    const logFile = join(cli.dir, 'backtest-log.jsonl');
    // the real bin: --log-file and --verbose are the program's options
    const result = await hogaBin([
      'backtest',
      ...cli.args({ strategy: LOGS, extra: ['--json', '--log-file', logFile] }),
    ]);
    expect(result.err).not.toContain('error');
    expect(result.code).toBe(0);
    const trade = (JSON.parse(result.out) as BacktestJson).trades[0];
    // the fill is made on the bar after the order (the 4th trading day of 2025), the line is
    // printed when the engine handles it: that bar's close, in KST
    const filledLine = result.err.split('\n').find((l) => l.includes('LogsFills: filled'));
    expect(filledLine).toMatch(
      /^hoga: 2025-01-0\d \d\d:\d\d:\d\d KST log {4}LogsFills: filled \(price=\d+\)$/,
    );
    expect(filledLine).toContain(`price=${trade?.price}`);
    expect(filledLine?.slice(6, 16)).toBe(trade?.time.slice(0, 10));
    expect(result.err).toMatch(/^hoga: 2025-12-3\d \d\d:\d\d:\d\d KST warn {3}LogsFills: stopping$/m);
    const records = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const filled = records.find((r) => r.msg === 'filled');
    expect(filled).toMatchObject({ component: 'strategy', strategyId: 'LogsFills', price: trade?.price });
    expect(String(filled?.engineTime)).toMatch(/^2025-01-0\dT\d\d:\d\d:\d\d\.\d{3}\+09:00$/);
  }, 60_000);
});

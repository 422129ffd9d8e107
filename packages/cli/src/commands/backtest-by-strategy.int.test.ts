/**
 * Each strategy's part of a run of two (`stats.byStrategy`): `hoga backtest` of the fixed plan of
 * `backtest-accounting.int.test.ts` twice in one engine, one copy trading only AAPL (id US, given
 * first) and one only 005930 (id KR), on the simulator's daily candles (seed 1, 2025-01-02 to
 * 2025-01-20, USD at 1,400). Its figures are checked against the same output's trades (summed per
 * strategy), against the run's totals, and by hand; the stored run (`hoga db runs --id`) gives
 * them back, and a run stored before them still prints. What each made (realized + unrealized at
 * the end − charges) adds up to the run's net profit; before, the rows had no unrealized PnL, and a
 * strategy still holding its shares read `realized PnL 0`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase, RunRepository } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga as hogaBin, simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { hogaBacktest, ROOT } from './backtest-runs.test-helper.js';

const PLAN = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'trades-a-plan.ts');
const FROM = '2025-01-02';
const TO = '2025-01-20';

interface ByStrategy {
  strategyId: string;
  trades: number;
  roundTrips: number;
  wins: number;
  winRate: string | null;
  realizedPnl: Record<string, string>;
  unrealizedPnl: Record<string, string>;
  commissions: Record<string, string>;
  taxes: Record<string, string>;
}

let sim: SimulatorHandle;
let dir: string;
let db: string;
let args: string[];

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-by-strategy-'));
  db = join(dir, 'hoga.sqlite');
  writeFileSync(join(dir, 'us.json'), JSON.stringify({ only: ['AAPL'] }));
  writeFileSync(join(dir, 'kr.json'), JSON.stringify({ only: ['005930'] }));
  args = [
    `${PLAN}:US`,
    `${PLAN}:KR`,
    ...['--config', join(dir, 'us.json'), '--config', join(dir, 'kr.json')],
    ...['--symbols', '005930,AAPL', '--interval', '1d', '--from', FROM, '--to', TO, '--usd-krw', '1400'],
    ...simFlags(sim.url),
    ...['--db', db],
  ];
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Per currency, the sum of a field of the trades (AAPL's in USD, 005930's in KRW). */
function sums(trades: BacktestJson['trades'], field: 'commission' | 'tax'): Record<string, string> {
  const out: Record<string, Decimal> = { KRW: new Decimal(0), USD: new Decimal(0) };
  for (const t of trades) {
    const currency = t.symbol === 'AAPL' ? 'USD' : 'KRW';
    out[currency] = (out[currency] as Decimal).plus(t[field]);
  }
  return Object.fromEntries(Object.entries(out).map(([c, v]) => [c, v.toFixed()]));
}

function total(parts: readonly Record<string, string>[], currency: string): string {
  return parts.reduce((sum, p) => sum.plus(p[currency] ?? '0'), new Decimal(0)).toFixed();
}

describe('hoga backtest of two strategies: each one’s part', () => {
  it('gives each strategy its trades, round trips, win rate, realized and unrealized PnL, commissions and taxes, as stored', async () => {
    const run = await hogaBacktest([...args, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as BacktestJson;
    const stats = out.stats as Record<string, unknown>;
    const parts = stats.byStrategy as ByStrategy[];
    // in the order given on the command line (not sorted)
    expect(parts.map((p) => p.strategyId)).toEqual(['US', 'KR']);
    for (const p of parts) {
      const own = out.trades.filter((t) => t.strategyId === p.strategyId);
      expect(p.trades, p.strategyId).toBe(own.length);
      expect(p.commissions, p.strategyId).toEqual(sums(own, 'commission'));
      expect(p.taxes, p.strategyId).toEqual(sums(own, 'tax'));
    }
    // the parts add up to the run
    expect(parts.reduce((n, p) => n + p.trades, 0)).toBe(stats.trades);
    expect(parts.reduce((n, p) => n + p.roundTrips, 0)).toBe(stats.roundTrips);
    expect(parts.reduce((n, p) => n + p.wins, 0)).toBe(stats.wins);
    for (const currency of ['KRW', 'USD']) {
      const commissions = stats.commissions as Record<string, string>;
      const taxes = stats.taxes as Record<string, string>;
      expect(
        total(
          parts.map((p) => p.commissions),
          currency,
        ),
      ).toBe(commissions[currency]);
      expect(
        total(
          parts.map((p) => p.taxes),
          currency,
        ),
      ).toBe(taxes[currency]);
    }
    // By hand (the fills of backtest-accounting.int.test.ts). US: 4 AAPL bought at 169.91 and sold
    // at 179.40: realized 717.60 − 679.64 = 37.96; 2 bought at 178.34, 1 sold at 182.52: 4.18;
    // commissions 0.68 + 0.72 + 0.36 + 0.18; one round trip, won (37.96 − 1.40).
    // KR: 10 at 53,600 and 5 at 54,200 (average 53,800), 8 sold at 53,800 (realized 0) and 7 at
    // 54,800 (383,600 − the 376,600 the 7 left cost: 7,000), 3 bought again at 54,100; commissions
    // 80 + 40 + 64 + 57 + 24, taxes 645 + 575; one round trip, won (7,000 − 241 − 1,220 = 5,539).
    // Held at the end: US 1 AAPL of 178.34 at the last close, 172.76 (−5.58); KR the 3 of 54,100 at
    // 53,200 (−2,700).
    expect(parts).toEqual([
      {
        strategyId: 'US',
        trades: 4,
        roundTrips: 1,
        wins: 1,
        winRate: '1',
        realizedPnl: { KRW: '0', USD: '42.14' },
        unrealizedPnl: { KRW: '0', USD: '-5.58' },
        commissions: { KRW: '0', USD: '1.94' },
        taxes: { KRW: '0', USD: '0' },
      },
      {
        strategyId: 'KR',
        trades: 5,
        roundTrips: 1,
        wins: 1,
        winRate: '1',
        realizedPnl: { KRW: '7000', USD: '0' },
        unrealizedPnl: { KRW: '-2700', USD: '0' },
        commissions: { KRW: '265', USD: '0' },
        taxes: { KRW: '1220', USD: '0' },
      },
    ]);

    // what each made (realized + unrealized − charges, USD at the run's 1,400) adds up to the run's
    // net profit: US 34.62 USD, KR 2,815 KRW
    const made = (p: ByStrategy, c: string) =>
      new Decimal(p.realizedPnl[c] ?? 0)
        .plus(p.unrealizedPnl[c] ?? 0)
        .minus(p.commissions[c] ?? 0)
        .minus(p.taxes[c] ?? 0);
    const madeKrw = parts.reduce(
      (sum, p) => sum.plus(made(p, 'KRW')).plus(made(p, 'USD').times(1400)),
      new Decimal(0),
    );
    expect(madeKrw.toFixed()).toBe('51283');
    expect((stats.endEquity as number) - (stats.startEquity as number)).toBeCloseTo(51_283, 6);

    // stored with the run: --json gives the same figures, the report a line per strategy
    const stored = await hogaBin(['db', 'runs', '--db', db, '--id', out.runId, '--json']);
    expect(stored.code, stored.err).toBe(0);
    expect((JSON.parse(stored.out) as { stats: unknown }).stats).toEqual({ ...out.stats, failure: null });
    const report = await hogaBin(['db', 'runs', '--db', db, '--id', out.runId]);
    expect(report.code, report.err).toBe(0);
    expect(report.out).toMatch(
      /^strategy US +4 trades, 1 round trip, win rate 100\.00 %, realized PnL \$42\.14 before charges, unrealized -\$5\.58, commissions \$1\.94, taxes 0$/m,
    );
    expect(report.out).toMatch(
      /^strategy KR +5 trades, 1 round trip, win rate 100\.00 %, realized PnL 7,000 KRW before charges, unrealized -2,700 KRW, commissions 265 KRW, taxes 1,220 KRW$/m,
    );
  });

  it('prints a line per strategy in the report of a run of several', async () => {
    const run = await hogaBacktest(args);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  risk halts'));
    expect(lines.slice(at + 1, at + 3)).toEqual([
      expect.stringMatching(
        /^ {2}strategy US +4 trades, 1 round trip, win rate 100\.00 %, realized PnL \$42\.14 before charges, unrealized -\$5\.58, commissions \$1\.94, taxes 0$/,
      ),
      expect.stringMatching(
        /^ {2}strategy KR +5 trades, 1 round trip, win rate 100\.00 %, realized PnL 7,000 KRW before charges, unrealized -2,700 KRW, commissions 265 KRW, taxes 1,220 KRW$/,
      ),
    ]);
    // the rows stay aligned: each value starts where the statistics' do
    const column = (line: string) => line.search(/ {2}\S/g);
    expect(column(lines[at + 1]?.slice(2) ?? '')).toBe(column(lines[at]?.slice(2) ?? ''));
  });

  it('still prints a run stored before the strategies’ parts were', async () => {
    const old = join(dir, 'old.sqlite');
    const database = HogaDatabase.open(old);
    try {
      const runs = new RunRepository(database.connection);
      runs.start({
        runId: 'old-run',
        kind: 'backtest',
        strategyPath: null,
        strategyName: 'A, B',
        params: {},
        startedAt: 1_700_000_000_000,
      });
      runs.finish('old-run', {
        status: 'completed',
        endedAt: 1_700_000_001_000,
        stats: { trades: 3, roundTrips: 1, winRate: 1, commissions: { KRW: '10' }, taxes: {}, failure: null },
      });
    } finally {
      database.close();
    }
    const report = await hogaBin(['db', 'runs', '--db', old, '--id', 'old-run']);
    expect(report.code, report.err).toBe(0);
    expect(report.out).toMatch(/^trades \(fills\) +3$/m);
    expect(report.out).not.toMatch(/^strategy \S/m);
    const json = await hogaBin(['db', 'runs', '--db', old, '--id', 'old-run', '--json']);
    expect(json.code, json.err).toBe(0);
    expect((JSON.parse(json.out) as { stats: Record<string, unknown> }).stats.byStrategy).toBeUndefined();
  });
});

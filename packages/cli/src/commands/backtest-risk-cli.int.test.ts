import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedSmaTrades } from '../../../../strategies/sma-crossover-reference.test-helper.js';
import { hoga as hogaBin, jsonFailure, simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { cachedBars, hogaBacktest as hoga, SMA } from './backtest-runs.test-helper.js';

// The risk module judges a backtest's orders as it judges live ones: with the risk configuration the
// run is given (--risk-config, else $HOGA_RISK_CONFIG, as hoga run takes it), and a market order valued
// at its symbol's last close (live: its last price).

const FROM = '2025-01-01';
const TO = '2025-12-31';
/** 1,000 shares of 005930 (the simulator's prices of 2025 are above 30,000 KRW): over 30,000,000 KRW an order. */
const LARGE = { fast: 5, slow: 20, quantity: 1_000 };

let sim: SimulatorHandle;
let dir: string;
let db: string;
let large: string;
let raised: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-risk-'));
  db = join(dir, 'hoga.sqlite');
  large = join(dir, 'large.json');
  writeFileSync(large, JSON.stringify(LARGE));
  raised = join(dir, 'risk.json');
  writeFileSync(
    raised,
    // the daily loss limit too: a 60,000,000 KRW position loses its default 1,000,000 on a day's fall of
    // 1.7 %, at the closes, and halts the strategy as live would
    JSON.stringify({
      defaults: {
        maxOrderValueKrw: '99000000',
        maxPositionValuePerSymbolKrw: '99000000',
        dailyLossLimitKrw: '99000000',
      },
    }),
  );
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A daily backtest of the SMA crossover buying 1,000 shares of 005930 in 2025, with `extra` flags. */
function args(...extra: string[]): string[] {
  return [
    SMA,
    '--symbols',
    '005930',
    '--interval',
    '1d',
    '--from',
    FROM,
    '--to',
    TO,
    '--config',
    large,
    '--json',
    ...extra,
    ...simFlags(sim.url),
    '--db',
    db,
  ];
}

/** A stored risk configuration, as JSON. */
interface RiskJson {
  readonly defaults: Record<string, unknown>;
  readonly account: Record<string, unknown>;
}

/** How many times the 5-bar average of `closes` crosses above the 20-bar one. */
function crossesUp(closes: readonly number[]): number {
  const mean = (end: number, n: number) => closes.slice(end - n + 1, end + 1).reduce((a, b) => a + b, 0) / n;
  let ups = 0;
  for (let i = 20; i < closes.length; i++) {
    if (mean(i - 1, 5) <= mean(i - 1, 20) && mean(i, 5) > mean(i, 20)) ups += 1;
  }
  return ups;
}

describe('hoga backtest and the risk configuration', () => {
  it('denies an order over the default maximum order value, as live would (its market order valued at the last close)', async () => {
    const result = await hoga(args());
    expect(result.code, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as BacktestJson;
    // every cross up asks to buy: none is let through, so the strategy stays flat
    const ups = crossesUp(cachedBars(db, '005930', FROM, TO).map((b) => b.close));
    expect(ups).toBeGreaterThan(2);
    expect(run.trades).toEqual([]);
    expect(run.stats.refused).toEqual({ 'risk-max-order-value': ups });
    // the report says where their reasons are
    const text = await hoga(args().filter((a) => a !== '--json'));
    const runId = /^ {2}run +(\S+)$/m.exec(text.stdout)?.[1] ?? '';
    expect(text.stdout).toContain(
      `  (their reasons: hoga db orders --mode backtest --run ${runId} --state DENIED,REJECTED --db ${db})`,
    );
  }, 120_000);

  it('runs with the limits of --risk-config, or of $HOGA_RISK_CONFIG, and stores the file with the run', async () => {
    const expected = expectedSmaTrades(cachedBars(db, '005930', FROM, TO), LARGE);
    for (const [flags, env] of [
      [['--risk-config', raised], {}],
      [[], { HOGA_RISK_CONFIG: raised }],
    ] as const) {
      const result = await hoga(args(...flags), env);
      expect(result.code, result.stderr).toBe(0);
      const run = JSON.parse(result.stdout) as BacktestJson;
      expect(run.stats.refused).toEqual({});
      expect(
        run.trades.map((t) => [Date.parse(t.time), t.side, Number(t.quantity), Number(t.price)]),
      ).toEqual(expected.map((t) => [t.time, t.side, t.quantity, t.price]));
      const stored = await hogaBin(['db', 'runs', '--db', db, '--id', run.runId, '--json']);
      const params = (JSON.parse(stored.out) as { params: { riskConfig?: unknown; risk?: RiskJson } }).params;
      expect(params.riskConfig).toBe(raised);
      // the configuration as it ran: the file's limits, and the defaults of the sections it leaves out
      expect(params.risk?.defaults).toEqual({
        maxOrderValueKrw: '99000000',
        maxPositionValuePerSymbolKrw: '99000000',
        dailyLossLimitKrw: '99000000',
      });
      expect(params.risk?.account).toEqual({ dailyLossLimitKrw: '3000000', dailyLossAction: 'halt' });
    }
  }, 120_000);

  it('halts on a day the position lost the daily loss limit at the closes, and says so on stderr', async () => {
    // the order limits raised, the daily loss limit left at its 1,000,000 KRW: a 1,000-share position
    // loses that on a fall of under 2 %
    const orders = join(dir, 'orders-only.json');
    writeFileSync(
      orders,
      JSON.stringify({
        defaults: { maxOrderValueKrw: '99000000', maxPositionValuePerSymbolKrw: '99000000' },
      }),
    );
    const result = await hoga(args('--risk-config', orders));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /hoga: the daily loss limit halted strategy SmaCrossover \d+ times: its orders were denied/,
    );
    const run = JSON.parse(result.stdout) as BacktestJson;
    for (const code of Object.keys(run.stats.refused as Record<string, number>)) {
      expect(code).toMatch(/^risk-daily-loss-(strategy|account)$/);
    }
    // the halts are counted with the statistics, as stderr told them: in --json, and in the stored
    // run's report
    const halts = run.stats.halts as Record<string, number>;
    const told = (scope: string): number => {
      const m = new RegExp(`halted ${scope} (once|(\\d+) times)`).exec(result.stderr);
      return m === null ? 0 : m[1] === 'once' ? 1 : Number(m[2]);
    };
    expect(halts['strategy:SmaCrossover']).toBe(told('strategy SmaCrossover'));
    expect(halts.account ?? 0).toBe(told('the account'));
    const total = Object.values(halts).reduce((a, b) => a + b, 0);
    const stored = await hogaBin(['db', 'runs', '--db', db, '--id', run.runId]);
    expect(stored.code, stored.err).toBe(0);
    expect(stored.out).toMatch(
      new RegExp(`risk halts +${total} \\(.*strategy SmaCrossover ${told('strategy SmaCrossover')}\\)`),
    );
  }, 120_000);

  it("lists a backtest's orders with hoga db orders --mode backtest --run: the refused ones with the risk module's reason", async () => {
    const denied = JSON.parse((await hoga(args())).stdout) as BacktestJson;
    const filled = JSON.parse((await hoga(args('--risk-config', raised))).stdout) as BacktestJson;
    const list = async (runId: string, ...more: string[]) => {
      const r = await hogaBin([
        'db',
        'orders',
        '--db',
        db,
        '--mode',
        'backtest',
        '--run',
        runId,
        '--json',
        ...more,
      ]);
      expect(r.code, r.err).toBe(0);
      return JSON.parse(r.out) as Record<string, unknown>[];
    };
    // before: the table was empty (a backtest's orders are kept in the journal, not the orders table)
    const refused = await list(denied.runId);
    expect(refused.length).toBe((denied.stats.refused as Record<string, number>)['risk-max-order-value']);
    for (const o of refused) {
      expect(o).toMatchObject({
        mode: 'backtest',
        strategyId: 'SmaCrossover',
        symbol: '005930',
        side: 'BUY',
      });
      expect(o).toMatchObject({
        orderType: 'MARKET',
        quantity: '1000',
        filledQuantity: '0',
        state: 'DENIED',
      });
      expect(o.reason).toMatch(
        /^risk-max-order-value: The order is worth [\d,]+ KRW, over the strategy's maximum of 30,000,000 KRW$/,
      );
    }
    // the other run's orders: each filled at the price its trade shows, none of the first run's
    const orders = await list(filled.runId);
    expect(orders.map((o) => [o.side, o.state, o.filledQuantity, o.averageFillPrice])).toEqual(
      filled.trades.map((t) => [t.side, 'FILLED', t.quantity, t.price]),
    );
    expect(await list(filled.runId, '--state', 'DENIED')).toEqual([]);
    // the table: one row per order, its reason last
    const table = await hogaBin(['db', 'orders', '--db', db, '--mode', 'backtest', '--run', denied.runId]);
    expect(table.out.split('\n')[0]).toMatch(/^created .* state +reason$/);
    expect(table.out).toMatch(
      / DENIED +risk-max-order-value: The order is worth [\d,]+ KRW, over the strategy's maximum of 30,000,000 KRW/,
    );
  }, 120_000);

  it('stops with exit code 2 on a risk configuration that does not parse, naming the file, each field, its value and what was expected', async () => {
    const bad = join(dir, 'bad-risk.json');
    writeFileSync(
      bad,
      JSON.stringify({
        enabled: 'yes',
        defaults: { maxOrderValueKrw: 'lots' },
        throttle: { windowMs: 0 },
        bogus: 1,
      }),
    );
    const result = await hoga(args('--risk-config', bad));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    // as a strategy's config is said (before: zod's own lines, '✖ Invalid input: expected boolean,
    // received string' over '→ at enabled', the value not shown)
    expect(jsonFailure(result.stderr)).toMatchObject({
      code: 'usage',
      message: [
        `risk configuration ${bad}:`,
        '  enabled: found "yes", expected boolean',
        '  defaults.maxOrderValueKrw: found "lots", expected an amount of 0 or more, digits only (a string such as "30000000", or a number)',
        '  throttle.windowMs: found 0, expected number to be >0',
        '  bogus: found 1, expected no such field (a typo?)',
      ].join('\n'),
    });
  }, 60_000);
});

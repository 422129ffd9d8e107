/**
 * `hoga backtest` (a child process, against a simulator over HTTP) and the daily loss limit on
 * later days: a strategy that stops ordering after its first halt is halted again on each later
 * day its position loses the limit, as live halts it on every price move. Before, only its first
 * day was: the halt that had lapsed at the next trading day was never read again (no order asked),
 * so a new trip on a later day changed nothing the run counted or logged.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { cachedBars, hogaBacktest, ROOT } from './backtest-runs.test-helper.js';

const ORDERS_ON_DATES = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'orders-on-dates.ts');
const FROM = '2025-01-02';
const TO = '2025-01-10';
const SHARES = 10;
/** The strategy's daily loss limit, KRW: a fall of 100 KRW of 10 shares reaches it. */
const LIMIT = 1_000;

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-daily-loss-days-'));
  writeFileSync(
    join(dir, 'risk.json'),
    JSON.stringify({ strategies: { a: { dailyLossLimitKrw: `${LIMIT}` } } }),
  );
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The KST date of an epoch ms. */
function kstDate(ms: number): string {
  return new Date(ms + 9 * 3_600_000).toISOString().slice(0, 10);
}

/** Runs the strategy with `orders` (KST date → quantity); the report and the halts `--verbose` logged. */
async function run(name: string, orders: Record<string, number>, to = TO) {
  const config = join(dir, `${name}.json`);
  const db = join(dir, `${name}.sqlite`);
  writeFileSync(config, JSON.stringify({ orders }));
  const result = await hogaBacktest([
    `${ORDERS_ON_DATES}:a`,
    ...['--config', config, '--risk-config', join(dir, 'risk.json')],
    ...['--symbols', '005930', '--interval', '1d', '--from', FROM, '--to', to, '--verbose', '--json'],
    ...[...simFlags(sim.url), '--db', db],
  ]);
  expect(result.code, result.stderr).toBe(0);
  const report = JSON.parse(result.stdout) as BacktestJson;
  const halted = [...result.stderr.matchAll(/halted strategy a: daily loss [\d,]+ KRW .*at=(\S+?),/g)].map(
    (m) => (m[1] as string).slice(0, 10),
  );
  return { report, halted, db };
}

/**
 * The days the position of `SHARES` bought at the first bar (filled at the second bar's open) lost
 * the limit, from the cached closes (the fill's commission left out: the days tested are clear of
 * the limit by more than it).
 */
function losingDays(db: string, extra: Record<string, number> = {}, to = TO): string[] {
  const bars = cachedBars(db, '005930', FROM, to);
  const days: string[] = [];
  let held = SHARES;
  for (let i = 1; i < bars.length; i++) {
    const bar = bars[i]!;
    const prev = bars[i - 1]!;
    const date = kstDate(bar.ts);
    // the fill day counts from its fill at the open, the later days from the last close
    const pnl = i === 1 ? held * (bar.close - bar.open) : held * (bar.close - prev.close);
    expect(Math.abs(Math.abs(pnl) - LIMIT), `${date} too near the limit to tell`).toBeGreaterThan(200);
    if (pnl <= -LIMIT) days.push(date);
    held += extra[kstDate(prev.ts)] ?? 0;
  }
  return days;
}

describe('hoga backtest and the daily loss limit on later days', () => {
  it('halts a strategy that orders nothing after its first halt on each later day it loses the limit', async () => {
    const { report, halted, db } = await run('once', { [FROM]: SHARES });
    const expected = losingDays(db);
    // the simulator's prices: the fill day and two later days in a row lose the limit
    expect(expected.length).toBeGreaterThanOrEqual(3);
    // before: only the first day (halts=1)
    expect(halted).toEqual(expected);
    expect(report.stats.halts).toEqual({ 'strategy:a': expected.length });
  }, 120_000);

  it('halts it on the day after a halt it ordered on, too', async () => {
    // an order on the day after the first halt, then nothing: before, its next losing day was
    // counted (the order read the lapsed halt) but the one after it was not
    const { report, halted, db } = await run('twice', { [FROM]: SHARES, '2025-01-06': 1 });
    const expected = losingDays(db, { '2025-01-06': 1 });
    expect(halted).toEqual(expected);
    expect(report.stats.halts).toEqual({ 'strategy:a': expected.length });
  }, 120_000);

  it("halts it on the run's last day too, though no bar comes after it", async () => {
    // the run ends on a losing day: the limits are evaluated after its last bar, as live evaluates
    // them on its last price (before, the last bar time was never evaluated)
    const last = '2025-01-08';
    const { report, halted, db } = await run('last-day', { [FROM]: SHARES }, last);
    const expected = losingDays(db, {}, last);
    expect(expected.at(-1)).toBe(last);
    expect(halted).toEqual(expected);
    expect(report.stats.halts).toEqual({ 'strategy:a': expected.length });
  }, 120_000);
});

describe('hoga backtest and the daily loss limit at the day edge', () => {
  it('counts the US after-market’s last minute (07:59–08:00 KST in winter) in the day it closes, not the next', async () => {
    // 10 AAPL bought in the last after-market minute of Monday 27 January 2025 (New York), the
    // bar stamped 18:00 New York = 08:00 KST on the 28th: its commission (0.1 %, about 2,500 KRW)
    // loses the 1,000 KRW limit; the position then moves less than that until 10:06 KST. Live sees that fill before 08:00, in the trading day of the 27th, and halts the
    // strategy until 08:00; a buy in the next day's day market (10:06 KST) is accepted. Before, the
    // backtest counted the fill in the day of the 28th and halted the strategy all that day: the
    // buy was denied risk-halted.
    const config = join(dir, 'edge.json');
    const db = join(dir, 'edge.sqlite');
    writeFileSync(
      config,
      JSON.stringify({
        orders: {
          '2025-01-27T17:58:00-05:00': { quantity: 10, price: 177.5 },
          '2025-01-28T10:06:00+09:00': { quantity: 1, price: 177.5 },
        },
      }),
    );
    const result = await hogaBacktest([
      `${ORDERS_ON_DATES}:a`,
      ...['--config', config, '--risk-config', join(dir, 'risk.json')],
      ...['--symbols', 'AAPL', '--interval', '1m', '--from', '2025-01-27', '--to', '2025-01-28'],
      ...['--verbose', '--json', ...simFlags(sim.url), '--db', db],
    ]);
    expect(result.code, result.stderr).toBe(0);
    // the simulator's bars: one stamped at the day edge, the next at 10:01 KST (the day market)
    const closes = cachedBars(db, 'AAPL', '2025-01-27', '2025-01-28', '1m').map((b) => b.closeTime);
    const edge = Date.parse('2025-01-28T08:00:00+09:00');
    expect(closes).toContain(edge);
    expect(closes).toContain(Date.parse('2025-01-28T10:06:00+09:00'));
    const report = JSON.parse(result.stdout) as BacktestJson;
    expect(report.trades.map((t) => `${t.time} ${t.side} ${t.quantity}`)).toEqual([
      '2025-01-28T08:00:00.000+09:00 BUY 10',
      expect.stringMatching(/^2025-01-28T10:0\d:00\.000\+09:00 BUY 1$/),
    ]);
    expect(report.stats.refused).toEqual({});
    // the halt is of the trading day of the 27th: it ends at the bar's stamp (before: at 08:00 of the 29th)
    const halts = [
      ...result.stderr.matchAll(/halted strategy a: .*\(scope=strategy:a, at=(\S+), until=(\S+)\)/g),
    ];
    expect(halts[0]?.slice(1)).toEqual(['2025-01-28T08:00:00.000+09:00', '2025-01-28T08:00:00.000+09:00']);
  }, 120_000);
});

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga as hogaBin, simFlags } from '../hoga-process.test-helper.js';
import { hogaBacktest as hoga, SMA } from './backtest-runs.test-helper.js';

/**
 * Each test starts `hoga backtest` as a user runs it (bin/hoga.js, the bundle): through tsx, which
 * compiled the CLI's sources at each start, 3–11 s a test with two busy loops on two cores, up to a
 * third of vitest's default 30 s; the bundle's starts are quicker, the limit kept for a loaded machine.
 */
const TSX_CHILD = { timeout: 120_000 };

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  // the exchange-rate endpoint at 60 a second, announced in X-RateLimit-Limit, which hoga follows:
  // at the spec's 3 a second the USD/KRW rates of this file's US runs (67 in one) took 40 of its 60 s
  sim = await startSimulator({
    port: 0,
    rateLimits: { MARKET_INFO: { perSecond: 60, peakPerSecond: null } },
  });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-range-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hoga backtest over a range in the future', TSX_CHILD, () => {
  it('says there are no bars (exit 1), not that the broker has no USD/KRW rate (exit 2)', async () => {
    const result = await hoga([
      SMA,
      '--symbols',
      '005930',
      '--interval',
      '1d',
      '--from',
      '2099-06-01',
      '--to',
      '2099-06-05',
      ...simFlags(sim.url),
      '--db',
      join(dir, 'hoga.sqlite'),
    ]);
    expect(result.stderr).toContain('no 1d bars for 005930 from 2099-06-01 to 2099-06-05');
    expect(result.stderr).not.toContain('USD/KRW');
    expect(result.code).toBe(1);
  });
});

describe('hoga backtest over a range that can hold no bar', TSX_CHILD, () => {
  const run = (interval: string, from: string, to: string) =>
    hoga([
      SMA,
      ...['--symbols', '005930', '--interval', interval, '--from', from, '--to', to],
      ...simFlags(sim.url),
      '--db',
      join(dir, 'empty.sqlite'),
    ]);

  it("says so before the broker's minute history (KR from 2022-11-23), not 'invalid-value: start: … NaN'", async () => {
    const result = await run('1m', '2020-01-01', '2020-01-03');
    expect(result.stderr).not.toContain('NaN');
    expect(result.stderr).toContain(
      "no 1m bars for 005930 from 2020-01-01 to 2020-01-03: the broker's minute candles start on 2022-11-23 for KR stocks",
    );
    expect(result.code).toBe(1);
  });

  it('says so for a date-time range inside one trading day on daily bars', async () => {
    const result = await run('1d', '2026-10-14T12:00:00+09:00', '2026-10-14T13:00:00+09:00');
    expect(result.stderr).not.toContain('NaN');
    expect(result.stderr).toContain(
      'no 1d bars for 005930 from 2026-10-14T12:00:00+09:00 to 2026-10-14T13:00:00+09:00: check the dates',
    );
    expect(result.code).toBe(1);
  });
});

describe(
  "hoga backtest starting before the broker's USD/KRW history (the simulator's starts 2020-01-01)",
  TSX_CHILD,
  () => {
    const run = (symbols: string, from: string, to: string) =>
      hoga([
        SMA,
        '--symbols',
        symbols,
        '--interval',
        '1d',
        '--from',
        from,
        '--to',
        to,
        '--json',
        ...simFlags(sim.url),
        '--db',
        join(dir, 'fx.sqlite'),
      ]);

    it('values the USD cash of a KR run at the first rate the range has', async () => {
      const result = await run('005930', '2019-12-02', '2020-02-28');
      expect(result.stderr).not.toContain('give one with --usd-krw');
      expect(result.code).toBe(0);
      const start = (JSON.parse(result.stdout) as { stats: { startEquity: string } }).stats.startEquity;
      expect(Number(start)).toBeGreaterThan(100_000_000);
    });

    it('runs a KR range wholly before the rate history when it holds no USD (--cash USD=0): no rate is needed', async () => {
      // before: 'the broker has no USD/KRW rate for the backtest range; give one with --usd-krw', exit 2
      const result = await hoga([
        SMA,
        ...['--symbols', '005930', '--interval', '1d', '--from', '2016-01-04', '--to', '2016-06-30'],
        ...['--cash', 'USD=0', '--json', ...simFlags(sim.url), '--db', join(dir, 'fx.sqlite')],
      ]);
      expect(result.stderr).not.toContain('USD/KRW');
      expect(result.code).toBe(0);
      const { stats } = JSON.parse(result.stdout) as { stats: { startEquity: string; trades: number } };
      expect(stats.startEquity).toBe('100000000');
      expect(stats.trades).toBeGreaterThan(0);
    });

    it("uses the rates of a US run's days once the history begins", async () => {
      const result = await run('AAPL', '2019-12-02', '2020-01-31');
      expect(result.stderr).not.toContain('give one with --usd-krw');
      expect(result.code).toBe(0);
    });
  },
);

describe("hoga backtest starting before a symbol's first bar", TSX_CHILD, () => {
  it('says where its bars begin, since the equity curve and CAGR count from --from', async () => {
    // the simulator's daily candles of 005930 begin in 2015: a run from 2010 holds cash alone for
    // four and a half years, which its CAGR counts (0.00 % for 0.03 % return), with nothing said
    const result = await hoga([
      SMA,
      ...['--symbols', '005930,AAPL', '--interval', '1d', '--from', '2010-06-01', '--to', '2015-12-31'],
      ...['--usd-krw', '1200', ...simFlags(sim.url), '--db', join(dir, 'late.sqlite')],
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /hoga: 005930 has 1d bars from 2015-\d\d-\d\d on \(the range starts 2010-06-01\): the equity curve, return and CAGR count from 2010-06-01\n/,
    );
    expect(result.stderr).toMatch(/hoga: AAPL has 1d bars from 20\d\d-\d\d-\d\d on/);
  });

  it('says nothing when the range starts on a weekend or a holiday', async () => {
    // 2015-10-03 is a Saturday (and Korea's National Foundation Day)
    const result = await hoga([
      SMA,
      ...['--symbols', '005930', '--interval', '1d', '--from', '2015-10-03', '--to', '2015-12-31'],
      ...['--usd-krw', '1200', ...simFlags(sim.url), '--db', join(dir, 'late.sqlite')],
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('has 1d bars from');
  });
});

describe("hoga backtest on minute bars from before the broker's minute history", TSX_CHILD, () => {
  it('says the run starts where the history does (KR 2022-11-23), where it said nothing', async () => {
    const result = await hoga([
      SMA,
      ...['--symbols', '005930', '--interval', '1m', '--from', '2022-11-01', '--to', '2022-11-23'],
      ...['--usd-krw', '1200', '--json', ...simFlags(sim.url), '--db', join(dir, 'minutes.sqlite')],
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "hoga: the broker's minute candles start on 2022-11-23 for KR stocks: their run starts there, not on 2022-11-01\n",
    );
    // its curve starts there too: no late-start note for the cut range
    expect(result.stderr).not.toContain('has 1m bars from');
    const { equity } = JSON.parse(result.stdout) as { equity: { time: string }[] };
    expect(equity[0]?.time.slice(0, 10)).toBe('2022-11-23');
  });
});

describe('hoga backtest wholly before the broker USD/KRW history, holding dollars', TSX_CHILD, () => {
  it('says once that it needs a rate, without a line per month it looked at', async () => {
    // before: twelve 'no USD/KRW rate for this time (at=…)' lines, one per sampled month, then the error
    const result = await hoga([
      SMA,
      ...['--symbols', '005930', '--interval', '1d', '--from', '2016-01-04', '--to', '2016-12-30'],
      ...simFlags(sim.url),
      ...['--db', join(dir, 'no-rate.sqlite')],
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('no USD/KRW rate for this time');
    expect(result.stderr.match(/USD\/KRW/g)).toHaveLength(1);
    expect(result.stderr).toContain(
      'the broker has no USD/KRW rate for the backtest range; give one with --usd-krw (e.g. --usd-krw 1350), or hold no dollars: --cash USD=0',
    );
  });

  it('says once which part of a US run has no rate, and runs on the nearest one', async () => {
    const result = await hoga([
      SMA,
      ...['--symbols', 'AAPL', '--interval', '1d', '--from', '2019-11-01', '--to', '2020-01-31'],
      ...simFlags(sim.url),
      ...['--db', join(dir, 'no-rate.sqlite')],
    ]);
    expect(result.code).toBe(0);
    // one line on the missing rates (beside the one saying how many rates it reads)
    expect(result.stderr.match(/no USD\/KRW rate/g)).toHaveLength(1);
    expect(result.stderr).toContain('hoga: USD/KRW: reading 67 rates from the broker');
    expect(result.stderr).toMatch(
      /hoga: the broker has no USD\/KRW rate from 2019-11-01 to 2019-12-31: the first rate after them \(2020-01-01\) values those days\n/,
    );
  });
});

describe('hoga backtest against a broker named without its credentials', TSX_CHILD, () => {
  it('says which are missing (exit 2) and makes no database', async () => {
    // before: the same message, but ./data/hoga.sqlite was left behind, empty
    const cwd = mkdtempSync(join(tmpdir(), 'hoga-no-credentials-'));
    try {
      const result = await hogaBin(
        [
          'backtest',
          SMA,
          ...['--symbols', '005930', '--interval', '1d', '--from', '2026-10-01', '--to', '2026-10-30'],
        ],
        { cwd, env: { HOGA_BASE_URL: sim.url } },
      );
      expect(result.err).toMatch(/^hoga: HOGA_CLIENT_ID, HOGA_CLIENT_SECRET are not set/);
      expect(result.code).toBe(2);
      expect(existsSync(join(cwd, 'data'))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('hoga backtest from a date-time on daily bars', TSX_CHILD, () => {
  it('starts the run and its equity curve at that instant, not at the candle stamp before it', async () => {
    // AAPL's bar of 2025-01-01 (New York) closes at 06:00 KST on 2025-01-02, after --from: it is
    // the run's; its stamp, 2025-01-01 00:00 KST, was the run's start (the clock, the timers, the
    // equity curve's first point and the CAGR's years began a day before --from)
    const result = await hoga([
      SMA,
      ...['--symbols', '005930,AAPL', '--interval', '1d'],
      ...['--from', '2025-01-02T00:00:00+09:00', '--to', '2025-01-10', '--json'],
      ...simFlags(sim.url),
      ...['--db', join(dir, 'date-time.sqlite')],
    ]);
    expect(result.code, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as {
      stats: { bars: number };
      equity: { time: string; equity: string }[];
    };
    expect(run.equity[0]?.time).toBe('2025-01-02T00:00:00.000+09:00');
    // 7 KR days (2025-01-02 to 01-10) and 8 US ones (01-01 to 01-10) on the simulator's weekdays
    expect(run.stats.bars).toBe(15);
    expect(run.equity[1]?.time).toBe('2025-01-02T06:00:00.000+09:00');
  });
});

describe('hoga backtest of a US symbol from a New York time to a date', TSX_CHILD, () => {
  it("runs the rest of that New York trading day (before: '--to (2025-01-03) is before --from', exit 2)", async () => {
    const run = (to: string) =>
      hoga([
        SMA,
        ...['--symbols', 'AAPL', '--interval', '1m', '--from', '2025-01-03T16:30:00-05:00', '--to', to],
        ...['--json', ...simFlags(sim.url), '--db', join(dir, 'new-york.sqlite')],
      ]);
    // the after-market of 2025-01-03, to its end at 18:00 New York
    const explicit = await run('2025-01-03T18:00:00-05:00');
    expect(explicit.code, explicit.stderr).toBe(0);
    const bars = (JSON.parse(explicit.stdout) as { stats: { bars: number } }).stats.bars;
    expect(bars).toBeGreaterThan(0);
    const byDate = await run('2025-01-03');
    expect(byDate.code, byDate.stderr).toBe(0);
    expect((JSON.parse(byDate.stdout) as { stats: { bars: number } }).stats.bars).toBe(bars);
  });
});

describe('hoga backtest of a US symbol on minute bars from a date', TSX_CHILD, () => {
  it.each([
    // the Monday after New York's change to daylight saving time: its day began at 20:00 EDT on Sunday
    ['2025-03-10', '2025-03-10T09:00:00.000+09:00'],
    // the Monday after the change back: 20:00 EST on Sunday
    ['2025-11-03', '2025-11-03T10:00:00.000+09:00'],
  ])('starts on %s at 20:00 New York the evening before, to the millisecond', async (date, start) => {
    const result = await hoga([
      SMA,
      ...['--symbols', 'AAPL', '--interval', '1m', '--from', date, '--to', date, '--json'],
      ...[...simFlags(sim.url), '--db', join(dir, 'us-date.sqlite')],
    ]);
    expect(result.code, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as { equity: { time: string }[] };
    // before: a millisecond later (…T09:00:00.001+09:00), the first candle stamp the date may hold
    expect(run.equity[0]?.time).toBe(start);
  });
});

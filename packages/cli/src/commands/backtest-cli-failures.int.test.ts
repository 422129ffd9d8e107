/**
 * `hoga backtest` when a run cannot go on: a bad config, a strategy that throws, a --db that is a
 * directory, an unknown symbol, a range with no bars, and Ctrl-C or SIGTERM between bars (the runs that trade are in
 * backtest-cli.int.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hoga as hogaBin, signalWhenStderrShows } from '../hoga-process.test-helper.js';
import { useBacktestCli } from './backtest-cli-fixture.test-helper.js';
import { hogaBacktest as hoga, ROOT } from './backtest-runs.test-helper.js';

const FIXTURES = join(ROOT, 'packages', 'cli', 'test', 'fixtures');
const THROWS = join(FIXTURES, 'throws-in-on-bar.ts');
const THROWS_IN_CONSTRUCTOR = join(FIXTURES, 'throws-in-constructor.ts');
const SLOW = join(FIXTURES, 'waits-each-bar.ts');

const cli = useBacktestCli();

describe('hoga backtest that cannot go on', () => {
  it('stops with exit code 2 on a bad config, naming the field, the value and what was expected', async () => {
    const config = join(cli.dir, 'bad.json');
    writeFileSync(config, JSON.stringify({ fast: 'five', quantity: -1 }));
    const result = await hoga(cli.args({ extra: ['--config', config] }));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`invalid config for strategy SmaCrossover (from ${config})`);
    expect(result.stderr).toMatch(/fast: found "five", expected .*number/);
    expect(result.stderr).toMatch(/quantity: found -1, expected .*>0/);
  }, 60_000);

  it('stops cleanly when a strategy throws in a hook: says which strategy and hook, and stores a consistent failed run', async () => {
    const result = await hoga(cli.args({ strategy: THROWS }));
    expect(result.code).toBe(1);
    // where in the strategy's file (relative to the working directory, the repository's root here)
    expect(result.stderr).toContain(
      'strategy ThrowsInOnBar threw in onBar: cannot handle the bar of 005930 (at packages/cli/test/fixtures/throws-in-on-bar.ts:18:50)',
    );
    const runId = /stored as ([0-9a-f-]{36})/.exec(result.stderr)?.[1] ?? '';
    // and where its report so far is, as for a stopped run (before, only its id)
    expect(result.stderr).toContain(`(failed): hoga db runs --id ${runId} --db ${cli.db}`);
    cli.readStore((database, stored) => {
      expect(stored.get(runId)).toMatchObject({ status: 'failed' });
      expect(stored.trades(runId).map((t) => [t.side, t.quantity.toFixed()])).toEqual([['BUY', '3']]);
      const orders = database.journal
        .readFrom(1, 100_000)
        .filter((e) => e.strategyId === 'ThrowsInOnBar' && e.mode === 'backtest' && e.type === 'OrderSummary')
        .map((e) => e.payload as { events: [string, number][]; fills: unknown[] });
      const last = orders[orders.length - 1];
      expect(last?.events.map(([type]) => type)).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
      expect(last?.fills).toHaveLength(1);
    });
    // hoga db runs --id says why it failed
    const shown = await hogaBin(['db', 'runs', '--db', cli.db, '--id', runId]);
    expect(shown.out).toMatch(/^status {10}failed$/m);
    expect(shown.out).toMatch(
      /^failure {9}strategy ThrowsInOnBar threw in onBar: cannot handle the bar of 005930/m,
    );
  }, 60_000);

  it('says which strategy threw in its constructor as for a hook, without the error code, and stores no run', async () => {
    const before = cli.readStore((_, stored) => stored.list({ limit: 1000 }).length);
    const result = await hoga(cli.args({ strategy: THROWS_IN_CONSTRUCTOR, extra: ['--json'] }));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    // before: 'hoga: strategy-hook-failed: strategy ThrowsInConstructor threw in constructor: …'; under
    // --json the failure is the last line of stderr, as JSON (cli-json-errors.int.test.ts)
    const failure = JSON.parse(result.stderr.trimEnd().split('\n').at(-1) ?? '') as {
      error: { code: string; message: string; exitCode: number };
    };
    expect(failure.error.message).toMatch(
      /^strategy ThrowsInConstructor threw in constructor: cannot read its model \(at \S*throws-in-constructor\.ts:\d+:\d+\)$/,
    );
    expect(failure.error).toMatchObject({ code: 'strategy-hook-failed', exitCode: 1 });
    expect(cli.readStore((_, stored) => stored.list({ limit: 1000 }).length)).toBe(before);
  }, 60_000);

  it('refuses a --db that is a directory with exit code 2, naming it, before any download (before: unexpected error EISDIR)', async () => {
    // the fixture's own --db comes last: this one after it
    const result = await hoga([...cli.args(), '--db', cli.dir]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `hoga: ${cli.dir} is a directory: give --db the path of a database file\nsee hoga backtest --help\n`,
    );
  }, 60_000);

  for (const c of [
    {
      name: 'refuses an unknown symbol with exit code 2 naming it',
      run: { symbols: ['999999'] },
      code: 2,
      message: 'unknown symbol 999999',
    },
    {
      name: 'fails with a clear message when the range holds no bars (a weekend)',
      run: { from: '2025-01-04', to: '2025-01-05' },
      code: 1,
      message: 'no 1d bars for 005930 from 2025-01-04 to 2025-01-05',
    },
  ]) {
    it(c.name, async () => {
      const result = await hoga(cli.args(c.run));
      expect(result.code).toBe(c.code);
      expect(result.stderr).toContain(c.message);
    }, 60_000);
  }
});

describe('hoga backtest interrupted by Ctrl-C', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'stops between bars at %s, runs onStop, stores the run as stopped with its trades, and exits %i',
    async (stopSignal, exitCode) => {
      const run = await hogaBin(['backtest', ...cli.args({ strategy: SLOW })], {
        onSpawn: signalWhenStderrShows('twentieth bar', stopSignal),
      });
      expect(run.code, run.err).toBe(exitCode);
      const runId = /the run is stored as ([\w-]+) \(stopped\)/.exec(run.err)?.[1];
      expect(runId, run.err).toBeDefined();
      const bars = Number(/interrupted after ([\d,]+) bars/.exec(run.err)?.[1]?.replace(/,/g, ''));
      // the strategy's onStop ran, after the same bars
      expect(run.err).toMatch(new RegExp(`stopping \\(bars=${bars}\\)`));
      expect(bars).toBeGreaterThanOrEqual(20);
      expect(bars).toBeLessThan(200);
      const stored = cli.readStore((_, runs) => ({
        run: runs.get(runId as string),
        trades: runs.trades(runId as string),
      }));
      expect(stored.run).toMatchObject({ status: 'stopped', stats: { bars, failure: null } });
      expect(stored.run?.endedAt).not.toBeNull();
      // a trade every 5 bars from the 5th on, each filling on the next bar
      expect(stored.trades.length).toBeGreaterThanOrEqual(Math.floor((bars - 1) / 5) - 1);
      expect(stored.trades.length).toBeLessThanOrEqual(Math.floor(bars / 5));
    },
    120_000,
  );
});

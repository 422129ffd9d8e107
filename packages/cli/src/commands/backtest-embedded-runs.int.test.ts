/**
 * A backtest against the embedded simulator (no broker configured, no `--db`) stores its run in
 * `./data/hoga-sim.sqlite`, apart from a real broker's cache: the report says where, and
 * `hoga db runs`, which reads `./data/hoga.sqlite` by default, points there instead of only saying
 * that no database exists. Real `hoga` processes in a fresh directory.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../hoga-process.test-helper.js';
import { ROOT, SMA } from './backtest-runs.test-helper.js';

const THROWS = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'throws-in-on-bar.ts');

let cwd: string;
let home: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'hoga-embedded-runs-'));
  home = tempHome();
});
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('a backtest against the embedded simulator', () => {
  it('says where its run is stored, and hoga db runs points there when its default database is missing or lacks the run', async () => {
    const options = { cwd, env: { HOME: home } };
    const backtest = await hoga(
      ['backtest', SMA, ...'--symbols 005930 --interval 1d --from 2025-01-01 --to 2025-03-31'.split(' ')],
      options,
    );
    expect(backtest.code, backtest.err).toBe(0);
    const sim = join(cwd, 'data', 'hoga-sim.sqlite');
    expect(existsSync(sim)).toBe(true);
    expect(existsSync(join(cwd, 'data', 'hoga.sqlite'))).toBe(false);
    const runId = /^ {2}run +(\S+)$/m.exec(backtest.out)?.[1];
    expect(runId).toBeDefined();
    // before: the report named the run but not the file it is in
    expect(backtest.out).toMatch(new RegExp(`^ {2}stored in +${literal(sim)}$`, 'm'));

    // before: "no database at …/data/hoga.sqlite: give --db or HOGA_DB", and nothing more
    const list = await hoga(['db', 'runs'], options);
    expect(list.code).toBe(2);
    expect(list.err).toContain(`no database at ${join(cwd, 'data', 'hoga.sqlite')}`);
    expect(list.err).toContain(
      `backtests against the embedded simulator are stored in ${sim}: add --db ${sim}`,
    );
    const one = await hoga(['db', 'runs', '--db', sim, '--id', runId as string], options);
    expect(one.code, one.err).toBe(0);
    expect(one.out).toMatch(new RegExp(`^run +${runId}$`, 'm'));

    // with a default database (of a real broker's data, say) that lacks the run: the same pointer
    expect((await hoga(['db', 'migrate'], options)).code).toBe(0);
    const elsewhere = await hoga(['db', 'runs', '--id', runId as string], options);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.err).toContain(`no run ${runId} in ${join(cwd, 'data', 'hoga.sqlite')}`);
    expect(elsewhere.err).toContain(`add --db ${sim}`);
    // a database named on purpose gets no pointer
    const named = await hoga(['db', 'runs', '--db', join(cwd, 'data', 'hoga.sqlite'), '--id', 'x'], options);
    expect([named.code, named.err]).toEqual([1, expect.not.stringContaining('embedded simulator')]);
  }, 120_000);

  it('stores the strategy file by its full path when given a relative one', async () => {
    const options = { cwd, env: { HOME: home } };
    copyFileSync(SMA, join(cwd, 'my-sma.ts'));
    const backtest = await hoga(
      [
        'backtest',
        'my-sma.ts',
        ...'--symbols 005930 --interval 1d --from 2025-01-01 --to 2025-03-31 --json'.split(' '),
      ],
      options,
    );
    expect(backtest.code, backtest.err).toBe(0);
    const { runId } = JSON.parse(backtest.out) as { runId: string };
    const one = await hoga(
      ['db', 'runs', '--db', join(cwd, 'data', 'hoga-sim.sqlite'), '--id', runId, '--json'],
      options,
    );
    expect(one.code, one.err).toBe(0);
    // before: "my-sma.ts", which names no file from any other directory
    expect((JSON.parse(one.out) as { strategyPath: string }).strategyPath).toBe(join(cwd, 'my-sma.ts'));
  }, 120_000);

  it("names the file in the command a failed run's message gives, so that the command works as printed", async () => {
    const options = { cwd, env: { HOME: home } };
    const backtest = await hoga(
      ['backtest', THROWS, ...'--symbols 005930 --interval 1d --from 2025-01-01 --to 2025-03-31'.split(' ')],
      options,
    );
    expect(backtest.code).toBe(1);
    // before: "… (failed): hoga db runs --id RUN", which reads ./data/hoga.sqlite and finds no run there
    const command = /\(failed\): hoga (db runs --id \S+.*)$/m.exec(backtest.err)?.[1];
    expect(command, backtest.err).toContain(`--db ${join(cwd, 'data', 'hoga-sim.sqlite')}`);
    const shown = await hoga((command as string).split(' '), options);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toMatch(/^status +failed$/m);
  }, 120_000);
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

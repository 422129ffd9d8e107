/**
 * A strategy whose `onStop` throws after another of its hooks failed: the run stops for the first
 * failure, as documented, and the second is said too (a warning naming the strategy, `onStop` and
 * the place), in a backtest as in paper. Before, it was logged at debug level only, so the
 * strategy's own clean-up failing went unseen unless `--verbose` was given. The real CLI over the
 * simulator on 127.0.0.1, real SQLite files.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags } from './hoga-process.test-helper.js';

let sim: SimulatorHandle;
const dir = mkdtempSync(join(tmpdir(), 'hoga-stop-failure-'));
const file = join(dir, 'stop-throws.ts');

beforeAll(async () => {
  // KR regular session, a simulated minute per real second: paper's second bar comes within seconds
  sim = await startSimulator({
    port: 0,
    start: '2026-11-23T10:00:00.000+09:00',
    speed: 60,
    rateLimit: false,
  });
  writeFileSync(
    file,
    `import { Strategy } from '@hoga/engine';

export default class StopThrows extends Strategy {
  private n = 0;
  override onBar(): void {
    if (++this.n === 2) throw new Error('bar boom');
  }
  override onStop(): void {
    throw new Error('stop boom');
  }
}
`,
  );
});
afterAll(() => sim.close());

const FIRST = /strategy StopThrows threw in onBar: bar boom \(at stop-throws\.ts:6:\d+\)/;
const SECOND = /strategy StopThrows threw in onStop: stop boom \(at stop-throws\.ts:9:\d+\)/;

describe('onStop throwing after another hook failed', () => {
  it('backtest: exit 1 for the first failure, and the onStop failure is said too', async () => {
    const run = await hoga(
      [
        'backtest',
        file,
        '--symbols',
        '005930',
        '--interval',
        '1m',
        '--from',
        '2026-11-23T09:00:00+09:00',
        '--to',
        '2026-11-23T09:10:00+09:00',
        '--db',
        join(dir, 'bt.sqlite'),
        ...simFlags(sim.url),
      ],
      { cwd: dir },
    );
    expect(run.code, run.err).toBe(1);
    expect(run.err).toMatch(FIRST);
    // before: nothing of it without --verbose
    expect(run.err).toMatch(SECOND);
  }, 60_000);

  it('paper: stops by itself with exit 1 for the first failure, and the onStop failure is said too', async () => {
    const run = await hoga(
      [
        'run',
        file,
        '--mode',
        'paper',
        '--symbols',
        '005930',
        '--candle-poll-ms',
        '250',
        '--db',
        join(dir, 'paper.sqlite'),
        ...simFlags(sim.url),
      ],
      { cwd: dir, killAfterMs: 60_000 },
    );
    expect(run.code, run.err + run.out).toBe(1);
    expect(run.err + run.out).toMatch(FIRST);
    expect(run.err + run.out).toMatch(SECOND);
  }, 70_000);
});

/**
 * Each strategy of a backtest warms up on the bars it asked for: `static warmupBars = 2` gets each
 * symbol's last 2 bars before `--from`, whatever the other strategies of the run asked for. The run
 * reads the most any strategy asked for; before, every strategy with a warm-up got all of them, so
 * a strategy's warm-up (and what it did with it) changed when another one joined the run: here
 * 5 warm-up bars a symbol, not 2. `hoga backtest` in a child process over the simulator's candles.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import { hogaBacktest as hoga } from './backtest-runs.test-helper.js';
import { useCliSimulator } from './cli-simulator.test-helper.js';

/** A strategy asking for `n` warm-up bars that says, at its first bar of the run, which it got. */
function counting(name: string, n: number): string {
  return `
import type { Bar } from '@hoga/core';
import { Strategy } from '@hoga/engine';

export default class ${name} extends Strategy {
  static readonly warmupBars = ${n};
  private readonly warm: string[] = [];
  private said = false;
  override onBar(bar: Bar): void {
    if (this.ctx.isWarmingUp) {
      // the bar's trading date (a daily bar is stamped at its KST midnight)
      this.warm.push(bar.symbol + '@' + new Date(bar.ts + 9 * 3_600_000).toISOString().slice(0, 10));
    } else if (!this.said) {
      this.said = true;
      this.ctx.log.info('warmed up on ' + this.warm.length + ': ' + this.warm.join(' '));
    }
  }
}
`;
}

const scratch = useCliSimulator('hoga-backtest-warmup-per-strategy-');
const db = join(scratch.dir, 'hoga.sqlite');
const five = join(scratch.dir, 'five.ts');
const two = join(scratch.dir, 'two.ts');
writeFileSync(five, counting('Five', 5));
writeFileSync(two, counting('Two', 2));
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

const ARGS = ['--symbols', '005930,000660', '--interval', '1d', '--from', '2026-10-12', '--to', '2026-10-16'];

function warmedUp(stderr: string, name: string): string | undefined {
  return new RegExp(`log {4}${name}: warmed up on (.+)$`, 'm').exec(stderr)?.[1];
}

describe('hoga backtest: a warm-up per strategy', { timeout: 180_000 }, () => {
  it('gives each strategy the warm-up bars it asked for, alone or beside one asking for more', async () => {
    const flags = [...ARGS, '--usd-krw', '1400', ...simFlags(scratch.sim.url), '--db', db];
    const alone = await hoga([two, ...flags]);
    expect(alone.code, alone.stderr).toBe(0);
    const own = warmedUp(alone.stderr, 'Two');
    // the last 2 trading days before 2026-10-12 (10-09 is a KRX holiday) of each symbol
    expect(own).toBe('4: 000660@2026-10-07 005930@2026-10-07 000660@2026-10-08 005930@2026-10-08');

    const together = await hoga([five, two, ...flags]);
    expect(together.code, together.stderr).toBe(0);
    expect(warmedUp(together.stderr, 'Five')).toMatch(/^10: /);
    // before: "10: …", the five bars a symbol the other strategy asked for
    expect(warmedUp(together.stderr, 'Two')).toBe(own);
  });
});

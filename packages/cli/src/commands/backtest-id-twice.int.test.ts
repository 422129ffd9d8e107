/**
 * `hoga backtest FILE.ts:ID --id OTHER` gives one strategy two ids: a usage error (exit 2) naming
 * both, before anything runs. Before, `--id` was dropped without a word and the run went on as ID.
 * The real `hoga` as a child process.
 */
import { describe, expect, it } from 'vitest';
import { hogaBacktest, SMA } from './backtest-runs.test-helper.js';

describe('hoga backtest FILE.ts:ID with --id', () => {
  it('refuses two ids for one strategy, naming both', async () => {
    const run = await hogaBacktest([
      `${SMA}:quick`,
      ...[
        '--id',
        'slow',
        '--symbols',
        '005930',
        '--interval',
        '1d',
        '--from',
        '2025-01-02',
        '--to',
        '2025-01-03',
      ],
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `hoga: the strategy is given two ids, quick (${SMA}:quick) and slow (--id): give one`,
    );
  }, 60_000);
});

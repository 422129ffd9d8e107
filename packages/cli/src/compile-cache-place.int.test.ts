/**
 * Where the code `hoga` compiles is cached: beside the bundle it came from (`dist/b-…/.compile-cache`,
 * removed with that build a day after a newer one), not in Node's default place under the system's
 * temporary directory, where every build ever run left its entries (1.4 MB for the bundle and one
 * per chunk each time; 384 MB on a developer's machine after two days). Both the command's own
 * cache and the run journal thread's. The real `hoga` as a child process, its `TMPDIR` a folder of
 * the test's own.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, REPO_ROOT, simFlags } from './hoga-process.test-helper.js';

let sim: SimulatorHandle;
const dir = mkdtempSync(join(tmpdir(), 'hoga-compile-cache-'));
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const DIST = join(REPO_ROOT, 'packages/cli/dist');

/** The build `dist/hoga.mjs` points at now. */
function currentBuild(): string {
  const build = /\.\/([^/]+)\/hoga\.mjs/.exec(readFileSync(join(DIST, 'hoga.mjs'), 'utf8'))?.[1];
  if (build === undefined) throw new Error('dist/hoga.mjs names no build');
  return build;
}

describe("hoga's compile cache", () => {
  it('is kept beside the bundle, not under the temporary directory, for a command and the journal thread', async () => {
    const temp = mkdtempSync(join(dir, 'tmp-'));
    const env = { TMPDIR: temp, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined };
    const quote = await hoga(['quote', '005930', ...simFlags(sim.url)], { env, cwd: dir });
    expect(quote.code, quote.err).toBe(0);
    // a backtest into a database file: its journal is written by a worker thread
    const backtest = await hoga(
      [
        'backtest',
        join(REPO_ROOT, 'strategies/sma-crossover.ts'),
        ...['--symbols', '005930', '--interval', '1d', '--from', '2026-10-01', '--to', '2026-11-05'],
        ...simFlags(sim.url),
        ...['--db', join(dir, 'bt.sqlite')],
      ],
      { env, cwd: dir },
    );
    expect(backtest.code, backtest.err).toBe(0);
    // before: Node's default place, $TMPDIR/node-compile-cache
    expect(existsSync(join(temp, 'node-compile-cache'))).toBe(false);
    const cache = join(DIST, currentBuild(), '.compile-cache');
    expect(existsSync(cache)).toBe(true);
    expect(readdirSync(cache).length).toBeGreaterThan(0);
  }, 120_000);
});

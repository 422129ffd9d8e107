/**
 * `hoga run`, the command that runs for hours, re-executes itself once in the same process with the
 * Node and glibc settings that keep a paper run's memory flat (bin/hoga.js; docs/order-manager.md,
 * stop 5): what the running process's command line and environment hold, read from /proc while
 * it runs against the simulator, and that it still stops on SIGTERM with exit code 0. Linux only.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, REPO_ROOT } from './hoga-process.test-helper.js';

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-run-settings-'));
  writeFileSync(join(dir, 'sma.json'), JSON.stringify({ fast: 3, slow: 8, quantity: 10 }));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the running `hoga run` process was started with, and how it ended. */
interface Seen {
  readonly argv: readonly string[];
  readonly env: ReadonlyMap<string, string>;
  readonly code: number | null;
}

/** Runs a paper run until its first status line, reads /proc, then stops it with SIGTERM. */
async function paperRun(name: string, extraEnv: Readonly<Record<string, string>>): Promise<Seen> {
  let argv: string[] = [];
  const env = new Map<string, string>();
  const run = await hoga(
    [
      'run',
      join(REPO_ROOT, 'strategies/sma-crossover.ts'),
      '--mode',
      'paper',
      '--symbols',
      '005930',
      '--interval',
      '1m',
      '--config',
      join(dir, 'sma.json'),
      '--status-every',
      '1',
      '--cash-krw',
      '100000000',
    ],
    {
      cwd: dir,
      env: {
        HOGA_BASE_URL: sim.url,
        HOGA_CLIENT_ID: 'sim-client',
        HOGA_CLIENT_SECRET: 'sim-secret',
        HOGA_DB: join(dir, `${name}.sqlite`),
        HOGA_TOKEN_FILE: join(dir, `${name}-token.json`),
        ...extraEnv,
      },
      onSpawn: (child) => {
        let read = false;
        child.stdout?.on('data', (chunk: Buffer) => {
          if (read || !/ status /.test(chunk.toString())) return;
          read = true;
          argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
          for (const entry of readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0')) {
            const at = entry.indexOf('=');
            if (at > 0) env.set(entry.slice(0, at), entry.slice(at + 1));
          }
          child.kill('SIGTERM');
        });
      },
    },
  );
  // the run follows the real clock: on a weekend or at night it says once that the market is closed
  expect(run.err.replace(/^hoga: (KR|US) market is closed at .*\n/gm, '')).toBe('');
  return { argv, env, code: run.code };
}

describe.runIf(process.platform === 'linux' && 'execve' in process)('hoga run', () => {
  it('runs with a fixed young generation, a 1.5 × old-generation growth and two malloc arenas, in the same process', async () => {
    const seen = await paperRun('tuned', {});
    expect(seen.code).toBe(0);
    // the node options come before the script, the command's own arguments after it
    const script = seen.argv.findIndex((a) => a.endsWith('hoga.js'));
    expect(seen.argv.slice(1, script)).toEqual(['--max-semi-space-size=8', '--heap-growing-percent=50']);
    expect(seen.argv.slice(script + 1, script + 3)).toEqual([
      'run',
      join(REPO_ROOT, 'strategies/sma-crossover.ts'),
    ]);
    expect(seen.env.get('MALLOC_ARENA_MAX')).toBe('2');
  });

  it('keeps the settings the user gave and adds only the others', async () => {
    const seen = await paperRun('user', { NODE_OPTIONS: '--max-semi-space-size=4', MALLOC_ARENA_MAX: '4' });
    expect(seen.code).toBe(0);
    const script = seen.argv.findIndex((a) => a.endsWith('hoga.js'));
    expect(seen.argv.slice(1, script)).toEqual(['--heap-growing-percent=50']);
    expect(seen.env.get('NODE_OPTIONS')).toBe('--max-semi-space-size=4');
    expect(seen.env.get('MALLOC_ARENA_MAX')).toBe('4');
  });

  it('runs untuned when asked', async () => {
    const seen = await paperRun('untuned', { HOGA_RUN_TUNED: '1' });
    expect(seen.code).toBe(0);
    const script = seen.argv.findIndex((a) => a.endsWith('hoga.js'));
    expect(seen.argv.slice(1, script)).toEqual([]);
    expect(seen.env.has('MALLOC_ARENA_MAX')).toBe(false);
  });
});

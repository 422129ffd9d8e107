/**
 * `hoga run` as a child process against the simulator, for the run's integration tests: the
 * simulator (seed 7, Monday 2026-11-23 10:00 KST at ×30) and a store in a temporary folder, the
 * child's environment, its output gathered, and a wait for a line of it. Test code only.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { BrokerClient } from '@hoga/connector';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { envWithoutHoga, HOGA_BIN } from '../hoga-process.test-helper.js';

export const run = promisify(execFile);
export const root = resolve(import.meta.dirname, '../../../..');
export const cli = join(import.meta.dirname, 'run-cli.test-helper.ts');
export const strategy = join(root, 'strategies/sma-crossover.ts');
export const restsBelow = join(root, 'packages/cli/test/fixtures/rests-below-market.ts');
export const throwsInOnBar = join(root, 'packages/cli/test/fixtures/throws-in-on-bar.ts');
export const throwsInOnStop = join(root, 'packages/cli/test/fixtures/throws-in-on-stop.ts');
export const throwsInConstructor = join(root, 'packages/cli/test/fixtures/throws-in-constructor.ts');

const sims: SimulatorHandle[] = [];

/** Closes the simulators the tests started (call from `afterEach`). */
export async function closeSims(): Promise<void> {
  await Promise.all(sims.splice(0).map((s) => s.close()));
}

/**
 * The environment of a `hoga` child on `sim` and `db`: no `HOGA_*` of the caller's shell, and the
 * token cache beside the database (never the user's `~/.hoga/tokens.json`).
 */
export function env(sim: SimulatorHandle, db: string): NodeJS.ProcessEnv {
  return {
    ...envWithoutHoga(),
    HOGA_BASE_URL: sim.url,
    HOGA_CLIENT_ID: 'sim-client',
    HOGA_CLIENT_SECRET: 'sim-secret',
    HOGA_DB: db,
    HOGA_TOKEN_FILE: join(dirname(db), 'tokens.json'),
  };
}

export interface Running {
  readonly child: ChildProcess;
  /** stdout and stderr, as they came. */
  readonly out: string[];
  /** stderr alone. */
  readonly err: string[];
  readonly exited: Promise<number | null>;
}

/** The last three runs `start` began: a wait that fails says what they printed. */
const begun: Running[] = [];

/**
 * How a test starts `hoga`: `bin/hoga.js`, as a user does (the bundle the `int` project's global
 * set-up built once, a strategy's `.ts` loaded with Node's own type stripping), not the sources
 * through tsx (compiled at each start: 1–2 s on an idle machine, 10–25 s seen on a loaded one).
 */
export const BUNDLE: readonly string[] = [HOGA_BIN];

/** Starts `hoga <args>` (the bundle a user runs), its output gathered. */
export function start(args: string[], environment: NodeJS.ProcessEnv): Running {
  const child = spawn(process.execPath, [...BUNDLE, ...args], { cwd: root, env: environment });
  const out: string[] = [];
  const err: string[] = [];
  child.stdout?.on('data', (c: Buffer) => out.push(c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => {
    out.push(c.toString('utf8'));
    err.push(c.toString('utf8'));
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const running = { child, out, err, exited };
  begun.push(running);
  if (begun.length > 3) begun.shift();
  return running;
}

/** The last runs begun, each its pid, whether it ended and the tail of its output (a failed wait's message). */
export function lastRunsSaid(tail = 1_200): string {
  return begun
    .map(({ child, out }) => {
      const state =
        child.exitCode !== null
          ? `exited ${child.exitCode}`
          : child.signalCode !== null
            ? `killed ${child.signalCode}`
            : 'running';
      return `--- hoga ${child.pid} (${state}) printed last:\n${out.join('').slice(-tail)}`;
    })
    .join('\n');
}

/**
 * The child's exit code once it exits by itself within `timeoutMs`; else `'still running'`, and the
 * child is killed (SIGKILL) so that the test leaves nothing behind.
 */
export async function exitedWithin(r: Running, timeoutMs: number): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    r.exited,
    new Promise<'still running'>((done) => {
      timer = setTimeout(() => done('still running'), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (code === 'still running') {
    r.child.kill('SIGKILL');
    await r.exited;
  }
  return code;
}

export async function until(r: Running, pattern: RegExp, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (pattern.test(r.out.join(''))) return true;
    await new Promise((x) => setTimeout(x, 200));
  }
  return false;
}

/**
 * The simulator (seed 7, Monday 2026-11-23 10:00 KST at `speed`, ×30 unless given; its control API
 * unless `control` is false) and a store and an SMA config in a fresh temporary folder. A test that
 * only waits for the market's next bars may ask for {@link FAST} (a 1m bar every half second).
 */
export async function setup(
  control = true,
  speed = 30,
): Promise<{ sim: SimulatorHandle; db: string; config: string }> {
  const sim = await startSimulator({
    port: 0,
    seed: 7,
    start: '2026-11-23T10:00:00+09:00',
    speed,
    control,
  });
  sims.push(sim);
  const dir = mkdtempSync(join(tmpdir(), 'hoga-run-'));
  const config = join(dir, 'sma.json');
  // quantity left to the schema's default (10): the stored run says what the strategy ran with
  writeFileSync(config, JSON.stringify({ fast: 3, slow: 8 }));
  return { sim, db: join(dir, 'hoga.sqlite'), config };
}

/**
 * The simulator (seed 7, Monday 2026-11-23 10:00 KST at ×1, rate limits on) listing `extra` more KR
 * symbols (400001, 400002, …), closed by {@link closeSims}.
 */
export async function simWithSymbols(extra: number): Promise<SimulatorHandle> {
  const sim = await startSimulator({
    port: 0,
    seed: 7,
    start: '2026-11-23T10:00:00+09:00',
    speed: 1,
    extraSymbols: extra,
  });
  sims.push(sim);
  return sim;
}

/** A simulator speed for tests that only wait on the market's bars: 120 simulated seconds a second. */
export const FAST = 120;

export const ARGS = [
  '--symbols',
  '005930,000660,035420',
  '--interval',
  '1m',
  '--status-every',
  '2',
  '--poll-ms',
  '300',
];

/** The run's arguments for one KR symbol (a strategy resting orders below the market). */
export const REST_ARGS = ['--symbols', '005930', ...ARGS.slice(2)];

/** A broker client of the simulator `sim` (closed by the caller). */
export function brokerOf(sim: SimulatorHandle): BrokerClient {
  return new BrokerClient({
    config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
  });
}

/** Reads the store `file` with `read` (opened and closed around it). */
export function readStore<T>(file: string, read: (db: HogaDatabase) => T): T {
  const db = HogaDatabase.open(file);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/**
 * Runs `hoga <args>` (the bundle a user runs) to its end in `root`, answering its stdout and stderr
 * together (`out`), its stdout alone (`stdout`: what `--json` prints, without a retry line a quick
 * second command may print on stderr) and its exit code (0 when it succeeded).
 */
export async function hogaToEnd(
  args: readonly string[],
  environment: NodeJS.ProcessEnv,
): Promise<{ out: string; stdout: string; code: number }> {
  try {
    const r = await run(process.execPath, [...BUNDLE, ...args], { cwd: root, env: environment });
    return { out: r.stdout + r.stderr, stdout: r.stdout, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { out: e.stdout + e.stderr, stdout: e.stdout, code: e.code };
  }
}

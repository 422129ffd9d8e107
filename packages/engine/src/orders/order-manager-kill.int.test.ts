/**
 * A live order-manager process killed with SIGKILL while placing, modifying and cancelling (each
 * command's answer held back by the simulator so the kill lands between the broker's commit and the
 * process reading the answer), restarted at once, and again after the `clientOrderId` window (the
 * simulator's clock advanced 11 minutes). Afterwards: no `clientOrderId` made two orders, the
 * store's fills per broker order equal the broker's executions, and the manager's positions equal
 * the broker's holdings.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allBrokerOrders,
  brokerFillsByOrder,
  KR_OPEN,
  simClient,
  simClock,
  storedFillsByBrokerOrder,
} from './live-fixture.test-helper.js';

const worker = join(import.meta.dirname, 'kill-worker.test-helper.ts');
const root = resolve(import.meta.dirname, '../../../..');
/** Packages the worker's bundle imports from node_modules (by absolute path): native or worker-thread code. */
const EXTERNAL = new Set(['better-sqlite3', 'pino', 'pino-pretty', 'thread-stream']);

/**
 * Bundles the worker into one ES module in `dir` (esbuild, which comes with tsx). Before, each of
 * the test's five worker processes ran the sources through `--import tsx`, compiling the engine,
 * the store and the connector again at every start: on a loaded two-core machine the five starts
 * and their work outlasted the test's 180 s.
 */
/** The part of esbuild's API used here (esbuild is not a dependency of the engine: tsx's is used). */
interface EsbuildApi {
  build(options: Record<string, unknown>): Promise<unknown>;
}
interface EsbuildPluginBuild {
  onResolve(
    options: { filter: RegExp },
    resolve: (args: { path: string; resolveDir: string }) => { path: string; external: boolean } | undefined,
  ): void;
}

async function bundleWorker(dir: string): Promise<string> {
  const fromRoot = createRequire(join(root, 'package.json'));
  const { build } = createRequire(fromRoot.resolve('tsx/package.json'))('esbuild') as EsbuildApi;
  const outfile = join(dir, 'kill-worker.mjs');
  await build({
    entryPoints: [worker],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
    banner: {
      js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);",
    },
    plugins: [
      {
        name: 'external-by-path',
        setup(b: EsbuildPluginBuild) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            const name = args.path.startsWith('@')
              ? args.path.split('/').slice(0, 2).join('/')
              : (args.path.split('/')[0] ?? '');
            if (!EXTERNAL.has(name)) return undefined;
            return {
              path: createRequire(join(args.resolveDir, 'noop.js')).resolve(args.path),
              external: true,
            };
          });
        },
      },
    ],
  });
  return outfile;
}
let workerBundle = '';

function start(
  url: string,
  db: string,
  mode: 'work' | 'settle',
  killAt = '',
): { child: ChildProcess; lines: string[]; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [workerBundle, url, db, mode], {
    cwd: root,
    env: { ...process.env, HOGA_KILL_AT: killAt },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((done) =>
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) process.stderr.write(stderr);
      done(code);
    }),
  );
  return { child, lines, exited };
}

async function waitFor(lines: string[], marker: string, timeoutMs = 60_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!lines.includes(marker)) {
    if (performance.now() > until)
      throw new Error(`no "${marker}" from the worker; saw ${lines.join(' | ')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Runs a worker until it prints `marker`, then kills it with SIGKILL while the answer is held. */
async function killAt(url: string, db: string, marker: string): Promise<void> {
  const run = start(url, db, 'work', marker);
  await waitFor(run.lines, marker);
  // The worker waits at the marker: the next order request is the command. Kill once it has
  // reached the broker (counted, then committed at once) while its answer is held back.
  const before = sim.counters().requestsByGroup.ORDER ?? 0;
  run.child.stdin?.write('go\n');
  const until = performance.now() + 30_000;
  while ((sim.counters().requestsByGroup.ORDER ?? 0) === before && performance.now() < until)
    await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 50));
  run.child.kill('SIGKILL');
  expect(await run.exited).toBeNull();
}

async function settle(url: string, db: string): Promise<{ unresolved: string[]; mismatched: string[] }> {
  const run = start(url, db, 'settle');
  expect(await run.exited).toBe(0);
  return JSON.parse(run.lines.at(-1) ?? '{}') as { unresolved: string[]; mismatched: string[] };
}

let sim: SimulatorHandle;
const bundleDir = mkdtempSync(join(tmpdir(), 'hoga-kill-worker-'));
beforeAll(async () => {
  workerBundle = await bundleWorker(bundleDir);
  sim = await startSimulator({ port: 0, seed: 7, start: KR_OPEN, speed: 0, control: true, rateLimit: false });
}, 120_000);
afterAll(async () => {
  await sim.close();
  rmSync(bundleDir, { recursive: true, force: true });
});

describe('order manager killed with SIGKILL mid-command', () => {
  it('duplicates no order and loses or doubles no fill across restarts, inside and after the key window', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'hoga-kill-')), 'hoga.sqlite');
    sim.injectFault({ kind: 'delay-after-commit', path: '/api/v1/orders*', method: 'POST', delayMs: 2_000 });

    await killAt(sim.url, db, 'modify 0'); // killed mid-modify
    await killAt(sim.url, db, 'submit 1'); // restarted at once; killed mid-create
    await killAt(sim.url, db, 'cancel 0'); // restarted at once (the create re-sent by key); killed mid-cancel
    await killAt(sim.url, db, 'submit 1'); // killed mid-create again
    sim.advanceClock(11 * 60_000); // past that create's 10-minute window: it is found in the history
    const settled = await settle(sim.url, db);
    sim.clearFaults();

    expect(settled.unresolved).toEqual([]);
    expect(settled.mismatched).toEqual([]);
    const counters = sim.counters();
    expect(Object.values(counters.ordersPerClientOrderId).every((n) => n === 1)).toBe(true);
    expect(counters.ordersCreated).toBeGreaterThanOrEqual(3);

    const clock = simClock(sim);
    const client = simClient(sim, clock);
    const store = HogaDatabase.open(db, { clock });
    try {
      const brokerOrders = await allBrokerOrders(client);
      const broker = brokerFillsByOrder(brokerOrders);
      const stored = storedFillsByBrokerOrder(store);
      expect([...stored].map(([id, q]) => [id, q.toString()]).sort()).toEqual(
        [...broker].map(([id, q]) => [id, q.toString()]).sort(),
      );
      const holdings = await client.getHoldings();
      const positions = store.connection.prepare('SELECT symbol, quantity FROM om_positions').all() as {
        symbol: string;
        quantity: string;
      }[];
      const ours = new Map(positions.map((p) => [p.symbol, p.quantity]));
      for (const item of holdings.items)
        expect([item.symbol, ours.get(item.symbol)]).toEqual([item.symbol, item.quantity.toString()]);
      // every broker order is owned by a logical order the manager made (nothing adopted as external)
      const owned = store.connection
        .prepare("SELECT count(*) AS n FROM orders WHERE client_order_id LIKE 'ext-%'")
        .get() as {
        n: number;
      };
      expect(owned.n).toBe(0);
      // the kills did land mid-command: interrupted creates, modifies and cancels, all settled
      const interrupted = store.connection
        .prepare("SELECT kind, status FROM order_commands WHERE error = 'interrupted' ORDER BY created_at")
        .all() as { kind: string; status: string }[];
      expect(new Set(interrupted.map((c) => c.kind))).toEqual(new Set(['create', 'modify', 'cancel']));
      expect(interrupted.every((c) => c.status === 'done')).toBe(true);
    } finally {
      client.close();
      store.close();
    }
    // five worker processes, each command's answer held 2 s: 146 s on a loaded machine with the
    // bundled worker (before, through tsx, it ran out of the 180 s it had)
  }, 300_000);
});

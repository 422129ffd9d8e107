/**
 * `hoga run` as a child process against the simulator (HOGA_* connection, HOGA_DB store): live
 * trades the SMA crossover and stops on SIGTERM with exit 0, and `hoga db fills|positions --json`
 * then agree with the broker; paper trades on live data with zero order requests reaching the
 * broker.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../../..');
const cli = join(import.meta.dirname, 'run-cli.test-helper.ts');
const strategy = join(root, 'strategies/sma-crossover.ts');

const sims: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

function env(sim: SimulatorHandle, db: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOGA_BASE_URL: sim.url,
    HOGA_CLIENT_ID: 'sim-client',
    HOGA_CLIENT_SECRET: 'sim-secret',
    HOGA_DB: db,
  };
}

interface Running {
  readonly child: ChildProcess;
  readonly out: string[];
  readonly exited: Promise<number | null>;
}

function start(args: string[], environment: NodeJS.ProcessEnv): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root, env: environment });
  const out: string[] = [];
  child.stdout?.on('data', (c: Buffer) => out.push(c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => out.push(c.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, out, exited };
}

async function until(r: Running, pattern: RegExp, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (pattern.test(r.out.join(''))) return true;
    await new Promise((x) => setTimeout(x, 200));
  }
  return false;
}

async function setup(): Promise<{ sim: SimulatorHandle; db: string; config: string }> {
  const sim = await startSimulator({
    port: 0,
    seed: 7,
    start: '2026-11-23T10:00:00+09:00',
    speed: 30,
    control: true,
  });
  sims.push(sim);
  const dir = mkdtempSync(join(tmpdir(), 'hoga-run-'));
  const config = join(dir, 'sma.json');
  writeFileSync(config, JSON.stringify({ fast: 3, slow: 8, quantity: 10 }));
  return { sim, db: join(dir, 'hoga.sqlite'), config };
}

const ARGS = [
  '--symbols',
  '005930,000660,035420',
  '--interval',
  '1m',
  '--status-every',
  '2',
  '--poll-ms',
  '300',
];

describe('hoga run', () => {
  it('live: trades, prints status lines, stops on SIGTERM with exit 0; db fills and positions match the broker', async () => {
    const { sim, db, config } = await setup();
    const r = start(['run', strategy, '--mode', 'live', '--config', config, ...ARGS], env(sim, db));
    expect(await until(r, / fill /, 90_000)).toBe(true);
    expect(await until(r, / status /, 10_000)).toBe(true);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    const text = r.out.join('');
    expect(text).toMatch(/order {2}BUY 10 \d+ MARKET/);
    expect(text).toMatch(/stopping/);

    const fills = JSON.parse(
      (
        await run(process.execPath, ['--import', 'tsx', cli, 'db', 'fills', '--json'], {
          cwd: root,
          env: env(sim, db),
        })
      ).stdout,
    ) as {
      symbol: string;
      side: string;
      quantity: string;
      price: string;
      commission: string;
      tax: string | null;
      filledAt: string;
      strategyId: string | null;
      brokerOrderId: string;
    }[];
    expect(fills.length).toBeGreaterThan(0);
    for (const f of fills) {
      expect(f.strategyId).toBe('SmaCrossover');
      expect(f.brokerOrderId).toEqual(expect.any(String));
      expect(Number(f.price)).toBeGreaterThan(0);
    }
    const positions = JSON.parse(
      (
        await run(process.execPath, ['--import', 'tsx', cli, 'db', 'positions', '--json'], {
          cwd: root,
          env: env(sim, db),
        })
      ).stdout,
    ) as {
      symbol: string;
      quantity: string;
    }[];
    // the broker's holdings, read over the API
    const { BrokerClient } = await import('@hoga/connector');
    const client = new BrokerClient({
      config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
    });
    try {
      const holdings = await client.getHoldings();
      expect(positions.map((p) => [p.symbol, p.quantity]).sort()).toEqual(
        holdings.items.map((i) => [i.symbol, i.quantity.toString()]).sort(),
      );
    } finally {
      client.close();
    }
  }, 150_000);

  it('paper: trades on live data with zero order requests reaching the broker', async () => {
    const { sim, db, config } = await setup();
    const r = start(['run', strategy, '--mode', 'paper', '--config', config, ...ARGS], env(sim, db));
    expect(await until(r, / fill /, 90_000)).toBe(true);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    const counters = sim.counters();
    expect(counters.requestsByGroup.ORDER ?? 0).toBe(0);
    expect(counters.ordersCreated).toBe(0);
    expect(counters.requestsByGroup.MARKET_DATA_CHART ?? 0).toBeGreaterThan(0);
    const positions = JSON.parse(
      (
        await run(
          process.execPath,
          ['--import', 'tsx', cli, 'db', 'positions', '--json', '--mode', 'paper'],
          { cwd: root, env: env(sim, db) },
        )
      ).stdout,
    ) as {
      symbol: string;
      quantity: string;
    }[];
    expect(positions.length).toBeGreaterThan(0);
  }, 150_000);
});

/**
 * `hoga run` as a child process against the simulator (HOGA_* connection, HOGA_DB store): live
 * trades the SMA crossover and stops on SIGTERM with exit 0, and `hoga db fills|positions --json`
 * then agree with the broker; paper trades on live data with zero order requests reaching the
 * broker.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { LedgerSnapshot } from '@hoga/broker-model';
import { BrokerClient } from '@hoga/connector';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase, RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../../..');
const cli = join(import.meta.dirname, 'run-cli.test-helper.ts');
const strategy = join(root, 'strategies/sma-crossover.ts');
const restsBelow = join(root, 'packages/cli/test/fixtures/rests-below-market.ts');
const throwsInOnBar = join(root, 'packages/cli/test/fixtures/throws-in-on-bar.ts');
const throwsInOnStop = join(root, 'packages/cli/test/fixtures/throws-in-on-stop.ts');

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

async function setup(control = true): Promise<{ sim: SimulatorHandle; db: string; config: string }> {
  const sim = await startSimulator({
    port: 0,
    seed: 7,
    start: '2026-11-23T10:00:00+09:00',
    speed: 30,
    control,
  });
  sims.push(sim);
  const dir = mkdtempSync(join(tmpdir(), 'hoga-run-'));
  const config = join(dir, 'sma.json');
  // quantity left to the schema's default (10): the stored run says what the strategy ran with
  writeFileSync(config, JSON.stringify({ fast: 3, slow: 8 }));
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
    // live: the strategies' cash is the budget of --cash-krw and --cash-usd (their defaults here)
    expect(text).toContain(
      "live on 005930,000660,035420 (1m), strategies' cash 10,000,000 KRW + $10,000.00, store",
    );
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

  it("follows the clock of a simulator started without its control API (hoga sim's default)", async () => {
    const { sim, db, config } = await setup(false);
    const r = start(['run', strategy, '--mode', 'paper', '--config', config, ...ARGS], env(sim, db));
    expect(await until(r, /status[^\n]*\n[^\n]*status/, 30_000)).toBe(true);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    // status lines stamped in the simulator's time (from 10:00 KST at ×30), not the wall clock's
    const stamps = [...r.out.join('').matchAll(/(\d\d):(\d\d):(\d\d) status/g)].map(
      (m) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]),
    );
    expect(stamps.length).toBeGreaterThanOrEqual(2);
    expect(stamps[0]).toBeGreaterThanOrEqual(10 * 3600);
    expect(stamps[0]).toBeLessThan(11 * 3600);
    // two status lines 2 real seconds apart are a minute of simulated time apart
    expect((stamps[1] as number) - (stamps[0] as number)).toBeGreaterThanOrEqual(40);
  }, 60_000);

  it("shows the strategy's own log records in the run's output, and writes every record to --log-file", async () => {
    const { sim, db } = await setup();
    const logFile = join(dirname(db), 'run.jsonl');
    const r = start(
      ['run', restsBelow, '--mode', 'paper', '--log-file', logFile, ...ARGS.slice(0, 2)],
      env(sim, db),
    );
    expect(await until(r, /resting a buy/, 30_000), r.out.join('')).toBe(true);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    // a line of the output, stamped in engine time, naming the strategy, with the record's fields
    expect(r.out.join('')).toMatch(
      /\d\d:\d\d:\d\d log +RestsBelowMarket: resting a buy \(symbol=005930, price=\d+\)/,
    );
    const records = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'info',
        msg: 'resting a buy',
        strategyId: 'RestsBelowMarket',
        symbol: '005930',
      }),
    );
  }, 60_000);

  it('stops when a strategy throws in a hook, saying which strategy and hook, exit 1, its fill stored', async () => {
    const { sim, db } = await setup();
    const config = join(dirname(db), 'throws.json');
    writeFileSync(config, JSON.stringify({ buyAt: 1, throwAt: 4 }));
    const r = start(['run', throwsInOnBar, '--mode', 'live', '--config', config, ...ARGS], env(sim, db));
    const code = await Promise.race([
      r.exited,
      new Promise<string>((done) => setTimeout(() => done('still running after 60 s'), 60_000)),
    ]);
    if (code === 'still running after 60 s') r.child.kill('SIGTERM');
    // before: the run went on with no strategy called and nothing said, until stopped by hand
    expect(code, r.out.join('')).toBe(1);
    expect(r.out.join('')).toContain(
      'hoga run: strategy ThrowsInOnBar threw in onBar: cannot handle the bar of',
    );
    // and where in the strategy's file
    expect(r.out.join('')).toMatch(/threw in onBar: .*\(at \S*throws-in-on-bar\.ts:18:50\)/);
    // said once it is done, not before
    expect(r.out.join('')).toMatch(/stopping…\n[\s\S]*stopped: strategies stopped, store flushed/);
    // what it bought before the throw is stored as the broker filled it
    const store = HogaDatabase.open(db, { readonly: true });
    const orders = store.orders.list({ mode: 'live' });
    store.close();
    expect(orders.map((o) => [o.side, o.quantity?.toFixed()])).toEqual([['BUY', '3']]);
    // the run is stored as failed
    const runs = readStore(db, (d) => new RunRepository(d.connection).list({ kind: 'live' }));
    expect(runs.map((r) => [r.strategyName, r.status])).toEqual([['ThrowsInOnBar', 'failed']]);
  }, 90_000);

  it('says so and exits 1 when a strategy throws in onStop as the run stops', async () => {
    const { sim, db } = await setup();
    const r = start(['run', throwsInOnStop, '--mode', 'paper', ...ARGS], env(sim, db));
    expect(await until(r, / status /, 60_000)).toBe(true);
    r.child.kill('SIGINT');
    // before: nothing was said and the exit code was 0
    expect(await r.exited).toBe(1);
    expect(r.out.join('')).toContain(
      'hoga run: strategy ThrowsInOnStop threw in onStop: cannot save its state',
    );
  }, 90_000);

  it('runs several strategies in one engine, each under its own id (FILE:ID), each with its own config', async () => {
    const { sim, db } = await setup();
    const dir = dirname(db);
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ buyAt: 1, throwAt: 1_000 }));
    const args = [
      'run',
      `${restsBelow}:low`,
      `${throwsInOnBar}:market`,
      '--mode',
      'paper',
      '--config',
      join(dir, 'none.json'),
      '--config',
      join(dir, 'a.json'),
      ...ARGS,
    ];
    const r = start(args, env(sim, db));
    // a --config of the first strategy that does not exist stops the start, naming it
    expect(await r.exited).toBe(2);
    expect(r.out.join('')).toMatch(/none\.json/);
    writeFileSync(join(dir, 'none.json'), '{}');
    const again = start(args, env(sim, db));
    expect(await until(again, /fill [^\n]*\[market\]/, 60_000), again.out.join('')).toBe(true);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    const store = HogaDatabase.open(db, { readonly: true });
    const orders = store.orders.list({ mode: 'paper' });
    store.close();
    // the limit buys 5 % under of 'low' on each symbol, the market buy of 'market' (its config: on its first bar)
    expect(new Set(orders.map((o) => `${o.strategyId} ${o.orderType}`))).toEqual(
      new Set(['low LIMIT', 'market MARKET']),
    );
    const tooMany = start(
      [
        'run',
        restsBelow,
        '--mode',
        'paper',
        '--config',
        join(dir, 'a.json'),
        '--config',
        join(dir, 'a.json'),
        ...ARGS,
      ],
      env(sim, db),
    );
    expect(await tooMany.exited).toBe(2);
    expect(tooMany.out.join('')).toContain('2 --config files for 1 strategy');
  }, 120_000);

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
    // what the paper run did is listed by hoga db fills and orders (it was in the journal only)
    const dbJson = async (...args: string[]) =>
      JSON.parse(
        (
          await run(process.execPath, ['--import', 'tsx', cli, 'db', ...args, '--json'], {
            cwd: root,
            env: env(sim, db),
          })
        ).stdout,
      ) as Record<string, string | null>[];
    const fills = await dbJson('fills');
    expect(fills.length).toBeGreaterThan(0);
    const net = new Map<string, number>();
    for (const f of fills) {
      expect(f.strategyId).toBe('SmaCrossover');
      expect(f.brokerOrderId).toMatch(/^paper-/);
      const q = Number(f.quantity) * (f.side === 'BUY' ? 1 : -1);
      net.set(f.symbol as string, (net.get(f.symbol as string) ?? 0) + q);
    }
    // the paper account's positions are the fills' net
    expect(positions.map((p) => [p.symbol, Number(p.quantity)]).sort()).toEqual(
      [...net].filter(([, q]) => q !== 0).sort(),
    );
    const orders = await dbJson('orders', '--mode', 'paper');
    expect(orders.length).toBeGreaterThanOrEqual(new Set(fills.map((f) => f.clientOrderId)).size);
    expect(orders.filter((o) => o.state === 'FILLED').length).toBe(
      new Set(fills.map((f) => f.clientOrderId)).size,
    );
    // the session is a stored run (hoga db runs listed backtests only): its fills, how it ended
    const runs = (await dbJson('runs', '--kind', 'paper')) as unknown as {
      runId: string;
      kind: string;
      strategy: string;
      status: string;
      params: { symbols: string[]; interval: string; strategies: { id: string; config: unknown }[] };
      stats: { trades: number; startEquity: number; endEquity: number };
    }[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      kind: 'paper',
      strategy: 'SmaCrossover',
      status: 'stopped',
      params: {
        symbols: ['005930', '000660', '035420'],
        interval: '1m',
        strategies: [{ id: 'SmaCrossover', config: { fast: 3, slow: 8, quantity: 10 } }],
      },
      stats: { trades: fills.length },
    });
    const one = (await dbJson('runs', '--id', runs[0]?.runId ?? '')) as unknown as {
      trades: { symbol: string; side: string; quantity: string; price: string }[];
      equity: unknown[];
    };
    expect(one.trades.map((t) => [t.symbol, t.side, t.quantity, t.price])).toEqual(
      fills.map((f) => [f.symbol, f.side, f.quantity, f.price]),
    );
    expect(one.equity.length).toBeGreaterThanOrEqual(2);
  }, 150_000);

  const REST_ARGS = ['--symbols', '005930', '--interval', '1m', '--status-every', '2', '--poll-ms', '300'];

  function brokerOf(sim: SimulatorHandle): BrokerClient {
    return new BrokerClient({
      config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
    });
  }

  function readStore<T>(file: string, read: (db: HogaDatabase) => T): T {
    const db = HogaDatabase.open(file);
    try {
      return read(db);
    } finally {
      db.close();
    }
  }

  it("live --cancel-on-stop: the run's resting orders are cancelled at the broker on SIGTERM; without the flag they stay open", async () => {
    const { sim, db } = await setup();
    const args = ['run', restsBelow, '--mode', 'live', ...REST_ARGS];
    const first = start(args, env(sim, db));
    expect(await until(first, / accepted /, 60_000)).toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const client = brokerOf(sim);
    try {
      const kept = (await client.listOrders({ status: 'OPEN' })).orders;
      expect(kept.map((o) => [o.symbol, o.side, o.orderType, o.quantity.toFixed()])).toEqual([
        ['005930', 'BUY', 'LIMIT', '1'],
      ]);

      // the next run places one more, and cancels both on stop
      const second = start([...args, '--cancel-on-stop'], env(sim, db));
      expect(await until(second, / accepted /, 60_000)).toBe(true);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      expect(second.out.join('')).toContain('cancel on stop: 2 open orders cancelled');
      expect((await client.listOrders({ status: 'OPEN' })).orders).toEqual([]);
      expect((await client.getOrder(kept[0]?.orderId ?? '')).status).toBe('CANCELED');
      const states = readStore(db, (d) =>
        d.orders
          .list({ mode: 'live' })
          .map((o) => o.state)
          .sort(),
      );
      expect(states).toEqual(['CANCELED', 'CANCELED']);
    } finally {
      client.close();
    }
  }, 150_000);

  it("paper --paper-from-account starts from the broker's cash and holdings; --cancel-on-stop cancels the restored and the new order", async () => {
    const { sim, db } = await setup();
    const args = ['run', restsBelow, '--mode', 'paper', ...REST_ARGS];
    const first = start([...args, '--paper-from-account'], env(sim, db));
    expect(await until(first, / accepted /, 60_000)).toBe(true);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    const client = brokerOf(sim);
    try {
      const [holdings, krw, usd] = await Promise.all([
        client.getHoldings(),
        client.getBuyingPower('KRW'),
        client.getBuyingPower('USD'),
      ]);
      const ledger = readStore(db, (d) => d.strategyState.get('paper/_account', 'ledger') as LedgerSnapshot);
      // a resting order holds a reservation, not cash: the saved ledger is the account's copy
      expect(ledger.cash).toEqual({ KRW: krw.cashBuyingPower.toFixed(), USD: usd.cashBuyingPower.toFixed() });
      expect(Object.entries(ledger.holdings).map(([s, h]) => [s, h.quantity, h.averagePrice])).toEqual(
        holdings.items.map((i) => [i.symbol, i.quantity.toFixed(), i.averagePurchasePrice.toFixed()]),
      );
      expect(holdings.items.length).toBeGreaterThan(0);
    } finally {
      client.close();
    }
    expect(readStore(db, (d) => d.strategyState.get('paper/_account', 'orders'))).toHaveLength(1);

    // the next run restores the resting order, places one more, and cancels both on stop
    const second = start([...args, '--cancel-on-stop'], env(sim, db));
    expect(await until(second, / accepted [\s\S]* accepted /, 60_000)).toBe(true);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(second.out.join('')).toContain('cancel on stop: 2 open orders cancelled');
    expect(readStore(db, (d) => d.strategyState.get('paper/_account', 'orders'))).toEqual([]);
    const canceled = readStore(db, (d) =>
      d.journal.readFrom(1, 10_000).filter((e) => e.mode === 'paper' && e.type === 'OrderCanceled'),
    );
    expect(canceled).toHaveLength(2);
    expect(sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);
  }, 150_000);
  it('exits 2 naming the file when a strategy fails to load or a --config is missing or not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-run-bad-'));
    const broken = join(dir, 'broken.ts');
    writeFileSync(broken, 'export default class Broken { onBar( {\n');
    const notJson = join(dir, 'sma.json');
    writeFileSync(notJson, '{"fast": 5,\n');
    const cases: [string[], string][] = [
      [[broken], `strategy file ${broken} failed to load`],
      [[strategy, '--config', notJson], `--config: ${notJson} is not JSON`],
      // before: exit 1, "unexpected error: [DecimalError] Invalid argument: abc"
      [[strategy, '--cash-krw', 'abc'], `'--cash-krw <amount>' argument 'abc' is invalid`],
      // before: a run with -5 KRW, its strategy's cash negative from the first buy
      [[strategy, '--cash-usd', '-5'], `'--cash-usd <amount>' argument '-5' is invalid`],
      [[strategy, '--poll-ms', 'fast'], `'--poll-ms <ms>' argument 'fast' is invalid`],
      [
        [strategy, '--config', join(dir, 'missing.json')],
        `--config: cannot read ${join(dir, 'missing.json')} (ENOENT)`,
      ],
    ];
    for (const [args, message] of cases) {
      const failed = await run(
        process.execPath,
        ['--import', 'tsx', cli, 'run', ...args, '--mode', 'paper'],
        {
          cwd: root,
          env: process.env,
        },
      ).then(
        () => null,
        (e: { code: number; stderr: string }) => e,
      );
      expect(failed?.stderr).toContain(message);
      expect(failed?.stderr).not.toContain('unexpected error');
      expect(failed?.code, failed?.stderr).toBe(2);
    }
  }, 60_000);

  it('refuses an unknown symbol with exit 2 naming it before anything runs; a symbol in lower case is the same symbol', async () => {
    const { sim, db } = await setup();
    const failed = await run(
      process.execPath,
      ['--import', 'tsx', cli, 'run', strategy, '--mode', 'paper', '--symbols', '999999,aapl'],
      { cwd: root, env: env(sim, db) },
    ).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    // before: exit 1 with the broker's stock-not-found from a warnings read
    expect(failed?.stderr).toContain('unknown symbol 999999');
    expect(failed?.code, failed?.stderr).toBe(2);
    const r = start(
      ['run', strategy, '--mode', 'paper', '--symbols', 'aapl', ...ARGS.slice(2)],
      env(sim, db),
    );
    expect(await until(r, / status /, 60_000)).toBe(true);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    expect(r.out.join('')).toContain('paper on AAPL (1m)');
    const runs = readStore(db, (d) => new RunRepository(d.connection).list({ kind: 'paper' }));
    expect(runs.map((x) => (x.params as { symbols: string[] }).symbols)).toEqual([['AAPL']]);
  }, 90_000);

  it('--risk-config: the run judges orders by the given risk configuration, and a bad one exits 2 naming the field', async () => {
    const { sim, db } = await setup();
    const dir = mkdtempSync(join(tmpdir(), 'hoga-run-risk-'));
    const allowOnly = join(dir, 'risk.json');
    writeFileSync(allowOnly, JSON.stringify({ defaults: { allowedSymbols: ['000660'] } }));
    const r = start(
      ['run', restsBelow, '--mode', 'live', '--risk-config', allowOnly, ...REST_ARGS],
      env(sim, db),
    );
    expect(await until(r, / denied /, 60_000)).toBe(true);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(r.out.join('')).toMatch(/denied \S+: risk-symbol-not-allowed /);
    // the session's end counts what was refused
    expect(r.out.join('')).toMatch(/refused orders: 1 \(risk-symbol-not-allowed 1\)/);
    const client = brokerOf(sim);
    try {
      expect((await client.listOrders({ status: 'OPEN' })).orders).toEqual([]);
      expect(sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);
    } finally {
      client.close();
    }

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ defaults: { maxOpenOrders: 'many' } }));
    const failed = await run(
      process.execPath,
      ['--import', 'tsx', cli, 'run', restsBelow, '--mode', 'live', '--risk-config', bad, ...REST_ARGS],
      { cwd: root, env: env(sim, db) },
    ).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain(`risk configuration ${bad}`);
    expect(failed?.stderr).toContain('maxOpenOrders');
  }, 120_000);
});

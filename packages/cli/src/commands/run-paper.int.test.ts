/**
 * `hoga run --mode paper` as a child process against the simulator: it trades on live data with
 * zero order requests reaching the broker, and `--paper-from-account` starts from the broker's cash
 * and holdings.
 */
import type { LedgerSnapshot } from '@hoga/broker-model';
import { afterEach, describe, expect, it } from 'vitest';
import { HOGA_BIN } from '../hoga-process.test-helper.js';
import {
  ARGS,
  brokerOf,
  closeSims,
  env,
  FAST,
  REST_ARGS,
  readStore,
  restsBelow,
  root,
  run,
  setup,
  start,
  strategy,
  until,
} from './run-process.test-helper.js';

afterEach(closeSims);

/** `hoga db … --json` on the run's store as a user runs it (the bundle: no compile through tsx at each start). */
async function readsDb(sim: Parameters<typeof env>[0], db: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, [HOGA_BIN, 'db', ...args, '--json'], {
    cwd: root,
    env: env(sim, db),
  });
  return JSON.parse(stdout) as Record<string, string | null>[];
}

describe('hoga run --mode paper', () => {
  it('paper: trades on live data with zero order requests reaching the broker', async () => {
    // at ×120 a candle poll (every 5 s) brings about ten bars: the SMA crosses in fewer polls
    const { sim, db, config } = await setup(true, FAST);
    const r = start(['run', strategy, '--mode', 'paper', '--config', config, ...ARGS], env(sim, db));
    expect(await until(r, / fill /, 90_000)).toBe(true);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    // paper too: --cash-krw/--cash-usd are the strategies' budget (their ctx.cash), said at the start
    // (before, only live said so; a later paper run's --cash-usd changed ctx.cash unannounced)
    expect(r.out.join('')).toContain(
      "paper on 005930,000660,035420 (1m), strategies' cash 10,000,000 KRW + $10,000.00, store",
    );
    const counters = sim.counters();
    expect(counters.requestsByGroup.ORDER ?? 0).toBe(0);
    expect(counters.ordersCreated).toBe(0);
    expect(counters.requestsByGroup.MARKET_DATA_CHART ?? 0).toBeGreaterThan(0);
    // what the paper run did is listed by hoga db positions, fills, orders and runs (it was in the
    // journal only): the four reads side by side
    const dbJson = (...args: string[]) => readsDb(sim, db, ...args);
    const [positions, fills, orders, listed] = await Promise.all([
      dbJson('positions', '--mode', 'paper') as Promise<{ symbol: string; quantity: string }[]>,
      dbJson('fills'),
      dbJson('orders', '--mode', 'paper'),
      dbJson('runs', '--kind', 'paper'),
    ]);
    expect(positions.length).toBeGreaterThan(0);
    expect(fills.length).toBeGreaterThan(0);
    // without --mode the command lists live positions: on a store of paper runs only, it says where
    // the paper account's are (before, only "no live positions" and "no live run has started … hoga
    // holdings shows the broker's now", as if the paper run had left nothing)
    const plain = await run(process.execPath, [HOGA_BIN, 'db', 'positions'], {
      cwd: root,
      env: env(sim, db),
    });
    expect(plain.stdout).toContain('no live positions');
    expect(plain.stderr).toContain(
      `the paper account on this store holds ${positions.length} position${positions.length === 1 ? '' : 's'}: hoga db positions --mode paper lists`,
    );
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
    expect(orders.length).toBeGreaterThanOrEqual(new Set(fills.map((f) => f.clientOrderId)).size);
    expect(orders.filter((o) => o.state === 'FILLED').length).toBe(
      new Set(fills.map((f) => f.clientOrderId)).size,
    );
    // the session is a stored run (hoga db runs listed backtests only): its fills, how it ended
    const runs = listed as unknown as {
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
    // the KR calendar the risk module read is in the store's cache, under this broker (so the next
    // process on the store, a `hoga order`, asks the broker for none of it)
    const calendars = readStore(db, (d) =>
      d.connection.prepare('SELECT broker, market FROM market_calendars').all(),
    ) as { broker: string; market: string }[];
    expect(calendars).toContainEqual({ broker: sim.url, market: 'KR' });
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

    // the next run restores the resting order, places one more, and cancels both on stop (the
    // restored order is worked again with no event, as live tracks it again: one accepted line)
    const second = start([...args, '--cancel-on-stop'], env(sim, db));
    expect(await until(second, / accepted /, 60_000)).toBe(true);
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

  it('a closed stdout (hoga run … | head) stops the run as Ctrl-C does: onStop runs, the session is stored stopped, exit 0', async () => {
    // Before: the first write after the pipe closed ended the process at once (exit 0), the
    // strategies' onStop never ran and the session stayed `running` in hoga db runs.
    const { sim, db } = await setup();
    const r = start(['run', restsBelow, '--mode', 'paper', ...REST_ARGS], env(sim, db));
    expect(await until(r, / accepted /, 60_000)).toBe(true);
    r.child.stdout?.destroy(); // the reader of the pipe is gone: the next status line meets EPIPE
    expect(await r.exited).toBe(0);
    const runs = (await readsDb(sim, db, 'runs', '--kind', 'paper')) as { status: string }[];
    expect(runs.map((x) => x.status)).toEqual(['stopped']);
  }, 90_000);
});

/**
 * The risk module of a live run knows the account's open orders that are not its strategies' own:
 * a buy placed with the real `hoga order` (a child process on the same SQLite file) while the run
 * works, and a buy placed at the broker by another channel (the run's order manager adopts it as
 * `ext-<brokerOrderId>`). A KR sell of a strategy while such a buy is open is denied
 * `opposite-pending-order-exists` before it is sent, as the broker would refuse it; once the buy
 * is cancelled elsewhere (`hoga order cancel`, the other channel), the strategy's sell is taken.
 * Before, the sell went to the broker and came back `OrderRejected … HTTP 422
 * opposite-pending-order-exists`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient, FileTokenCache, MirroredTokenCache } from '@hoga/connector';
import { Decimal, type OrderEvent } from '@hoga/core';
import { HogaDatabase, SqliteTokenCache } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  startSimulatedBroker,
  startTestRun,
  tempDbFile,
  until,
  Watch,
} from '../live/live-run.test-helper.js';
import type { StrategyContext } from '../strategy/strategy-context.js';

const HOGA_BIN = join(import.meta.dirname, '..', '..', '..', 'cli', 'bin', 'hoga.js');

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Runs the real `hoga` with `args`; answers its exit code and output. */
function hoga(
  args: readonly string[],
  home: string,
): Promise<{ code: number | null; out: string; err: string }> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('HOGA_') && !name.startsWith('npm_')) env[name] = value;
  }
  env.HOME = home;
  env.HOGA_TOKEN_FILE = join(home, 'tokens.json');
  env.NO_COLOR = '1';
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOGA_BIN, ...args], { cwd: home, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** A run of {@link Watch} as `seller` on 005930 over the simulator, on a SQLite file `hoga` shares. */
async function liveRun(mode: 'live' | 'paper' = 'live'): Promise<{
  client: BrokerClient;
  db: HogaDatabase;
  connection: string[];
  home: string;
  buyAt: Decimal;
  sellAt: Decimal;
  sell: () => string;
  buy: () => string;
  eventsOf: (id: string) => OrderEvent[];
}> {
  const { sim, clock } = await startSimulatedBroker(closers, { speed: 30 });
  const file = tempDbFile('hoga-outside-orders-');
  const db = HogaDatabase.open(file, { clock });
  closers.add(() => db.close());
  const home = mkdtempSync(join(tmpdir(), 'hoga-outside-orders-home-'));
  // the run's client shares its token as `hoga` does (through the token file and the store): a
  // token of its own would be revoked by the `hoga order` process's, and the other way round
  const client = new BrokerClient({
    clock,
    config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
    tokenCache: new MirroredTokenCache([
      new FileTokenCache(join(home, 'tokens.json')),
      new SqliteTokenCache(db),
    ]),
  });
  closers.add(() => client.close());
  const connection = ['--base-url', sim.url, '--client-id', 'sim-client', '--client-secret', 'sim-secret'];
  const [price] = await client.getPrices(['005930']);
  if (price === undefined) throw new Error('no price of 005930');
  const last = price.lastPrice.toNumber();
  // both rest: the buy 5% under the market, the sell 5% over it
  const buyAt = new Decimal(Math.floor((last * 0.95) / 100) * 100);
  const sellAt = new Decimal(Math.ceil((last * 1.05) / 100) * 100);
  Watch.ctx = null;
  const run = await startTestRun(
    { client, clock, db },
    {
      runId: 't-outside',
      mode,
      symbols: ['005930'],
      cashKrw: new Decimal(1_000_000),
      strategies: [{ strategyClass: Watch, id: 'seller' }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, onError: () => undefined },
  );
  closers.add(() => run.handle.stop());
  const ctx = Watch.ctx as StrategyContext | null;
  if (ctx === null) throw new Error('no context');
  return {
    client,
    db,
    connection: [...connection, '--db', file],
    home,
    buyAt,
    sellAt,
    buy: () => ctx.buy('005930', 1, buyAt),
    // of the account's 100 shares (the strategy holds none of its own)
    sell: () => ctx.submit({ symbol: '005930', side: 'SELL', quantity: 1, price: sellAt, fromAccount: true }),
    eventsOf: (id) => run.events.filter((e) => e.clientOrderId === id),
  };
}

const ANSWERS = ['OrderAccepted', 'OrderDenied', 'OrderRejected'];

/** The first answer to an order: accepted by the broker, denied by the risk module, or rejected by the broker. */
async function answerOf(eventsOf: (id: string) => OrderEvent[], id: string): Promise<OrderEvent> {
  await until(() => eventsOf(id).some((e) => ANSWERS.includes(e.type)));
  return eventsOf(id).find((e) => ANSWERS.includes(e.type)) as OrderEvent;
}

describe('an open order of the account placed outside the run', () => {
  it('by hoga order: a strategy’s KR sell is denied before it is sent while the buy is open, taken once hoga order cancel ends it', async () => {
    const r = await liveRun();
    // the outside buy: the real `hoga order`, another process on the same store
    const placed = await hoga(
      ['order', 'buy', '005930', '1', '--limit', r.buyAt.toFixed(), '--json', ...r.connection],
      r.home,
    );
    expect(placed.code, placed.err).toBe(0);
    const buy = JSON.parse(placed.out) as { clientOrderId: string; sent: boolean };
    expect(buy.sent).toBe(true);

    const first = r.sell();
    // denied by the risk module, never sent (not rejected by the broker)
    expect(await answerOf(r.eventsOf, first)).toMatchObject({
      type: 'OrderDenied',
      code: 'opposite-pending-order-exists',
    });

    // the buy ended by another process: the strategy's sell is taken
    const cancelled = await hoga(['order', 'cancel', buy.clientOrderId, '--json', ...r.connection], r.home);
    expect(cancelled.code, cancelled.err).toBe(0);
    expect((await answerOf(r.eventsOf, r.sell())).type).toBe('OrderAccepted');
  }, 240_000);

  it('by another channel: the sell is denied while the adopted buy is open, taken once it is cancelled there', async () => {
    const r = await liveRun();
    // straight at the broker, not through hoga: the run's order polls find and adopt it
    const placed = await r.client.createOrder({
      symbol: '005930',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: new Decimal(1),
      price: r.buyAt,
    });
    const external = `ext-${placed.orderId}`;
    await until(() => r.db.orders.get(external) !== null);

    const first = r.sell();
    expect(await answerOf(r.eventsOf, first)).toMatchObject({
      type: 'OrderDenied',
      code: 'opposite-pending-order-exists',
    });

    await r.client.cancelOrder(placed.orderId);
    // the run's polls see it ended
    await until(() => r.db.orders.get(external)?.state === 'CANCELED');
    expect((await answerOf(r.eventsOf, r.sell())).type).toBe('OrderAccepted');
  }, 240_000);

  it('paper: a live hoga order sell of the symbol open at the broker does not deny a paper buy (paper has its own venue)', async () => {
    const r = await liveRun('paper');
    const placed = await hoga(
      ['order', 'sell', '005930', '1', '--limit', r.sellAt.toFixed(), '--json', ...r.connection],
      r.home,
    );
    expect(placed.code, placed.err).toBe(0);
    expect((JSON.parse(placed.out) as { sent: boolean }).sent).toBe(true);
    expect((await answerOf(r.eventsOf, r.buy())).type).toBe('OrderAccepted');
  }, 240_000);
});

/**
 * The risk module of a live run knows the account's open orders that are not its strategies' own
 * (here a buy placed with the real `hoga order`, a child process on the same SQLite file, while the
 * run works): a KR sell of a strategy while that buy is open is denied
 * `opposite-pending-order-exists` before it is sent, as the broker would refuse it; once the buy is
 * cancelled by `hoga order cancel` (another process), the strategy's sell is taken. Before, the
 * sell went to the broker and came back `OrderRejected … HTTP 422 opposite-pending-order-exists`.
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

const HOGA_BIN = join(import.meta.dirname, '..', '..', '..', 'cli', 'bin', 'hoga.js');

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Runs the real `hoga` with `args`; answers its exit code and output. */
function hoga(args: readonly string[], home: string): Promise<{ code: number | null; out: string; err: string }> {
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

describe('an open order of the account placed outside the run', () => {
  it('denies a strategy’s KR sell before it is sent while the buy is open; takes it once the buy is cancelled elsewhere', async () => {
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
    const connection = [
      '--base-url',
      sim.url,
      '--client-id',
      'sim-client',
      '--client-secret',
      'sim-secret',
      '--db',
      file,
    ];
    const [price] = await client.getPrices(['005930']);
    if (price === undefined) throw new Error('no price of 005930');
    const last = price.lastPrice.toNumber();
    const buyAt = String(Math.floor((last * 0.95) / 100) * 100);
    const sellAt = new Decimal(Math.ceil((last * 1.05) / 100) * 100);

    Watch.ctx = null;
    const run = await startTestRun(
      { client, clock, db },
      {
        runId: 't-outside',
        mode: 'live',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Watch, id: 'seller' }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, onError: () => undefined },
    );
    closers.add(() => run.handle.stop());
    const ctx = Watch.ctx as import('../strategy/strategy-context.js').StrategyContext | null;
    if (ctx === null) throw new Error('no context');

    // the outside buy: the real `hoga order`, another process on the same store
    const placed = await hoga(['order', 'buy', '005930', '1', '--limit', buyAt, '--json', ...connection], home);
    expect(placed.err).toBe('');
    expect(placed.code).toBe(0);
    const buy = JSON.parse(placed.out) as { clientOrderId: string; sent: boolean };
    expect(buy.sent).toBe(true);

    const eventsOf = (id: string): OrderEvent[] => run.events.filter((e) => e.clientOrderId === id);
    const sell = (): string =>
      ctx.submit({ symbol: '005930', side: 'SELL', quantity: 1, price: sellAt, fromAccount: true });

    const first = sell();
    await until(() => eventsOf(first).some((e) => e.type === 'OrderDenied' || e.type === 'OrderRejected'));
    const refused = eventsOf(first).find((e) => e.type === 'OrderDenied' || e.type === 'OrderRejected');
    // denied by the risk module, never sent (not rejected by the broker)
    expect(refused).toMatchObject({ type: 'OrderDenied', code: 'opposite-pending-order-exists' });
    expect(eventsOf(first).map((e) => e.type)).not.toContain('OrderAccepted');

    // the buy ended by another process: the strategy's sell is taken
    const cancelled = await hoga(['order', 'cancel', buy.clientOrderId, '--json', ...connection], home);
    expect(cancelled.code).toBe(0);
    const second = sell();
    await until(() =>
      eventsOf(second).some((e) => ['OrderAccepted', 'OrderDenied', 'OrderRejected'].includes(e.type)),
    );
    expect(eventsOf(second).map((e) => e.type)).toContain('OrderAccepted');
    expect(eventsOf(second).map((e) => e.type)).not.toContain('OrderDenied');
  }, 240_000);
});

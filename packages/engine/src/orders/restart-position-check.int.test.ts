/**
 * `hoga run` started again on the same SQLite file and the same simulator (child processes): the
 * start compares the store's positions with the broker's holdings. A restart after the engine was
 * killed while its market buy was on its way (the broker filled it, the answer never came) has
 * nothing wrong: the start settles the create (its `clientOrderId` found at the broker) and counts
 * its fill. Before: the start compared before that fill was counted, printed `ALERT
 * PositionMismatch` (store 100, broker 102), barred the symbol, and a poll later `ALERT
 * PositionResolved`. A position that really differs (a fill lost by the store) is still reported,
 * and the symbol stays barred.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BrokerClient } from '@hoga/connector';
import { Decimal } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../../..');
/**
 * The `hoga` a user runs (bin/hoga.js: the bundle the `int` project's global set-up built), not the
 * sources through tsx, which compiled them at each of the file's four starts (2–25 s each).
 */
const hogaBin = join(root, 'packages/cli/bin/hoga.js');
/** Buys 2 at market on its 3rd bar. */
const strategy = join(root, 'packages/cli/test/fixtures/logs-fills.ts');
/**
 * Candles polled every second (the default, 5 s, brought the 3rd bar, and the buy, at the second
 * poll, 5 s after the start).
 */
const ARGS = [
  ...['--symbols', '005930', '--interval', '1m', '--status-every', '2', '--poll-ms', '300'],
  ...['--candle-poll-ms', '1000'],
];

interface Running {
  readonly child: ChildProcess;
  readonly out: string[];
  readonly exited: Promise<number | null>;
}

const opened: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

function hoga(sim: SimulatorHandle, db: string, args: string[]): Running {
  const child = spawn(process.execPath, [hogaBin, ...args], {
    cwd: root,
    env: {
      ...process.env,
      HOGA_BASE_URL: sim.url,
      HOGA_CLIENT_ID: 'sim-client',
      HOGA_CLIENT_SECRET: 'sim-secret',
      HOGA_DB: db,
    },
  });
  const out: string[] = [];
  child.stdout?.on('data', (c: Buffer) => out.push(c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => out.push(c.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  opened.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, out, exited };
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** Lines of a run's output after the first `status` line: the start is done by then. */
function statusSeen(r: Running, count: number): boolean {
  return (r.out.join('').match(/ status /g) ?? []).length >= count;
}

async function setup(): Promise<{ sim: SimulatorHandle; db: string }> {
  const sim = await startSimulator({
    port: 0,
    seed: 7,
    start: '2026-11-23T10:00:00+09:00',
    // a 1m bar every half second (×30 brought the strategy's 3rd bar, and its buy, 6 s after the start)
    speed: 120,
    control: true,
  });
  opened.push(() => sim.close());
  return { sim, db: join(mkdtempSync(join(tmpdir(), 'hoga-restart-check-')), 'hoga.sqlite') };
}

describe('hoga run started again: the position check', () => {
  it('after a kill while a market buy was on its way, says nothing: the fill is counted first', async () => {
    const { sim, db } = await setup();
    const first = hoga(sim, db, ['run', strategy, '--mode', 'live', ...ARGS]);
    expect(await until(() => statusSeen(first, 1), 90_000)).toBe(true);
    // the broker takes (and fills) the buy, and holds its answer back: the engine is killed waiting
    sim.injectFault({ kind: 'delay-after-commit', path: '/api/v1/orders', method: 'POST', delayMs: 120_000 });
    expect(await until(() => sim.counters().ordersCreated > 0, 90_000)).toBe(true);
    first.child.kill('SIGKILL');
    await first.exited;
    sim.clearFaults();

    const second = hoga(sim, db, ['run', strategy, '--mode', 'live', ...ARGS]);
    // a few status lines: the start and a few polls are done
    expect(await until(() => statusSeen(second, 3), 90_000)).toBe(true);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const text = second.out.join('');
    expect(text).not.toMatch(/ALERT position/);
    // the store counts what the broker holds (the second run buys 2 more on its 3rd bar)
    const client = new BrokerClient({
      config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
    });
    opened.push(() => client.close());
    const held = (await client.getHoldings()).items.find((h) => h.symbol === '005930')?.quantity;
    const store = HogaDatabase.open(db, { readonly: true });
    try {
      expect(
        store.connection.prepare('SELECT quantity FROM om_positions WHERE symbol = ?').get('005930'),
      ).toEqual({ quantity: held?.toFixed() });
    } finally {
      store.close();
    }
  }, 240_000);

  it('a position that differs from the holdings is reported and stays barred', async () => {
    const { sim, db } = await setup();
    const first = hoga(sim, db, ['run', strategy, '--mode', 'live', ...ARGS]);
    expect(await until(() => / fill /.test(first.out.join('')), 90_000)).toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // a fill the store lost (as an older version might have)
    const store = HogaDatabase.open(db);
    try {
      store.connection
        .prepare('UPDATE om_positions SET quantity = ? WHERE symbol = ?')
        .run(new Decimal(90).toFixed(), '005930');
    } finally {
      store.close();
    }
    const second = hoga(sim, db, ['run', strategy, '--mode', 'live', ...ARGS]);
    expect(await until(() => statusSeen(second, 3), 90_000)).toBe(true);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const text = second.out.join('');
    expect(text).toMatch(/ALERT position mismatch 005930: the store holds 90, the broker 102;/);
    expect(text).not.toMatch(/ALERT position 005930 agrees with the broker again/);
  }, 240_000);
});

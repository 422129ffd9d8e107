/**
 * A running live strategy's order modified or cancelled from another process: the real `hoga order
 * modify` / `hoga order cancel` as a child process, on the run's SQLite file, against the simulator
 * over HTTP. The strategy hears it as it hears a modify or cancel of its own: `OrderModified` with
 * the new terms (its `ctx.order()` and `ctx.openOrders()` show them), `OrderCanceled`; the later
 * fill is booked against the new terms. Before, the modify reached the strategy not at all: the
 * broker held 2 @ the new price while `ctx.order()` said 3 @ the old one, and no `OrderModified`
 * came (only this process's own commands made one).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BrokerClient } from '@hoga/connector';
import type { Bar, ClientOrderId, Fill, OrderEvent } from '@hoga/core';
import { HogaDatabase, SqliteTokenCache } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  type SimulatedBroker,
  startRunOf005930,
  startSimulatedBroker,
  tempDbFile,
  until,
} from '../live/live-run.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

const HOGA = fileURLToPath(new URL('../../../cli/bin/hoga.js', import.meta.url));

/** Runs the real `hoga order <args>` on the store `file`; answers its `--json` output. */
async function hogaOrder(
  s: SimulatedBroker,
  file: string,
  ...args: string[]
): Promise<{ outcome: string; brokerOrderId: string | null; events: string[] }> {
  const env: NodeJS.ProcessEnv = { HOME: mkdtempSync(join(tmpdir(), 'hoga-home-')), NO_COLOR: '1' };
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('HOGA_') && !(name in env)) env[name] = value;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      HOGA,
      'order',
      ...args,
      '--json',
      '--db',
      file,
      '--base-url',
      s.sim.url,
      '--client-id',
      'sim-client',
      '--client-secret',
      'sim-secret',
      '--sim-clock',
    ],
    { env, timeout: 90_000 },
  );
  return JSON.parse(stdout);
}

/** Rests a limit buy of 3 005930 5 % under the first bar's close; records what it hears and sees. */
class RestThree extends Strategy {
  static id: ClientOrderId | undefined;
  static limit = 0;
  /** Each event with the order as `ctx.order()` shows it then: `type quantity @ price state filled`. */
  static seen: string[] = [];
  static events: OrderEvent[] = [];
  static fills: Fill[] = [];
  /** `ctx.openOrders()` after each event, as `quantity @ price`. */
  static open: string[][] = [];

  override onBar(bar: Bar): void {
    if (RestThree.id !== undefined || bar.symbol !== '005930') return;
    RestThree.limit = Math.floor((bar.close * 0.95) / 100) * 100;
    RestThree.id = this.ctx.buy(bar.symbol, 3, RestThree.limit);
  }

  override onOrderEvent(event: OrderEvent): void {
    const o = RestThree.id === undefined ? null : this.ctx.order(RestThree.id);
    RestThree.events.push(event);
    RestThree.seen.push(
      `${event.type} ${o?.quantity?.toFixed()} @ ${o?.price?.toFixed()} ${o?.state} ${o?.filledQuantity.toFixed()}`,
    );
    RestThree.open.push(this.ctx.openOrders().map((x) => `${x.quantity?.toFixed()} @ ${x.price?.toFixed()}`));
  }

  override onFill(fill: Fill): void {
    RestThree.fills.push(fill);
  }

  static reset(): void {
    RestThree.id = undefined;
    RestThree.seen = [];
    RestThree.events = [];
    RestThree.fills = [];
    RestThree.open = [];
  }
}

/** A live run of {@link RestThree} until its order rests at the broker. */
async function restingOrder() {
  const s = await startSimulatedBroker(closers, { speed: 20 });
  const file = tempDbFile('hoga-outside-change-');
  const db = HogaDatabase.open(file, { clock: s.clock });
  closers.add(() => db.close());
  // the token shared through the store, as hoga's processes share it (a token of its own would be
  // revoked by the one hoga order is issued)
  const client = new BrokerClient({
    clock: s.clock,
    config: { baseUrl: s.sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
    tokenCache: new SqliteTokenCache(db),
  });
  closers.add(() => client.close());
  RestThree.reset();
  const run = await startRunOf005930({ client, clock: s.clock, db }, 'live', {
    strategyClass: RestThree,
  });
  closers.add(() => run.handle.stop());
  await until(() => RestThree.events.some((e) => e.type === 'OrderAccepted'));
  const accepted = RestThree.events.find((e) => e.type === 'OrderAccepted');
  if (accepted?.type !== 'OrderAccepted' || RestThree.id === undefined) throw new Error('not accepted');
  return { s, file, run, id: RestThree.id, told: accepted.brokerOrderId, limit: RestThree.limit };
}

describe("a running strategy's order changed from another process", () => {
  it('hoga order modify: the strategy hears OrderModified with the new terms, and the fill books against them', async () => {
    const { s, file, id, told, limit } = await restingOrder();
    const lower = limit - 700;
    const modify = await hogaOrder(s, file, 'modify', id, '--limit', String(lower), '--quantity', '2');
    expect(modify.outcome).toBe('sent');
    expect(modify.brokerOrderId).not.toBe(told);

    await until(() => RestThree.events.some((e) => e.type === 'OrderModified'));
    const modified = RestThree.events.find((e) => e.type === 'OrderModified');
    expect(modified).toMatchObject({
      clientOrderId: id,
      brokerOrderId: modify.brokerOrderId,
      previousBrokerOrderId: told,
    });
    if (modified?.type !== 'OrderModified') throw new Error('not modified');
    expect(modified.price?.toFixed()).toBe(String(lower));
    expect(modified.quantity?.toFixed()).toBe('2');
    expect(RestThree.seen).toEqual([
      `OrderSubmitted 3 @ ${limit} SUBMITTED 0`,
      `OrderAccepted 3 @ ${limit} ACCEPTED 0`,
      `OrderModified 2 @ ${lower} ACCEPTED 0`,
    ]);
    expect(RestThree.open.at(-1)).toEqual([`2 @ ${lower}`]);

    // the market falls through the new limit: the 2 fill, at most at it
    s.sim.setPrice('005930', String(lower - 1_000));
    await until(() => RestThree.events.some((e) => e.type === 'OrderFilled'));
    expect(RestThree.seen.slice(3)).toEqual([`OrderFilled 2 @ ${lower} FILLED 2`]);
    expect(RestThree.fills.map((f) => f.quantity.toFixed())).toEqual(['2']);
    expect(RestThree.fills[0]?.brokerOrderId).toBe(modify.brokerOrderId);
    expect(RestThree.fills[0]?.price.lte(lower)).toBe(true);
    expect(RestThree.open.at(-1)).toEqual([]);
  }, 120_000);

  it('hoga order modify then hoga order cancel: OrderModified, then OrderCanceled', async () => {
    const { s, file, id, limit } = await restingOrder();
    const lower = limit - 700;
    expect((await hogaOrder(s, file, 'modify', id, '--limit', String(lower))).outcome).toBe('sent');
    expect((await hogaOrder(s, file, 'cancel', id)).outcome).toBe('sent');
    await until(() => RestThree.events.some((e) => e.type === 'OrderCanceled'));
    expect(RestThree.seen).toEqual([
      `OrderSubmitted 3 @ ${limit} SUBMITTED 0`,
      `OrderAccepted 3 @ ${limit} ACCEPTED 0`,
      `OrderModified 3 @ ${lower} ACCEPTED 0`,
      `OrderCanceled 3 @ ${lower} CANCELED 0`,
    ]);
    expect(RestThree.open.at(-1)).toEqual([]);
  }, 120_000);

  it('hoga order cancel: the strategy hears OrderCanceled', async () => {
    const { s, file, id, limit } = await restingOrder();
    expect((await hogaOrder(s, file, 'cancel', id)).outcome).toBe('sent');
    await until(() => RestThree.events.some((e) => e.type === 'OrderCanceled'));
    expect(RestThree.seen).toEqual([
      `OrderSubmitted 3 @ ${limit} SUBMITTED 0`,
      `OrderAccepted 3 @ ${limit} ACCEPTED 0`,
      `OrderCanceled 3 @ ${limit} CANCELED 0`,
    ]);
    expect(RestThree.open.at(-1)).toEqual([]);
  }, 120_000);
});

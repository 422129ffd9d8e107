/**
 * Test fixture of the order-manager integration tests: the simulator on 127.0.0.1:0 (clock frozen
 * and moved by the test), a broker client, a SQLite file and an order manager whose clock reads the
 * simulator's. Test code only.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient, type OrderRecord } from '@hoga/connector';
import {
  type Clock,
  clientOrderId,
  createOrderIntent,
  Decimal,
  instrumentOf,
  newClientOrderId,
  newEventId,
  type OrderEvent,
  strategyId,
} from '@hoga/core';
import { type SimulatorHandle, type SimulatorOptions, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import type { CancelOrder, ModifyOrder, SubmitOrder } from '../commands/order-commands.js';
import { OrderManager, type OrderManagerOptions } from './order-manager.js';
import type { OrderManagerAlert } from './order-requests.js';

/** Monday 2026-11-23 10:00 KST: KR regular session. */
export const KR_OPEN = '2026-11-23T10:00:00+09:00';
/** Monday 2026-11-23 23:30 KST: US regular session (09:30 New York). */
export const US_OPEN = '2026-11-23T23:30:00+09:00';

/** A clock reading the (in-process) simulator's. */
export function simClock(sim: SimulatorHandle): Clock {
  return { now: () => sim.now(), nowMs: () => sim.now().toMillis() };
}

/** A broker client for the simulator. */
export function simClient(
  sim: SimulatorHandle,
  clock: Clock,
  config: Record<string, unknown> = {},
): BrokerClient {
  return new BrokerClient({
    clock,
    config: {
      baseUrl: sim.url,
      clientId: 'sim-client',
      clientSecret: 'sim-secret',
      backoffBaseMs: 20,
      backoffMaxMs: 100,
      ...config,
    },
  });
}

/** A frozen simulator, a clock reading it and a client for it. */
export interface FrozenSimulator {
  readonly sim: SimulatorHandle;
  readonly clock: Clock;
  readonly client: BrokerClient;
}

/**
 * Starts the simulator with its clock frozen (speed 0, moved by the test) at {@link KR_OPEN}, seed 7
 * and the control API on, unless `options` say otherwise (whether its rate limits are on, it must
 * say); a clock reading it and a client (with `clientConfig`).
 */
export async function startFrozenSimulator(
  options: SimulatorOptions & { readonly rateLimit: boolean },
  clientConfig: Record<string, unknown> = {},
): Promise<FrozenSimulator> {
  const sim = await startSimulator({ port: 0, seed: 7, start: KR_OPEN, speed: 0, control: true, ...options });
  const clock = simClock(sim);
  return { sim, clock, client: simClient(sim, clock, clientConfig) };
}

/** A running manager against a running simulator, with what it reported. */
export interface LiveFixture {
  readonly sim: SimulatorHandle;
  readonly client: BrokerClient;
  readonly clock: Clock;
  readonly dbFile: string;
  db: HogaDatabase;
  manager: OrderManager;
  readonly events: OrderEvent[];
  readonly alerts: OrderManagerAlert[];
  /** A new manager on the same file (a restart), replacing the current one. */
  restart(options?: OrderManagerOptions): OrderManager;
  close(): Promise<void>;
}

/** Starts the simulator and a manager. */
export async function startLive(
  start = KR_OPEN,
  options: OrderManagerOptions = {},
  clientConfig: Record<string, unknown> = {},
  rateLimit = false,
): Promise<LiveFixture> {
  const { sim, clock, client } = await startFrozenSimulator({ start, rateLimit }, clientConfig);
  const dbFile = join(mkdtempSync(join(tmpdir(), 'hoga-om-')), 'hoga.sqlite');
  const events: OrderEvent[] = [];
  const alerts: OrderManagerAlert[] = [];
  const build = (db: HogaDatabase, o: OrderManagerOptions): OrderManager => {
    const m = new OrderManager(client, db, clock, o);
    m.events$.subscribe((e) => events.push(e));
    m.alerts$.subscribe((a) => alerts.push(a));
    return m;
  };
  const db = HogaDatabase.open(dbFile, { clock });
  const fixture: LiveFixture = {
    sim,
    client,
    clock,
    dbFile,
    db,
    manager: build(db, options),
    events,
    alerts,
    restart(o = options) {
      fixture.db.close();
      fixture.db = HogaDatabase.open(dbFile, { clock });
      fixture.manager = build(fixture.db, o);
      return fixture.manager;
    },
    async close() {
      client.close();
      fixture.db.close();
      await sim.close();
    },
  };
  return fixture;
}

/**
 * {@link startLive} for the tests of a file: each fixture it starts is closed after its test. Call
 * at the top level of the file with vitest's `afterEach` (handed in: this file does not import
 * vitest, as the kill worker imports it in a child process).
 */
export function useLiveFixtures(
  afterEach: (close: () => Promise<void>) => void,
): (...args: Parameters<typeof startLive>) => Promise<LiveFixture> {
  const fixtures: LiveFixture[] = [];
  afterEach(async () => {
    await Promise.all(fixtures.splice(0).map((f) => f.close()));
  });
  return async (...args) => {
    const f = await startLive(...args);
    fixtures.push(f);
    return f;
  };
}

/** The daily price limits of `symbol` at the broker now; throws when it has none. */
export async function priceLimits(
  client: BrokerClient,
  symbol: string,
): Promise<{ lower: string; upper: string }> {
  const l = await client.getPriceLimits(symbol);
  if (l.lowerLimitPrice === null || l.upperLimitPrice === null)
    throw new Error(`no price limits for ${symbol}`);
  return { lower: l.lowerLimitPrice.toString(), upper: l.upperLimitPrice.toString() };
}

/** A limit buy placed straight at the broker, as from another channel (the broker's app): not through the manager. */
export async function externalLimitBuy(
  client: BrokerClient,
  symbol: string,
  quantity: number,
  price: string,
): Promise<void> {
  await client.createOrder({
    symbol,
    side: 'BUY',
    orderType: 'LIMIT',
    quantity: new Decimal(quantity),
    price: new Decimal(price),
  });
}

let commandSeq = 0;
const run = newEventId().slice(0, 8);

/** A submit command of a limit (or, without price, market) quantity order of `strategy` (default `test`). */
export function submitLimit(
  symbol: string,
  side: 'BUY' | 'SELL',
  quantity: string,
  price?: string,
  strategy = 'test',
): SubmitOrder {
  const common = {
    clientOrderId: newClientOrderId('t'),
    strategyId: strategyId(strategy),
    instrument: instrumentOf(symbol),
    side,
    sizing: 'QUANTITY' as const,
    quantity: new Decimal(quantity),
  };
  const intent =
    price === undefined
      ? createOrderIntent({ ...common, orderType: 'MARKET' })
      : createOrderIntent({ ...common, orderType: 'LIMIT', price: new Decimal(price) });
  return {
    type: 'SubmitOrder',
    commandId: `c${run}-${++commandSeq}`,
    strategyId: strategyId(strategy),
    tsInit: 0,
    intent,
  };
}

/** A submit command of a US amount (market) order. */
export function submitAmount(symbol: string, side: 'BUY' | 'SELL', amount: string): SubmitOrder {
  const intent = createOrderIntent({
    clientOrderId: newClientOrderId('t'),
    strategyId: strategyId('test'),
    instrument: instrumentOf(symbol),
    side,
    sizing: 'AMOUNT',
    orderType: 'MARKET',
    amount: new Decimal(amount),
  });
  return {
    type: 'SubmitOrder',
    commandId: `c${run}-${++commandSeq}`,
    strategyId: strategyId('test'),
    tsInit: 0,
    intent,
  };
}

/** A modify command of the order's strategy (new limit price, and quantity for KR). */
export function modifyTo(order: SubmitOrder, price: string, quantity?: string): ModifyOrder {
  return {
    type: 'ModifyOrder',
    commandId: `c${run}-${++commandSeq}`,
    strategyId: order.strategyId,
    tsInit: 0,
    clientOrderId: clientOrderId(order.intent.clientOrderId),
    orderType: 'LIMIT',
    price: new Decimal(price),
    ...(quantity === undefined ? {} : { quantity: new Decimal(quantity) }),
    confirmHighValue: false,
  };
}

/** A cancel command of the order's strategy. */
export function cancelOf(order: SubmitOrder): CancelOrder {
  return {
    type: 'CancelOrder',
    commandId: `c${run}-${++commandSeq}`,
    strategyId: order.strategyId,
    tsInit: 0,
    clientOrderId: clientOrderId(order.intent.clientOrderId),
  };
}

/** Every order of the account, open and closed (all pages). */
export async function allBrokerOrders(client: BrokerClient): Promise<OrderRecord[]> {
  const open = await client.listOrders({ status: 'OPEN' });
  const out = [...open.orders];
  let cursor: string | undefined;
  for (;;) {
    const page = await client.listOrders({
      status: 'CLOSED',
      limit: 100,
      ...(cursor === undefined ? {} : { cursor }),
    });
    out.push(...page.orders);
    if (!page.hasNext || page.nextCursor === null) break;
    cursor = page.nextCursor;
  }
  return out;
}

/** Fill quantities per broker order from the store's `fills`. */
export function storedFillsByBrokerOrder(db: HogaDatabase): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const f of db.fills.list({ limit: 100_000 })) {
    const id = f.brokerOrderId ?? '?';
    out.set(id, (out.get(id) ?? new Decimal(0)).plus(f.quantity));
  }
  return out;
}

/** The broker's filled quantity per order (orders with fills only). */
export function brokerFillsByOrder(orders: readonly OrderRecord[]): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const o of orders)
    if (!o.execution.filledQuantity.isZero()) out.set(o.orderId, o.execution.filledQuantity);
  return out;
}

/** Fill events as `<type> <clientOrderId> <brokerOrderId> <quantity>`. */
export function fillEvents(
  events: readonly OrderEvent[],
): { type: string; clientOrderId: string; brokerOrderId: string; quantity: Decimal }[] {
  const out: { type: string; clientOrderId: string; brokerOrderId: string; quantity: Decimal }[] = [];
  for (const e of events)
    if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled')
      out.push({
        type: e.type,
        clientOrderId: e.clientOrderId,
        brokerOrderId: e.fill.brokerOrderId,
        quantity: e.fill.quantity,
      });
  return out;
}

/** Sum of decimals. */
export function total(values: Iterable<Decimal>): Decimal {
  let sum = new Decimal(0);
  for (const v of values) sum = sum.plus(v);
  return sum;
}

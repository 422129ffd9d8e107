/**
 * A paper run whose store refuses writes (a full disk, an I/O error, the file locked past the busy
 * timeout; here a test-only trigger on the real SQLite file refuses every write of the `orders`
 * table), over the simulator on 127.0.0.1: new orders and modifies are refused before the paper
 * venue (`OrderDenied` / `OrderModifyRejected`, code `store-unavailable`) until the store takes
 * what waits for it; a cancel goes through, and its events are stored and told with the backlog.
 *
 * Before, the paper venue took every new order meanwhile: their `OrderSubmitted` and
 * `OrderAccepted` waited in the store's outbox, so the risk module (which counts the open orders it
 * has heard of) did not count them, and a strategy with `maxOpenOrders: 2` had five orders working
 * on the paper venue.
 */
import { type Bar, type ClientOrderId, Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Test-only triggers refusing every write of the `orders` table, as a full disk would. */
const REFUSE = [
  `CREATE TRIGGER test_refuse_insert BEFORE INSERT ON orders
     BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`,
  `CREATE TRIGGER test_refuse_update BEFORE UPDATE ON orders
     BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`,
];
const ALLOW = ['DROP TRIGGER test_refuse_insert', 'DROP TRIGGER test_refuse_update'];

/**
 * Acts once per phase the test sets, on the next bar of 005930, with resting limit buys of 1 share
 * 5 % under the close: 1, one buy (A); 2, four buys; 3, a modify and a cancel of A, and one buy;
 * 4, three buys. Records each order event it hears of.
 */
class Phases extends Strategy {
  static phase = 0;
  static events: OrderEvent[] = [];
  /** The orders placed in each phase. */
  static placed: ClientOrderId[][] = [];
  private done = 0;

  override onBar(bar: Bar): void {
    if (bar.symbol !== '005930' || this.done === Phases.phase) return;
    const phase = Phases.phase;
    this.done = phase;
    const price = Math.floor((bar.close * 0.95) / 100) * 100;
    const buys = [0, 1, 4, 1, 3][phase] ?? 0;
    if (phase === 3) {
      const a = Phases.placed[1]?.[0] as ClientOrderId;
      this.ctx.modify(a, { price: price - 100 });
      this.ctx.cancel(a);
    }
    const ids: ClientOrderId[] = [];
    for (let i = 0; i < buys; i++) ids.push(this.ctx.buy('005930', 1, price));
    Phases.placed[phase] = ids;
  }

  override onOrderEvent(event: OrderEvent): void {
    Phases.events.push(event);
  }
}

/** The events of `ids` of one type (and code, for refusals). */
function eventsOf(ids: readonly ClientOrderId[] | undefined, type: OrderEvent['type'], code?: string) {
  return Phases.events.filter(
    (e) =>
      ids?.includes(e.clientOrderId) === true &&
      e.type === type &&
      (code === undefined || ('code' in e && e.code === code)),
  );
}

describe('paper: new orders while the store refuses writes', () => {
  it('are refused (store-unavailable) before the venue, a cancel goes through, and orders resume once the store takes what waits', async () => {
    const { clock, client } = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-paper-refusing-orders-', clock);
    Phases.phase = 0;
    Phases.events = [];
    Phases.placed = [];
    const errors: string[] = [];
    const { handle } = await startTestRun(
      { client, clock, db },
      {
        runId: 't-paper-refusing',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Phases }],
      },
      {
        risk: { defaults: { maxOpenOrders: 2 } },
        pollIntervalMs: 200,
        streamIntervals: { candles1m: 300, orderbook: 200 },
        onError: (error, where) => errors.push(`${where}: ${String(error)}`),
      },
    );
    let failure: unknown = null;
    void handle.failed.then((e) => {
      failure = e;
    });
    closers.add(() => handle.stop());
    const refusedWrites = () => errors.filter((e) => e.startsWith('paper-store:')).length;

    // 1: A is stored and told accepted (one open order of the two allowed)
    Phases.phase = 1;
    await until(() => eventsOf(Phases.placed[1], 'OrderAccepted').length === 1, 90_000);

    // 2: the store refuses writes; four buys. The first one checked reaches the venue (the store
    // took every write so far); its submission, refused, waits; the others are refused at once
    for (const sql of REFUSE) db.connection.exec(sql);
    Phases.phase = 2;
    const decided = () =>
      eventsOf(Phases.placed[2], 'OrderDenied').length + (handle.status().openOrders - 1) >= 4;
    await until(() => refusedWrites() > 0 && decided(), 90_000);
    // the venue works A and one of the four: never more than the risk module's limit
    expect(handle.status().openOrders).toBe(2);
    const denied = eventsOf(Phases.placed[2], 'OrderDenied', 'store-unavailable');
    expect(denied).toHaveLength(3);
    expect(denied[0]).toMatchObject({
      reason: expect.stringMatching(/paper store refuses writes.*test: the disk is full.*resume once/),
    });

    // 3, still refused: the modify of A is refused, its cancel goes through (told once stored), the
    // new buy is refused
    Phases.phase = 3;
    const a = Phases.placed[1]?.[0] as ClientOrderId;
    await until(
      () =>
        eventsOf([a], 'OrderModifyRejected', 'store-unavailable').length === 1 &&
        eventsOf(Phases.placed[3], 'OrderDenied', 'store-unavailable').length === 1,
      90_000,
    );
    expect(handle.status().openOrders).toBe(1); // A canceled on the venue; the one of phase 2 works
    expect(eventsOf([a], 'OrderCanceled')).toEqual([]); // not stored: not told

    // the one of phase 2 that reached the venue: not told while not stored
    expect(eventsOf(Phases.placed[2], 'OrderSubmitted')).toEqual([]);

    // the store takes writes again: what waited is stored, then told
    for (const sql of ALLOW) db.connection.exec(sql);
    await until(
      () =>
        eventsOf([a], 'OrderCanceled').length === 1 &&
        Phases.events.some(
          (e) => e.type === 'OrderAccepted' && Phases.placed[2]?.includes(e.clientOrderId) === true,
        ),
      90_000,
    );

    // 4: orders resume, within the risk module's limit (the one of phase 2 and one more)
    Phases.phase = 4;
    await until(
      () =>
        eventsOf(Phases.placed[4], 'OrderAccepted').length +
          eventsOf(Phases.placed[4], 'OrderDenied').length ===
        3,
      90_000,
    );
    expect(eventsOf(Phases.placed[4], 'OrderAccepted')).toHaveLength(1);
    expect(eventsOf(Phases.placed[4], 'OrderDenied', 'risk-max-open-orders')).toHaveLength(2);
    expect(handle.status().openOrders).toBe(2);

    await handle.stop();
    expect(failure).toBeNull();
    expect(handle.unstoredAtStop()).toBeNull();
    // the store holds each order once: A canceled, two working
    const rows = db.orders.list({ mode: 'paper', limit: 100 });
    const working = rows.filter((r) => r.state === 'ACCEPTED').map((r) => r.clientOrderId);
    expect(working).toHaveLength(2);
    expect(rows.find((r) => r.clientOrderId === a)?.state).toBe('CANCELED');
    expect(new Set(rows.map((r) => r.clientOrderId)).size).toBe(rows.length);
    // each order told accepted at most once
    const accepted = Phases.events.filter((e) => e.type === 'OrderAccepted').map((e) => e.clientOrderId);
    expect(new Set(accepted).size).toBe(accepted.length);
    expect(accepted).toHaveLength(3);
  }, 240_000);
});

/**
 * The log of a paper run whose store refuses writes (a full disk; here test-only triggers on the
 * real SQLite file refuse every insert into the `orders` table and the journal), over the
 * simulator on 127.0.0.1, with a strategy that places a new order on every bar: each is denied
 * `store-unavailable` and its denial reaches the strategy, but the log says the store's refusal
 * with its cause (the paper store's), not a line for each denied order: the denied orders' rows
 * and journal lines are kept while the paper store refuses, not tried one by one, and stored
 * once the store takes writes again.
 *
 * Before, every denied order logged two error lines ("could not store a denied order", "could not
 * journal an event") for as long as the disk was full: a line or two per bar, the run's own lines
 * buried.
 */
import { type Bar, type ClientOrderId, createLogger, Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Test-only triggers refusing every insert into the orders table and the journal, as a full disk would. */
const REFUSE = ['orders', 'journal'].map(
  (table) => `CREATE TRIGGER test_refuse_${table} BEFORE INSERT ON ${table}
     BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`,
);
const ALLOW = ['DROP TRIGGER test_refuse_orders', 'DROP TRIGGER test_refuse_journal'];

/**
 * Resting limit buys of 1 share of 005930, 5 % under the close: phase 1, one on the next bar;
 * phase 2, one on every bar (a strategy retrying its entry); phase 3, two on the next bar.
 */
class Retrying extends Strategy {
  static phase = 0;
  static events: OrderEvent[] = [];
  /** The orders placed in each phase. */
  static placed: ClientOrderId[][] = [[], [], [], []];
  private done = 0;

  override onBar(bar: Bar): void {
    if (bar.symbol !== '005930') return;
    const phase = Retrying.phase;
    if (phase === 0 || (phase !== 2 && this.done === phase)) return;
    this.done = phase;
    const price = Math.floor((bar.close * 0.95) / 100) * 100;
    const buys = phase === 3 ? 2 : 1;
    for (let i = 0; i < buys; i++) Retrying.placed[phase]?.push(this.ctx.buy('005930', 1, price));
  }

  override onOrderEvent(event: OrderEvent): void {
    Retrying.events.push(event);
  }
}

/** The events of `ids` of one type (and code, for refusals). */
function eventsOf(ids: readonly ClientOrderId[] | undefined, type: OrderEvent['type'], code?: string) {
  return Retrying.events.filter(
    (e) =>
      ids?.includes(e.clientOrderId) === true &&
      e.type === type &&
      (code === undefined || ('code' in e && e.code === code)),
  );
}

describe('paper: the log while the store refuses writes', () => {
  it('says the store refusal with its cause, not a line per denied order, and stores the denied orders once it takes writes', async () => {
    const { clock, client } = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-paper-refusal-log-', clock);
    Retrying.phase = 0;
    Retrying.events = [];
    Retrying.placed = [[], [], [], []];
    const records: Record<string, unknown>[] = [];
    /** What the run told `onError` (the CLI logs it). */
    const told: string[] = [];
    const logger = createLogger({
      level: 'debug',
      destination: {
        write: (line: string) => void records.push(JSON.parse(line) as Record<string, unknown>),
      },
    });
    const { handle } = await startTestRun(
      { client, clock, db },
      {
        runId: 't-paper-refusal-log',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Retrying }],
      },
      {
        logger,
        risk: { defaults: { maxOpenOrders: 2 } },
        onError: (error, where) => told.push(`${where}: ${String(error)}`),
        pollIntervalMs: 200,
        streamIntervals: { candles1m: 300, orderbook: 200 },
      },
    );
    let failure: unknown = null;
    void handle.failed.then((e) => {
      failure = e;
    });
    closers.add(() => handle.stop());

    // 1: A is stored, journalled and told accepted
    Retrying.phase = 1;
    await until(() => eventsOf(Retrying.placed[1], 'OrderAccepted').length === 1, 90_000);
    const a = Retrying.placed[1]?.[0] as ClientOrderId;
    const journalledA = db.journal.forOrder(a).length;
    expect(journalledA).toBeGreaterThanOrEqual(2);

    // 2: the disk is full; a buy on every bar, each denied store-unavailable (but the first, which
    // may reach the venue before the store refused a write), each denial told to the strategy
    for (const sql of REFUSE) db.connection.exec(sql);
    Retrying.phase = 2;
    const deniedMeanwhile = () => eventsOf(Retrying.placed[2], 'OrderDenied', 'store-unavailable').length;
    await until(() => deniedMeanwhile() >= 8, 120_000);
    Retrying.phase = 0;

    // the store takes writes again; 3: two buys, at least one denied by the risk module (two open
    // orders at most) and stored
    for (const sql of ALLOW) db.connection.exec(sql);
    Retrying.phase = 3;
    await until(
      () =>
        eventsOf(Retrying.placed[3], 'OrderAccepted').length +
          eventsOf(Retrying.placed[3], 'OrderDenied').length ===
        2,
      90_000,
    );
    await handle.stop();
    expect(failure).toBeNull();

    const said = (msg: RegExp) => records.filter((r) => msg.test(String(r.msg)));
    // each order of phase 2 was denied (its denial told to the strategy) or reached the venue
    const placed = Retrying.placed[2] ?? [];
    for (const id of placed)
      expect(
        Retrying.events.some((e) => e.clientOrderId === id && /OrderDenied|OrderSubmitted/.test(e.type)),
      ).toBe(true);
    // the denials made while the store refused: kept, and stored once it took writes again (row
    // and journal line), none lost
    const meanwhile = eventsOf(placed, 'OrderDenied', 'store-unavailable').map((e) => e.clientOrderId);
    expect(meanwhile.length).toBeGreaterThanOrEqual(8);
    for (const id of meanwhile) {
      expect(db.orders.get(id)).toMatchObject({
        state: 'DENIED',
        rejectReason: expect.stringMatching(/^store-unavailable: /),
      });
      expect(db.journal.forOrder(id).map((e) => e.type)).toContain('OrderDenied');
    }
    // the store's refusal is told with its cause by the paper store (whose refused write comes
    // first), its tries fewer than the denials (paced); the recorder, which keeps its writes
    // without trying them while the paper store refuses, logs at most its first refused write of
    // each kind, its refused tries fewer than the denials; and the store taking them again at most
    // once for each
    const paperRefused = told.filter((t) => t.startsWith('paper-store:'));
    expect(paperRefused.length).toBeGreaterThan(0);
    expect(paperRefused.length).toBeLessThan(meanwhile.length);
    expect(paperRefused[0]).toMatch(/test: the disk is full/);
    const errors = records.filter((r) => Number(r.level) >= 50);
    const tries = (lines: Record<string, unknown>[]) => 1 + lines.reduce((n, r) => n + Number(r.repeats), 0);
    for (const [first, more, again] of [
      [
        /could not store a denied order/,
        /more refused tr(y|ies) to store the kept/,
        /denied orders are stored again/,
      ],
      [
        /could not journal an event/,
        /more refused tr(y|ies) to journal the kept/,
        /order events are journalled again/,
      ],
    ]) {
      expect(said(first as RegExp).length).toBeLessThanOrEqual(1);
      expect(tries(said(more as RegExp))).toBeLessThan(meanwhile.length);
      expect(said(again as RegExp).length).toBeLessThanOrEqual(1);
    }
    // not an error line per denied order
    expect(errors.length).toBeLessThan(meanwhile.length);

    // nothing stored before is lost: A's row and journal lines; the denial stored after
    expect(db.orders.get(a)?.state).toBe('ACCEPTED');
    expect(db.journal.forOrder(a).length).toBeGreaterThanOrEqual(journalledA);
    const deniedLater = eventsOf(Retrying.placed[3], 'OrderDenied').map((e) => e.clientOrderId);
    expect(deniedLater.length).toBeGreaterThan(0);
    for (const id of deniedLater) expect(db.orders.get(id)?.state).toBe('DENIED');
  }, 300_000);
});

/**
 * The paper store over a real SQLite file: an event is told (`publish`) only once the store holds
 * it, in the order the venue emitted it; what waits for a refused write is told right after the
 * write that stores it, and an event the runtime's reaction brings meanwhile comes after it; at the
 * stop, what still waits is neither stored nor told.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ledger } from '@hoga/broker-model';
import {
  type BrokerOrderId,
  clientOrderId,
  createLogger,
  createOrderIntent,
  Decimal,
  type Instrument,
  Money,
  type OrderEvent,
  strategyId,
} from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { PAPER_STATE_ID, PaperStore } from './paper-store.js';

const kr: Instrument = { symbol: '005930', market: 'KR', currency: 'KRW', securityType: 'STOCK' };
const T0 = Date.parse('2026-11-23T10:00:00+09:00');
const sid = strategyId('s');

/** An order's submission, acceptance and fill of 2 at 65,000. */
function orderEvents(name: string): OrderEvent[] {
  const id = clientOrderId(name);
  const broker = `paper-${name}` as BrokerOrderId;
  const base = { clientOrderId: id, strategyId: sid, tsEvent: T0, tsInit: T0 };
  const intent = createOrderIntent({
    clientOrderId: id,
    strategyId: sid,
    instrument: kr,
    side: 'BUY',
    sizing: 'QUANTITY',
    orderType: 'MARKET',
    quantity: new Decimal(2),
  });
  return [
    { type: 'OrderSubmitted', eventId: `${name}-1`, ...base, intent },
    { type: 'OrderAccepted', eventId: `${name}-2`, ...base, brokerOrderId: broker },
    {
      type: 'OrderFilled',
      eventId: `${name}-3`,
      ...base,
      fill: {
        fillId: `${name}-f`,
        clientOrderId: id,
        brokerOrderId: broker,
        symbol: '005930',
        side: 'BUY',
        quantity: new Decimal(2),
        price: new Decimal(65_000),
        commission: Money.of(new Decimal(10), 'KRW'),
        cumulativeQuantity: new Decimal(2),
        tsEvent: T0,
      },
    },
  ];
}

const REFUSE = `CREATE TRIGGER test_refuse BEFORE INSERT ON fills
  BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`;

const open: HogaDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

/** A store on a fresh file, what it told, and the errors it said. */
function paperStore(react?: (event: OrderEvent, store: PaperStore) => void) {
  const db = HogaDatabase.open(join(mkdtempSync(join(tmpdir(), 'hoga-paper-store-')), 'hoga.sqlite'));
  open.push(db);
  const ledger = new Ledger({ KRW: new Decimal(1_000_000) });
  const told: string[] = [];
  const errors: unknown[] = [];
  const store: PaperStore = new PaperStore(
    db,
    () => ({ ledger: ledger.snapshot(), orders: [], liquidity: {} }),
    createLogger({ level: 'silent' }),
    (error) => errors.push(error),
    (event) => {
      told.push(event.eventId);
      react?.(event, store);
    },
  );
  return { db, store, told, errors };
}

describe(PaperStore, () => {
  it('tells each event once the store holds it, in order', () => {
    const { db, store, told } = paperStore();
    for (const e of orderEvents('a')) store.onEvent(e, e.type !== 'OrderAccepted');
    expect(told).toEqual(['a-1', 'a-2', 'a-3']);
    expect(db.fills.list({ mode: 'paper' })).toHaveLength(1);
  });

  it('a refused fill waits with the events after it, all told in order once a write stores them', () => {
    const { db, store, told, errors } = paperStore();
    db.connection.exec(REFUSE);
    const [submitted, accepted, filled] = orderEvents('a');
    store.onEvent(submitted as OrderEvent, true);
    store.onEvent(accepted as OrderEvent, false);
    store.onEvent(filled as OrderEvent, true);
    // an event with nothing to store waits behind the refused one
    const requested: OrderEvent = {
      type: 'OrderCancelRequested',
      eventId: 'a-4',
      clientOrderId: clientOrderId('a'),
      strategyId: sid,
      tsEvent: T0,
      tsInit: T0,
      brokerOrderId: 'paper-a' as BrokerOrderId,
    };
    store.onEvent(requested, false);
    expect(told).toEqual(['a-1', 'a-2']);
    expect(errors).toHaveLength(1);
    expect(store.refusing).toBe(true);
    expect(store.flush()).toBe(false);
    expect(told).toEqual(['a-1', 'a-2']);

    db.connection.exec('DROP TRIGGER test_refuse');
    expect(store.flush()).toBe(true);
    expect(told).toEqual(['a-1', 'a-2', 'a-3', 'a-4']);
    expect(db.fills.list({ mode: 'paper' })).toHaveLength(1);
    expect(store.refusing).toBe(false);
  });

  it("an event the runtime's reaction brings while the waiting ones are told comes after them", () => {
    const later = orderEvents('b');
    const { db, store, told } = paperStore((event, s) => {
      // the strategy places an order when it hears of the first fill
      if (event.eventId === 'a-3') for (const e of later) s.onEvent(e, e.type !== 'OrderAccepted');
    });
    db.connection.exec(REFUSE);
    const first = orderEvents('a');
    for (const e of first) store.onEvent(e, e.type !== 'OrderAccepted');
    store.onEvent({ ...(first[1] as OrderEvent), eventId: 'a-5' }, false);
    db.connection.exec('DROP TRIGGER test_refuse');
    store.flush();
    expect(told).toEqual(['a-1', 'a-2', 'a-3', 'a-5', 'b-1', 'b-2', 'b-3']);
    expect(db.fills.list({ mode: 'paper' })).toHaveLength(2);
  });

  it('at the stop, events still waiting are neither stored nor told, and the ledger is left as stored', () => {
    const { db, store, told, errors } = paperStore();
    const [submitted, accepted, filled] = orderEvents('a');
    store.onEvent(submitted as OrderEvent, true);
    store.onEvent(accepted as OrderEvent, false);
    const ledger = db.strategyState.get(PAPER_STATE_ID, 'ledger');
    db.connection.exec(REFUSE);
    store.onEvent(filled as OrderEvent, true);
    // the store takes writes again once the strategies have stopped: too late to tell them
    db.connection.exec('DROP TRIGGER test_refuse');
    expect(store.close()).toBe(1);
    expect(told).toEqual(['a-1', 'a-2']);
    expect(db.fills.list({ mode: 'paper' })).toEqual([]);
    expect(db.strategyState.get(PAPER_STATE_ID, 'ledger')).toEqual(ledger);
    expect(String(errors.at(-1))).toMatch(/1 order event of this paper run and its ledger are not stored/);
  });
});

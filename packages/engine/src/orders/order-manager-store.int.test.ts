/**
 * The order manager's store on a real SQLite file: a create is written to the command log before
 * the send, and its command row and logical order right after; a crash in between leaves only the
 * log entry, from which startup builds both rows as the send would have stored them. A fill
 * counted in a transaction that is rolled back is counted again by the next report.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createOrderIntent,
  Decimal,
  instrumentOf,
  newClientOrderId,
  type OrderIntent,
  strategyId,
  VirtualClock,
} from '@hoga/core';
import { CommandJournal, HogaDatabase, type NewOrder } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { type CumulativeExecution, executionDelta } from './execution-delta.js';
import { CommandStatus, type LoggedCreate, OrderManagerStore, STALE } from './order-manager-store.js';
import { createContent, newOrderOf } from './order-requests.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(): HogaDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'hoga-om-store-'));
  dirs.push(dir);
  return HogaDatabase.open(join(dir, 'store.sqlite'), {
    clock: new VirtualClock('2026-11-23T10:00:00+09:00'),
  });
}

function written(store: OrderManagerStore, intent: OrderIntent, at: number): LoggedCreate {
  return store.recordCreate(
    `${intent.clientOrderId}:submit`,
    intent.clientOrderId,
    { symbol: intent.instrument.symbol, side: intent.side, strategyId: intent.strategyId ?? null },
    JSON.stringify(createContent(intent)),
    at,
  );
}

/** The stored fields of a logical order, decimals as text. */
function shape(o: Omit<NewOrder, 'state'> & { readonly state: string }) {
  const text = (d: Decimal | null): string | null => (d === null ? null : d.toString());
  return {
    clientOrderId: o.clientOrderId,
    strategyId: o.strategyId,
    mode: o.mode,
    symbol: o.symbol,
    market: o.market,
    currency: o.currency,
    side: o.side,
    orderType: o.orderType,
    timeInForce: o.timeInForce,
    price: text(o.price),
    quantity: text(o.quantity),
    amount: text(o.amount),
    state: o.state,
    createdAt: o.createdAt,
  };
}

describe('OrderManagerStore', () => {
  describe('.repairInterrupted', () => {
    it.each(['normal', 'full'] as const)(
      'builds the command and the logical order of a create whose process died after the log entry (%s durability)',
      (durability) => {
        const intents = [
          createOrderIntent({
            clientOrderId: newClientOrderId('s1'),
            strategyId: strategyId('s1'),
            instrument: instrumentOf('ZOM'),
            side: 'SELL',
            sizing: 'QUANTITY',
            orderType: 'LIMIT',
            quantity: new Decimal(3),
            price: new Decimal('12.25'),
            timeInForce: 'CLS',
          }),
          createOrderIntent({
            clientOrderId: newClientOrderId('s1'),
            strategyId: strategyId('s1'),
            instrument: instrumentOf('ZOM'),
            side: 'BUY',
            sizing: 'AMOUNT',
            orderType: 'MARKET',
            amount: new Decimal('1500.5'),
          }),
          createOrderIntent({
            clientOrderId: newClientOrderId('s2'),
            instrument: instrumentOf('005930'),
            side: 'BUY',
            sizing: 'QUANTITY',
            orderType: 'MARKET',
            quantity: new Decimal(7),
          }),
        ];
        const db = open();
        const store = new OrderManagerStore(db, durability);
        const logged = intents.map((intent, i) => written(store, intent, 1_000 + i));
        // the first one was sent and its rows written; the others were cut short by the crash
        store.recordSent(logged[0] as LoggedCreate, newOrderOf(intents[0] as OrderIntent, 1_000));
        expect(db.orders.get(intents[1]?.clientOrderId ?? '')).toBeNull();
        expect(store.unresolvedCommands().map((c) => c.clientOrderId)).toEqual([intents[0]?.clientOrderId]);

        const restarted = new OrderManagerStore(db, durability);
        restarted.repairInterrupted();

        // every command is there, still `sending` (reconciliation settles it), with the body sent
        expect(
          restarted.unresolvedCommands().map((c) => [c.clientOrderId, c.status, c.content, c.createdAt]),
        ).toEqual(
          intents.map((intent, i) => [
            intent.clientOrderId,
            CommandStatus.SENDING,
            JSON.parse(JSON.stringify(createContent(intent))),
            1_000 + i,
          ]),
        );
        restarted.repairInterrupted(); // nothing left to do: nothing doubled
        expect(restarted.unresolvedCommands()).toHaveLength(3);
        // a command id is written once: the same create again is refused before any send
        expect(() => written(restarted, intents[0] as OrderIntent, 2_000)).toThrow(/already stored/);
        restarted.repairInterrupted();
        expect(restarted.unresolvedCommands()).toHaveLength(3);
        // the row is what the send would have stored (the command itself is settled by reconciliation)
        for (const [i, intent] of intents.entries()) {
          const row = db.orders.get(intent.clientOrderId);
          if (row === null) throw new Error(`no row for ${intent.clientOrderId}`);
          expect(shape({ ...row, state: row.state })).toEqual(
            shape({ ...newOrderOf(intent, 1_000 + i), state: 'SUBMITTED' }),
          );
        }
        expect(db.orders.list({}).length).toBe(3);
        db.close();
      },
    );
  });

  describe('.interruptIfSending', () => {
    it('settles a command still sending as interrupted, and leaves one its sender settled meanwhile', () => {
      const db = open();
      const engine = new OrderManagerStore(db);
      // two `hoga order` processes on the same file, each sending one create
      const other = HogaDatabase.open(db.file);
      const sender = new OrderManagerStore(other);
      const buy = (id: string) =>
        createOrderIntent({
          clientOrderId: newClientOrderId(id),
          instrument: instrumentOf('005930'),
          side: 'BUY',
          sizing: 'QUANTITY',
          orderType: 'LIMIT',
          quantity: new Decimal(1),
          price: new Decimal(50_000),
        });
      const [gone, done] = [buy('gone'), buy('done')].map((intent, i) => {
        const logged = written(sender, intent, 1_000 + i);
        sender.recordSent(logged, newOrderOf(intent, 1_000 + i));
        return logged.row;
      }) as [LoggedCreate['row'], LoggedCreate['row']];
      // the engine's poll reads both as sending ...
      const read = engine.unresolvedCommands();
      expect(read.map((c) => c.status)).toEqual([CommandStatus.SENDING, CommandStatus.SENDING]);
      // ... then the second one's sender has its answer and settles it (and gives up its lease)
      sender.settleCommand(done.commandId, CommandStatus.DONE, 1_500, { result: 'B-1' });
      // before: the poll settled both as interrupted, the second one over its sender's answer
      expect(read.map((c) => engine.interruptIfSending(c.commandId, 2_000))).toEqual([true, false]);
      expect([gone, done].map((c) => engine.command(c.commandId)?.status)).toEqual([
        CommandStatus.AMBIGUOUS,
        CommandStatus.DONE,
      ]);
      other.close();
      db.close();
    });
  });

  describe('the command journal beside the file', () => {
    const intent = (side: 'BUY' | 'SELL') =>
      createOrderIntent({
        clientOrderId: newClientOrderId('s1'),
        strategyId: strategyId('s1'),
        instrument: instrumentOf('005930'),
        side,
        sizing: 'QUANTITY',
        orderType: 'MARKET',
        quantity: new Decimal(2),
      });

    it('holds a create before it is sent and is emptied at the next start once its rows are stored', () => {
      const db = open();
      const store = new OrderManagerStore(db);
      const buy = intent('BUY');
      written(store, buy, 1_000);
      // what is on disk when the request leaves: the line, and no row yet
      const path = `${db.file}-commands`;
      expect(JSON.parse(readFileSync(path, 'utf8').trim())).toMatchObject({
        commandId: `${buy.clientOrderId}:submit`,
        content: JSON.stringify(createContent(buy)),
      });
      expect(store.command(`${buy.clientOrderId}:submit`)).toBeNull();
      // a line cut short by the crash (its create was never sent) follows
      appendFileSync(path, '{"commandId":"cut');
      new OrderManagerStore(db).repairInterrupted();
      expect(store.unresolvedCommands().map((c) => c.clientOrderId)).toEqual([buy.clientOrderId]);
      expect(statSync(path).size).toBe(0);
      db.close();
    });

    it("is folded into the tables and emptied past 64 KB, another process's pending line stored too", () => {
      const db = open();
      const store = new OrderManagerStore(db);
      const path = `${db.file}-commands`;
      // a second process on the same database (hoga order beside hoga run) wrote a create
      const other = new CommandJournal(path);
      const theirs = intent('SELL');
      other.append(
        `${theirs.clientOrderId}:submit`,
        JSON.stringify({
          commandId: `${theirs.clientOrderId}:submit`,
          clientOrderId: theirs.clientOrderId,
          kind: 'create',
          target: null,
          symbol: '005930',
          side: 'SELL',
          content: JSON.stringify(createContent(theirs)),
          strategyId: 's1',
          at: 999,
        }),
      );
      let sizes = 0;
      for (let i = 0; statSync(path).size > 0 || i === 0; i++) {
        const buy = intent('BUY');
        store.recordSent(written(store, buy, 1_000 + i), newOrderOf(buy, 1_000 + i));
        sizes = Math.max(sizes, statSync(path).size);
        if (i > 1_000) throw new Error('never folded');
      }
      expect(sizes).toBeGreaterThanOrEqual(64 * 1024);
      expect(store.command(`${theirs.clientOrderId}:submit`)?.status).toBe(CommandStatus.SENDING);
      other.close();
      db.close();
    });

    it('refuses to start over a damaged line that is not the last, naming the file and line, and keeps the file', () => {
      const db = open();
      const store = new OrderManagerStore(db);
      const path = `${db.file}-commands`;
      written(store, intent('BUY'), 1_000);
      appendFileSync(path, 'garbage\n');
      written(store, intent('SELL'), 1_001);
      const before = readFileSync(path, 'utf8');
      expect(() => new OrderManagerStore(db).repairInterrupted()).toThrow(
        `the command journal ${path} has a damaged line 2`,
      );
      expect(readFileSync(path, 'utf8')).toBe(before);
      expect(store.unresolvedCommands()).toEqual([]);
      db.close();
    });
  });

  describe('.applyReport', () => {
    it('counts a fill again when the transaction that counted it was rolled back', () => {
      const intent = createOrderIntent({
        clientOrderId: newClientOrderId('s1'),
        strategyId: strategyId('s1'),
        instrument: instrumentOf('005930'),
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'LIMIT',
        quantity: new Decimal(10),
        price: new Decimal(70_000),
      });
      const db = open();
      const store = new OrderManagerStore(db);
      store.recordIntent(newOrderOf(intent, 1_000));
      const info = { symbol: '005930', side: 'BUY', orderedAt: 1_000 } as const;
      store.link(intent.clientOrderId, 'B1', 'create', info, 1_000);
      const reported = (q: number): CumulativeExecution => ({
        filledQuantity: new Decimal(q),
        filledAmount: new Decimal(q * 70_000),
        commission: new Decimal(0),
        tax: new Decimal(0),
      });
      const count = (q: number) => {
        const owned = store.execution('B1');
        if (owned === null) throw new Error('B1 is not stored');
        const delta = executionDelta(owned, reported(q));
        const fill = store.batch(() =>
          store.applyReport(owned, 'PARTIAL_FILLED', false, delta, 2_000, 2_000),
        );
        if (fill === STALE) throw new Error('B1 changed under the count');
        return fill;
      };
      expect(count(3)?.delta.quantity.toString()).toBe('3');
      // the fill of the next report cannot be stored: its batch is rolled back
      db.connection.exec(`CREATE TRIGGER refuse BEFORE INSERT ON fills WHEN NEW.cumulative_quantity = '7'
        BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
      expect(() => count(7)).toThrow(/disk full/);
      db.connection.exec('DROP TRIGGER refuse');
      // 3 are counted, as the table says; the same report again brings the fill of 4
      expect(store.execution('B1')?.filledQuantity.toString()).toBe('3');
      const again = count(7);
      expect([again?.delta.quantity.toString(), again?.logicalCumulative.toString()]).toEqual(['4', '7']);
      expect(db.fills.list({}).map((f) => f.quantity.toString())).toEqual(['3', '4']);
      expect(store.position('005930').toString()).toBe('7');
      db.close();
    });
  });
});

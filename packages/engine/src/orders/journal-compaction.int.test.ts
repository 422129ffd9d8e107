/**
 * The command journal emptied while another process appends to it (`hoga order` beside `hoga
 * run`, sharing one database and so one journal). The other process is a real child process that
 * appends its create the way {@link CommandJournal.append} does (`O_APPEND`, one `write`) and
 * exits without writing its rows (killed between its send and its rows). It appends exactly while
 * the engine folds the file (a temporary SQLite trigger on the fold's insert of an earlier line
 * runs it), so the interleaving is the same at every run. Before: the engine emptied the file
 * after its fold (`ftruncate` to 0), the other process's line with it, and the next start knew
 * nothing of a create that may be working at the broker (the poll would adopt it as `ext-<id>`).
 * Also: two compactions never run at once (the store's write lock), a compaction killed midway
 * leaves the old file's lines to the next start, a fragment a cut-short write left does not hide
 * the line appended after it, and a damaged line does not make recording a sent create fail.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandStatus, OrderManagerStore } from './order-manager-store.js';
import { createContent, newOrderOf } from './order-requests.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const clock = new VirtualClock('2026-11-23T10:00:00+09:00');

function open(file?: string): HogaDatabase {
  if (file !== undefined) return HogaDatabase.open(file, { clock });
  const dir = mkdtempSync(join(tmpdir(), 'hoga-journal-compaction-'));
  dirs.push(dir);
  return HogaDatabase.open(join(dir, 'store.sqlite'), { clock });
}

const intent = (side: 'BUY' | 'SELL', s = 's1'): OrderIntent =>
  createOrderIntent({
    clientOrderId: newClientOrderId(s),
    strategyId: strategyId(s),
    instrument: instrumentOf('005930'),
    side,
    sizing: 'QUANTITY',
    orderType: 'MARKET',
    quantity: new Decimal(2),
  });

/** A create's journal line, as `recordCreate` writes it. */
const lineOf = (i: OrderIntent, at: number): string =>
  JSON.stringify({
    commandId: `${i.clientOrderId}:submit`,
    clientOrderId: i.clientOrderId,
    kind: 'create',
    target: null,
    symbol: i.instrument.symbol,
    side: i.side,
    content: JSON.stringify(createContent(i)),
    strategyId: i.strategyId ?? null,
    at,
  });

/** Another process appends one line to the journal, as `CommandJournal.append` does, and exits. */
function otherProcessAppends(path: string, line: string): void {
  execFileSync(process.execPath, [
    '-e',
    "const fs = require('node:fs'); const fd = fs.openSync(process.argv[1], 'a', 0o600); fs.writeSync(fd, process.argv[2] + '\\n');",
    path,
    line,
  ]);
}

/** Runs `then` (once) inside the fold, right after it stores the command `commandId`. */
function whenFolded(db: HogaDatabase, commandId: string, then: () => void): void {
  let done = false;
  db.connection.function('hoga_test_hook', () => {
    if (!done) {
      done = true;
      then();
    }
    return null;
  });
  db.connection.exec(`CREATE TEMP TRIGGER hoga_test_fold AFTER INSERT ON order_commands
    WHEN NEW.command_id = '${commandId}' BEGIN SELECT hoga_test_hook(); END`);
}

function written(store: OrderManagerStore, i: OrderIntent, at: number) {
  return store.recordCreate(
    `${i.clientOrderId}:submit`,
    i.clientOrderId,
    { symbol: i.instrument.symbol, side: i.side, strategyId: i.strategyId ?? null },
    JSON.stringify(createContent(i)),
    at,
  );
}

describe('the command journal emptied while another process appends', () => {
  it('keeps the line another process appended during the fold at startup', () => {
    const db = open();
    const path = `${db.file}-commands`;
    const first = intent('BUY', 'o1');
    const second = intent('SELL', 'o1');
    // the other process's first create (sent, rows never written) is in the file at the start
    otherProcessAppends(path, lineOf(first, 900));
    // it appends its second create while the starting engine folds the file
    whenFolded(db, `${first.clientOrderId}:submit`, () => otherProcessAppends(path, lineOf(second, 901)));
    new OrderManagerStore(db).repairInterrupted();
    expect(readFileSync(path, 'utf8')).toContain(second.clientOrderId);
    db.close();

    // the next start stores it: the create is known, with its logical order
    const next = open(db.file);
    const store = new OrderManagerStore(next);
    store.repairInterrupted();
    expect(store.command(`${second.clientOrderId}:submit`)?.status).toBe(CommandStatus.SENDING);
    expect(next.orders.get(second.clientOrderId)?.strategyId).toBe('o1');
    next.close();
  });

  it('keeps the line another process appended during a compaction past 64 KB', () => {
    const db = open();
    const store = new OrderManagerStore(db);
    const path = `${db.file}-commands`;
    const first = intent('BUY', 'o1');
    const second = intent('SELL', 'o1');
    otherProcessAppends(path, lineOf(first, 900));
    whenFolded(db, `${first.clientOrderId}:submit`, () => otherProcessAppends(path, lineOf(second, 901)));
    let folded = false;
    for (let i = 0; !folded; i++) {
      const buy = intent('BUY');
      store.recordSent(written(store, buy, 1_000 + i), newOrderOf(buy, 1_000 + i));
      folded = store.command(`${first.clientOrderId}:submit`) !== null;
      if (i > 1_000) throw new Error('never folded');
    }
    expect(readFileSync(path, 'utf8')).toContain(second.clientOrderId);
    db.close();

    const next = open(db.file);
    const restarted = new OrderManagerStore(next);
    restarted.repairInterrupted();
    expect(restarted.command(`${second.clientOrderId}:submit`)?.status).toBe(CommandStatus.SENDING);
    expect(next.orders.get(second.clientOrderId)?.strategyId).toBe('o1');
    next.close();
  });
});

describe('two processes compacting the command journal', () => {
  it("never compact at once: a compaction holds the store's write lock, which the other's fold and compaction need", () => {
    const db = open();
    const path = `${db.file}-commands`;
    otherProcessAppends(path, lineOf(intent('BUY', 'o1'), 900));
    // the other process (hoga order starting beside hoga run) on its own connection
    const other = HogaDatabase.open(db.file, { clock, busyTimeoutMs: 20 });
    const journal = db.commandJournal();
    if (journal === null) throw new Error('no journal');
    const compact = journal.compact.bind(journal);
    let tried = false;
    journal.compact = (stored) =>
      compact((line) => {
        if (!tried) {
          tried = true;
          expect(() => other.connection.prepare('BEGIN IMMEDIATE').run()).toThrow(/locked|busy/i);
        }
        return stored(line);
      });
    new OrderManagerStore(db).repairInterrupted();
    expect(tried).toBe(true);
    other.connection.prepare('BEGIN IMMEDIATE').run();
    other.connection.prepare('COMMIT').run();
    other.close();
    db.close();
  });
});

describe('the command journal after a compaction killed midway', () => {
  it('stores the lines of the file it replaced (kept as <journal>.replaced), at the next start', () => {
    const db = open();
    const path = `${db.file}-commands`;
    const late = intent('BUY', 'o1');
    const fresh = intent('SELL', 'o1');
    // as the killed compaction left it: the journal renamed to the compacted file (then appended
    // to), the old file still named .replaced, holding a line that reached it after the fold
    otherProcessAppends(`${path}.replaced`, lineOf(late, 900));
    otherProcessAppends(path, lineOf(fresh, 901));
    const store = new OrderManagerStore(db);
    store.repairInterrupted();
    expect(store.unresolvedCommands().map((c) => c.clientOrderId)).toEqual([
      late.clientOrderId,
      fresh.clientOrderId,
    ]);
    expect(db.orders.get(late.clientOrderId)?.strategyId).toBe('o1');
    expect(existsSync(`${path}.replaced`)).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('');
    db.close();
  });
});

describe('the command journal after a write cut short', () => {
  it("stores a create whose line follows a fragment another process's write left (disk full), at the next start", () => {
    const db = open();
    const path = `${db.file}-commands`;
    const first = intent('BUY', 'o1');
    otherProcessAppends(path, lineOf(first, 900));
    // the other process's next write took only part of its line (its create was never sent)
    appendFileSync(path, lineOf(intent('SELL', 'o1'), 901).slice(0, 40));
    // the engine's create follows on the same line, is sent, and the engine dies before its rows
    const buy = intent('BUY');
    written(new OrderManagerStore(db), buy, 1_000);
    db.close();

    const next = open(db.file);
    const store = new OrderManagerStore(next);
    store.repairInterrupted();
    expect(store.unresolvedCommands().map((c) => c.clientOrderId)).toEqual([
      first.clientOrderId,
      buy.clientOrderId,
    ]);
    expect(next.orders.get(buy.clientOrderId)?.strategyId).toBe('s1');
    next.close();
  });

  it('stores the rows of creates sent while the file past 64 KB holds a damaged line', () => {
    const db = open();
    const store = new OrderManagerStore(db);
    const path = `${db.file}-commands`;
    appendFileSync(path, 'garbage\n');
    for (let i = 0; readFileSync(path).length < 70 * 1024; i++) {
      const buy = intent('BUY');
      expect(() =>
        store.recordSent(written(store, buy, 1_000 + i), newOrderOf(buy, 1_000 + i)),
      ).not.toThrow();
      expect(store.command(`${buy.clientOrderId}:submit`)?.status).toBe(CommandStatus.SENDING);
    }
    const buy = intent('BUY');
    expect(() => store.recordSent(written(store, buy, 5_000), newOrderOf(buy, 5_000))).not.toThrow();
    expect(db.orders.get(buy.clientOrderId)?.state).toBe('SUBMITTED');
    db.close();
  });
});

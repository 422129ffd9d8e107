/**
 * The order in which the store hands back a logical order's commands and the unsettled ones, on a
 * real SQLite file: the order they were stored in, also when several were made in the same
 * millisecond (a frozen or coarse engine clock, a strategy that modifies and cancels in one hook).
 * The resolver settles them in this order (an earlier modify before a later change that depends on
 * its outcome), and `commandsOf` is what `hoga order` and the resolver read as the order's history.
 * Before, the store read them `ORDER BY created_at` alone, which leaves commands of the same
 * millisecond in no fixed order: the unsettled ones came grouped by status.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandStatus, OrderManagerStore, type StoredExecution } from './order-manager-store.js';

const dirs: string[] = [];
const opened: HogaDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const clock = new VirtualClock('2026-11-23T10:00:00+09:00');

function open(file: string): HogaDatabase {
  const db = HogaDatabase.open(file, { clock });
  opened.push(db);
  return db;
}

/** The same engine millisecond for every command. */
const AT = 1_000;

/** Ids in the order they are stored: neither sorted nor reverse-sorted. */
const IDS = ['m-c', 'm-a', 'x-d', 'm-b', 'x-a', 'm-e'];

/**
 * A store on a new file with one logical order working at broker order B1, and a modify or cancel
 * of it stored for each of {@link IDS}, all in the same millisecond; those at odd positions settled
 * ambiguous (an answer lost), the others left sending.
 */
function stored(): { file: string; store: OrderManagerStore } {
  const dir = mkdtempSync(join(tmpdir(), 'hoga-command-order-'));
  dirs.push(dir);
  const file = join(dir, 'store.sqlite');
  const store = new OrderManagerStore(open(file), 'normal');
  store.link('o-1', 'B1', 'create', { symbol: '005930', side: 'BUY', orderedAt: AT }, AT);
  const target = store.execution('B1') as StoredExecution;
  for (const [i, id] of IDS.entries()) {
    store.recordChange(id, id.startsWith('m') ? 'modify' : 'cancel', target, null, { i }, AT);
    if (i % 2 === 1) store.settleCommand(id, CommandStatus.AMBIGUOUS, AT, { error: 'lost' });
  }
  return { file, store };
}

describe('commands made in the same millisecond', () => {
  it("are read back in the order they were stored: the order's commands and the unsettled ones", () => {
    const { store } = stored();
    expect(store.commandsOf('o-1').map((c) => c.commandId)).toEqual(IDS);
    expect(store.unresolvedCommands().map((c) => [c.commandId, c.status])).toEqual(
      IDS.map((id, i) => [id, i % 2 === 1 ? 'ambiguous' : 'sending']),
    );
  });

  it('keep that order after the file is vacuumed (hoga db runs --vacuum) and opened again', () => {
    const { file, store } = stored();
    store.settleCommand('m-a', CommandStatus.DONE, AT + 1, { result: 'B2' });
    const db = opened.pop() as HogaDatabase;
    db.connection.exec('VACUUM');
    db.close();
    const again = new OrderManagerStore(open(file), 'normal');
    expect(again.commandsOf('o-1').map((c) => c.commandId)).toEqual(IDS);
    expect(again.unresolvedCommands().map((c) => c.commandId)).toEqual(IDS.filter((id) => id !== 'm-a'));
  });
});

/**
 * A transaction of {@link HogaDatabase.transaction} that reads, then writes, while another
 * connection to the same file (another process: `hoga order`, a second run; the run journal's
 * worker thread) commits in between. Before: the transaction began deferred, as a reader; its first
 * write then had to upgrade a snapshot another connection had moved past, and SQLite answers that
 * with SQLITE_BUSY at once, without the busy timeout (`database is locked`): seen in a load test
 * as `hoga run` exiting at its start with `hoga: unexpected error: database is locked`. Now it
 * takes the write lock when it begins (`BEGIN IMMEDIATE`, waiting the busy timeout for it), so no
 * other connection commits inside it. Real SQLite files.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HogaDatabase } from './hoga-database.js';

const open: HogaDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

describe('a transaction that reads, then writes, beside another connection', () => {
  it('is not refused because the other one committed in between', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hoga-tx-')), 'hoga.sqlite');
    const mine = HogaDatabase.open(file);
    open.push(mine);
    const other = HogaDatabase.open(file, { busyTimeoutMs: 0 });
    open.push(other);
    mine.connection.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
    mine.connection.exec("INSERT INTO t VALUES ('a', 1)");
    let otherWrote: boolean | undefined;
    const result = mine.transaction(() => {
      const v = (mine.connection.prepare("SELECT v FROM t WHERE k = 'a'").get() as { v: number }).v;
      try {
        other.connection.prepare("INSERT INTO t VALUES ('b', 2)").run();
        otherWrote = true;
      } catch {
        otherWrote = false; // it waits for this transaction (here: refused at once, timeout 0)
      }
      mine.connection.prepare("UPDATE t SET v = ? WHERE k = 'a'").run(v + 1);
      return v + 1;
    });
    expect(result).toBe(2);
    expect(otherWrote).toBe(false);
  });
});

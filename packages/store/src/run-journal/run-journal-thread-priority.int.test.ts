/**
 * A background writer's thread (a backtest's) gives the CPU to the rest of the process: on Linux
 * its nice value is raised to 19, its own, while the thread that writes the records keeps its
 * priority; every row is still committed at the close. Read from Linux's /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';
import { RunJournalWriter } from './run-journal-writer.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

/** A thread's nice value from its `stat` (the 19th field; the 2nd, its name, may hold spaces). */
function niceOf(statPath: string): number | null {
  try {
    const stat = readFileSync(statPath, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  } catch {
    return null; // the thread ended meanwhile
  }
}

/** The ids of this process's threads at nice 19. */
function lowestPriorityThreads(): Set<string> {
  return new Set(readdirSync('/proc/self/task').filter((id) => niceOf(`/proc/self/task/${id}/stat`) === 19));
}

async function until<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined || Date.now() > end) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const T = Date.parse('2026-11-23T09:00:00+09:00');

describe.runIf(process.platform === 'linux')("a background journal writer's thread", () => {
  it('runs at nice 19 while the calling thread keeps its priority, and commits every row at the close', async () => {
    const callerNice = niceOf('/proc/thread-self/stat');
    const before = lowestPriorityThreads();
    const writer = RunJournalWriter.open(db, { mode: 'backtest', background: true, batchValues: 16 });
    expect(writer.threaded).toBe(true);
    const lowered = await until(() => [...lowestPriorityThreads()].find((id) => !before.has(id)), 10_000);
    expect(lowered).toBeDefined();
    expect(niceOf('/proc/thread-self/stat')).toBe(callerNice);
    for (let i = 0; i < 200; i++) {
      writer.order(true, `o${i}`, 'sma', T + i, '005930', 'BUY', 'LIMIT', '70000', '1', null);
      writer.event('OrderAccepted', `o${i}`, 'sma', T + i, T + i);
    }
    // the orders still open are summarised at the flush
    writer.flush();
    await writer.close();
    expect(writer.error).toBeNull();
    const rows = db.connection.prepare("SELECT COUNT(*) AS n FROM journal WHERE type = 'OrderSummary'").get();
    expect(rows).toEqual({ n: 200 });
  });
});

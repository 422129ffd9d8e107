import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { HogaDatabase } from '../src/hoga-database.js';
import { useChildScript } from './child-script.test-helper.js';
import { collectLines, exited, spawnNode } from './spawn-child.js';

const WRITER = join(import.meta.dirname, 'processes', 'batch-writer.ts');
const JOURNAL_PER_BATCH = 300;
const FILLS_PER_BATCH = 30;
const KILLS = 20;

const script = useChildScript(WRITER, 'hoga-crash-');
const { dir } = script;

/** Starts the writer, lets it commit at least one batch, kills it at a random moment. */
async function runAndKill(file: string): Promise<{ committed: number[]; midBatch: boolean }> {
  const child = spawnNode(script.bundle, [file, String(JOURNAL_PER_BATCH), String(FILLS_PER_BATCH)]);
  const out = collectLines(child);
  const exit = exited(child);
  const deadline = Date.now() + 15_000;
  while (!out.lines.some((l) => /^\d+$/.test(l))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`writer did not commit a batch: ${out.stderr()}`);
    }
    await sleep(2);
  }
  await sleep(Math.floor(Math.random() * 40));
  child.kill('SIGKILL');
  expect(await exit).toBe('SIGKILL');
  return {
    committed: out.lines.filter((l) => /^\d+$/.test(l)).map(Number),
    midBatch: out.lines[out.lines.length - 1]?.startsWith('begin') ?? false,
  };
}

describe('HogaDatabase', () => {
  describe('after a writer is killed with SIGKILL in the middle of batches', () => {
    it(`opens, passes integrity_check and holds every committed batch whole and no partial one (${KILLS} kills)`, async () => {
      const file = join(dir, 'crash.sqlite');
      const committed = new Set<number>();
      let killedMidBatch = 0;
      for (let run = 0; run < KILLS; run++) {
        const outcome = await runAndKill(file);
        for (const n of outcome.committed) committed.add(n);
        if (outcome.midBatch) killedMidBatch++;
        const db = HogaDatabase.open(file);
        try {
          expect(db.info().integrity).toEqual(['ok']);
          const batches = db.connection
            .prepare(
              `SELECT o.created_at AS batch, o.state,
                 (SELECT count(*) FROM fills f WHERE f.order_id = o.id) AS fills,
                 (SELECT count(*) FROM journal j WHERE j.client_order_id = o.client_order_id) AS journal
               FROM orders o ORDER BY o.created_at`,
            )
            .all() as { batch: number; state: string; fills: number; journal: number }[];
          const present = batches.map((b) => b.batch);
          const done = batches.filter((b) => b.state === 'FILLED').map((b) => b.batch);
          // no partial batch: an order is either a bare intent or FILLED with all its rows
          expect(
            batches.filter((b) =>
              b.state === 'FILLED'
                ? b.fills !== FILLS_PER_BATCH || b.journal !== JOURNAL_PER_BATCH
                : b.state !== 'INITIALIZED' || b.fills !== 0 || b.journal !== 0,
            ),
          ).toEqual([]);
          expect(db.connection.prepare('SELECT count(*) FROM journal').pluck().get()).toBe(
            done.length * JOURNAL_PER_BATCH,
          );
          expect(db.connection.prepare('SELECT count(*) FROM fills').pluck().get()).toBe(
            done.length * FILLS_PER_BATCH,
          );
          // batches are numbered 1..n without holes; only the last one of a run may be a bare intent
          expect(present).toEqual(present.map((_, i) => i + 1));
          expect(batches.filter((b) => b.state !== 'FILLED').length).toBeLessThanOrEqual(run + 1);
          // every batch the writer reported is there, whole
          expect([...committed].filter((n) => !done.includes(n))).toEqual([]);
        } finally {
          db.close();
        }
      }
      expect(committed.size).toBeGreaterThanOrEqual(KILLS);
      // the kills did land inside transactions (a run ending between batches proves less)
      expect(killedMidBatch).toBeGreaterThan(KILLS / 2);
    }, 60_000);
  });
});

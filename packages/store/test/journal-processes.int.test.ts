/**
 * The command journal shared by real processes: two children append commands (as `hoga order`
 * does before its sends) while this process folds and compacts the file over and over (as `hoga
 * run` does past 64 KB). Every command a child appended is either folded (stored) or still in the
 * journal at the end: a compaction never loses a line appended while it runs, whenever it lands.
 * Which windows the appends hit varies with the machine's load; what is asserted holds for all.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CommandJournal } from '../src/command-journal.js';
import { useChildScript } from './child-script.test-helper.js';
import { collectLines, exited, spawnNode } from './spawn-child.js';

const APPENDER = join(import.meta.dirname, 'processes', 'journal-appender.ts');
const PER_CHILD = 2_000;

const script = useChildScript(APPENDER, 'hoga-journal-processes-');

describe('CommandJournal shared by processes', () => {
  it('loses no line two other processes append while it is compacted again and again', async () => {
    const path = join(script.dir, 'db.sqlite-commands');
    const journal = new CommandJournal(path);
    const stored = new Set<string>();
    const idOf = (line: string): string => (JSON.parse(line) as { commandId: string }).commandId;
    const children = ['a', 'b'].map((prefix) => {
      const child = spawnNode(script.bundle, [path, prefix, String(PER_CHILD)]);
      return { child, out: collectLines(child), exit: exited(child) };
    });
    let running = true;
    void Promise.all(children.map((c) => c.exit)).then(() => {
      running = false;
    });
    let compactions = 0;
    while (running) {
      // the fold: every complete line read is stored; the compaction drops those only
      for (const line of journal.entries()) stored.add(idOf(line));
      journal.compact((line) => stored.has(idOf(line)));
      compactions++;
      await sleep(1);
    }
    for (const c of children) expect(await c.exit, c.out.stderr()).toBe(0);
    for (const line of journal.entries()) stored.add(idOf(line));
    const missing = ['a', 'b'].flatMap((p) =>
      Array.from({ length: PER_CHILD }, (_, i) => `${p}-${i}`).filter((id) => !stored.has(id)),
    );
    expect(missing).toEqual([]);
    expect(compactions).toBeGreaterThan(0);
    journal.close();
  }, 120_000);
});

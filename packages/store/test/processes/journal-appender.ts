/**
 * Child process of `journal-processes.int.test.ts`: appends numbered commands to a command journal
 * (as `hoga order` does before its sends) while the test compacts it, settles each, then prints
 * `done` and exits.
 *
 * Usage: journal-appender.ts <journal file> <id prefix> <count>
 */
import { writeSync } from 'node:fs';
import { CommandJournal } from '../../src/command-journal.js';

const [path, prefix, countText] = process.argv.slice(2);
if (path === undefined || prefix === undefined || countText === undefined) {
  throw new Error('usage: journal-appender.ts <journal file> <id prefix> <count>');
}
const journal = new CommandJournal(path);
for (let i = 0; i < Number(countText); i++) {
  const id = `${prefix}-${i}`;
  journal.append(id, JSON.stringify({ commandId: id, clientOrderId: id, content: 'x'.repeat(200) }));
  journal.settle(id);
}
journal.close();
writeSync(1, 'done\n');

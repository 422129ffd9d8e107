/**
 * Soak of better-sqlite3's statement finalizers under forced garbage collection: prepares
 * statements in a loop (most dropped at once, so the collector finalizes them), runs a write and a
 * read through each, and calls `gc()` every few hundred iterations. better-sqlite3 12 aborted the
 * process on Node 24.19+ (`Assertion failed: (env) != nullptr` from `Statement::~Statement`) when
 * a statement was finalized outside a JavaScript context; 13 must run to the end.
 *
 * Usage: `node --expose-gc gc-soak.mjs <file> <seconds>`; prints `iterations <n>` and exits 0.
 */
import { HogaDatabase } from '../../src/hoga-database.js';

const [file, secondsArg] = process.argv.slice(2);
if (file === undefined || secondsArg === undefined) {
  console.error('usage: gc-soak <file> <seconds>');
  process.exit(2);
}
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) {
  console.error('gc-soak needs --expose-gc');
  process.exit(2);
}

const db = HogaDatabase.open(file);
const raw = db.connection;
raw.exec('CREATE TABLE IF NOT EXISTS soak (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
const until = Date.now() + Number(secondsArg) * 1000;
let iterations = 0;
while (Date.now() < until) {
  for (let i = 0; i < 200; i += 1) {
    // A new statement text each time, so each is a new native Statement for the collector to finalize.
    raw.prepare(`INSERT INTO soak (body) VALUES (?) -- ${iterations % 997}`).run(`row ${iterations}`);
    raw.prepare(`SELECT count(*) AS n FROM soak WHERE id > ${iterations % 1013}`).get();
    iterations += 1;
  }
  raw.prepare('DELETE FROM soak WHERE id < (SELECT max(id) - 1000 FROM soak)').run();
  collect();
  // Let the event loop turn, so finalizers also run between JavaScript frames.
  await new Promise((resolve) => setImmediate(resolve));
}
db.close();
collect();
console.log(`iterations ${iterations}`);

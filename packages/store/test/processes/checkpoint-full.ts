/**
 * Child process of `deferred-checkpoints.int.test.ts`: opens an existing store file, defers its
 * checkpoints to a 20 ms timer and writes `pages` pages into the WAL in one transaction. Started
 * under a file-size limit (`ulimit -f`) that the WAL fits in but the database file cannot grow
 * to, so the timer's checkpoint fails with a write error (not SQLITE_BUSY). Prints one JSON line
 * after half a second if the process is still alive.
 *
 * Arguments: <file> <pages>
 */
import { HogaDatabase } from '../../src/index.js';

const [file, pages] = process.argv.slice(2);
const db = HogaDatabase.open(file as string);
const failures: string[] = [];
db.deferCheckpoints(20, { onError: (error) => failures.push(String((error as { code?: unknown }).code)) });
const c = db.connection;
c.exec('CREATE TABLE filler (body BLOB NOT NULL)');
const insert = c.prepare('INSERT INTO filler (body) VALUES (?)');
c.transaction(() => {
  for (let i = 0; i < Number(pages); i++) insert.run(Buffer.alloc(4_000, i % 251));
})();
setTimeout(() => {
  // the store still answers and takes writes (to the WAL) after failed checkpoints
  c.prepare('INSERT INTO filler (body) VALUES (?)').run(Buffer.alloc(10));
  const rows = c.prepare('SELECT count(*) FROM filler').pluck().get();
  process.stdout.write(
    `${JSON.stringify({ alive: true, rows, failures: failures.length, codes: [...new Set(failures)], stats: db.checkpointStats })}\n`,
  );
  db.close();
}, 500);

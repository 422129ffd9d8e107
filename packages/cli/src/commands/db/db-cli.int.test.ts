import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LATEST_SCHEMA_VERSION } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envWithoutHoga, hoga } from '../../hoga-process.test-helper.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..', '..', '..');
const MAIN = join(ROOT, 'packages', 'cli', 'src', 'main.ts');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-cli-db-int-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('hoga db', () => {
  it('creates a database with `db migrate` and describes it with `db info --json`, taking the file from HOGA_DB', async () => {
    const file = join(dir, 'data', 'hoga.sqlite');
    const env = { ...envWithoutHoga(), HOGA_DB: file };
    const migrate = await run(process.execPath, ['--import', 'tsx', MAIN, 'db', 'migrate'], {
      cwd: ROOT,
      env,
    });
    expect(migrate.stdout).toBe(`${file}: schema version 0 → ${LATEST_SCHEMA_VERSION}\n`);
    const info = await run(
      process.execPath,
      ['--import', 'tsx', MAIN, 'db', 'info', '--json', '--db', file],
      { cwd: ROOT, env: envWithoutHoga() },
    );
    expect(JSON.parse(info.stdout)).toMatchObject({
      file,
      schemaVersion: LATEST_SCHEMA_VERSION,
      journalMode: 'wal',
      integrity: ['ok'],
      tables: expect.arrayContaining([{ name: 'orders', rows: 0 }]),
    });
    // two processes through tsx one after the other: 19 s of 30 s in one of three runs with four
    // busy loops (3–6 s in the others)
  }, 120_000);

  // Before, every `hoga db` command's --help said "default: $HOGA_DB, else ./data/hoga.sqlite",
  // while in a `hoga init` project the profile's db is used (./data/sim.sqlite): the user looked
  // for the orders in a file that was never written.
  it("takes the profile's db in a hoga init project, as its --help says", async () => {
    expect((await hoga(['init'], { cwd: dir })).code).toBe(0);
    const migrate = await hoga(['db', 'migrate'], { cwd: dir });
    expect(migrate.code, migrate.err).toBe(0);
    expect(migrate.out).toBe(
      `${join(dir, 'data', 'sim.sqlite')}: schema version 0 → ${LATEST_SCHEMA_VERSION}\n`,
    );
    for (const command of ['info', 'migrate', 'orders', 'fills', 'runs', 'backup', 'positions']) {
      const help = (await hoga(['db', command, '--help'], { cwd: dir })).out.replace(/\s+/g, ' ');
      expect(help, command).toContain(
        "--db <file> database file (default: $HOGA_DB, else the profile's db, else ./data/hoga.sqlite)",
      );
    }
  });
});

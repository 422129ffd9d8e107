/**
 * `hoga data download` into a database that cannot grow: a full disk, simulated by a file-size limit
 * (`ulimit -f`) on the real `hoga` process (SQLite then fails a write with an I/O error). It must
 * say what happened, and keep what it stored before.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, jsonFailure, tempHome } from '../hoga-process.test-helper.js';

let cwd: string;
let home: string;
/**
 * A "node" that runs this process's Node under a 1 MiB file-size limit (more than Node's compile
 * cache, written at exit, needs).
 */
let limitedNode: string;

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'hoga-data-fsize-'));
  home = tempHome();
  limitedNode = join(cwd, 'node-1m');
  writeFileSync(limitedNode, `#!/bin/sh\nulimit -f 1024\nexec '${process.execPath}' "$@"\n`);
  chmodSync(limitedNode, 0o755);
});
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('hoga data download into a database that cannot grow', () => {
  it('says the database could not be written and what to check (not "unexpected error"), exit 1, and keeps what it stored', async () => {
    const db = join(cwd, 'small.sqlite');
    const options = { cwd, env: { HOME: home }, node: limitedNode };
    const range = '--symbols 005930,000660,035420 --interval 1m --from 2026-07-01 --to 2026-10-31'.split(' ');
    expect((await hoga(['db', 'migrate', '--db', db], { cwd, env: { HOME: home } })).code).toBe(0);
    const download = await hoga(['data', 'download', ...range, '--db', db, '--json'], options);
    expect(download.code).toBe(1);
    const failure = jsonFailure(download.err);
    expect(failure.code).toBe('EIO');
    expect(failure.message).toMatch(/^the database could not be written: disk I\/O error \(SQLITE_IOERR/);
    expect(failure.message).toContain('is the disk full, or a file-size limit (ulimit -f) reached?');

    // without the limit, the file opens whole, and what was stored before the failure is listed
    const info = await hoga(['db', 'info', '--db', db, '--json'], { cwd, env: { HOME: home } });
    expect(info.code, info.err).toBe(0);
    expect(JSON.parse(info.out)).toMatchObject({ integrity: ['ok'] });
    const list = await hoga(['data', 'list', '--db', db, '--json'], { cwd, env: { HOME: home } });
    expect(list.code, list.err).toBe(0);
    expect((JSON.parse(list.out) as { candles: number }[]).length).toBeGreaterThan(0);
  });
});

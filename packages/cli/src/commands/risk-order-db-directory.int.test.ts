/**
 * `hoga risk status|reset|set` and `hoga order buy|sell|modify|cancel` given a directory as --db:
 * the real `hoga` as a child process. Before, risk exited 1 with `hoga: EISDIR: illegal operation on
 * a directory, read` and order 1 with `hoga: unexpected error: EISDIR: …`, while the other commands
 * given a directory as --db (`hoga data list`, `hoga db orders`) exit 2 saying it is a directory.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hoga, jsonFailure } from '../hoga-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-dir-'));

describe('hoga risk and hoga order --db <a directory>', () => {
  it.each([
    ['risk status', []],
    ['risk reset', []],
    ['risk set', ['HALTED', '--account']],
    ['order buy', ['005930', '1', '--limit', '60000']],
    ['order cancel', ['1']],
  ])('%s exits 2 and says --db names a directory, as hoga data list does', async (command, rest) => {
    const args = [...command.split(' '), ...rest, '--db', dir];
    const run = await hoga(args);
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err).toBe(`hoga: ${dir} is a directory: give --db the path of a database file\n`);
    const json = await hoga([...args, '--json']);
    expect(json.code).toBe(2);
    expect(jsonFailure(json.err)).toMatchObject({
      code: 'usage',
      message: `${dir} is a directory: give --db the path of a database file`,
    });
  });

  it('hoga data list says the same of it (the wording risk and order now share)', async () => {
    const run = await hoga(['data', 'list', '--db', dir]);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`hoga: ${dir} is a directory: give --db the path of a database file\n`);
  });
});

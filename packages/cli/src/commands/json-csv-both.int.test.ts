/**
 * `--json` and `--csv` together are one usage error in every command that takes both: exit 2 before
 * the command does anything, `give --json or --csv, not both` and the command's help pointed at.
 * Before, the broker commands refused them, but `hoga db orders|fills|runs|positions` and
 * `hoga data list|download` printed JSON and dropped `--csv` silently (a download ran first). Every
 * `hoga` a child process; the database a file the command would have made.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../hoga-process.test-helper.js';

let cwd: string;
let home: string;

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'hoga-json-csv-'));
  home = tempHome();
});
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const DOWNLOAD = '--symbols 005930 --interval 1d --from 2025-01-02 --to 2025-01-10'.split(' ');

describe('--json with --csv', () => {
  it.each([
    [['db', 'orders']],
    [['db', 'fills']],
    [['db', 'runs']],
    [['db', 'positions']],
    [['data', 'list']],
    [['data', 'download', ...DOWNLOAD]],
  ])(
    'hoga %j: exit 2 at once, one problem and the help pointed at; no file made',
    async (args) => {
      const name = args.slice(0, 2).join(' ');
      const file = join(cwd, `${args.slice(0, 2).join('-')}.sqlite`);
      const r = await hoga([...args, '--db', file, '--json', '--csv'], { cwd, env: { HOME: home } });
      expect(r.code, r.err).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toContain('give --json or --csv, not both');
      expect(r.err).toContain(`see hoga ${name} --help`);
      expect(existsSync(file)).toBe(false);
    },
    60_000,
  );

  it('a broker command says the same (no broker is asked: none is configured)', async () => {
    const r = await hoga(['quote', '005930', '--json', '--csv'], { cwd, env: { HOME: home } });
    expect(r.code, r.err).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('give --json or --csv, not both');
    expect(r.err).toContain('see hoga quote --help');
  }, 60_000);
});

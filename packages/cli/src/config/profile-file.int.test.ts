/**
 * A `hoga.config.json` or `.env` that cannot be used as it is, as the real `hoga` (a child process)
 * meets it: a usage error (exit 2) naming the file and what is wrong, before the command does
 * anything. Before, a config file or `.env` that was a directory ended in `hoga: unexpected error:
 * EISDIR`, and a profile's value of the wrong type was used as text (`"db": 5` opened `./5`), a
 * profile that was not an object, a misspelt key (`baseURL`) or a `defaultProfile` that was not a
 * name were ignored without a word.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../hoga-process.test-helper.js';

let home: string;
let root: string;
let n = 0;

beforeAll(() => {
  home = tempHome();
  root = mkdtempSync(join(tmpdir(), 'hoga-profile-file-'));
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

/** A project directory with `config` as its hoga.config.json (a directory when null). */
function project(config: unknown): { dir: string; file: string } {
  const dir = join(root, `p${n++}`);
  mkdirSync(dir);
  const file = join(dir, 'hoga.config.json');
  if (config === null) mkdirSync(file);
  else writeFileSync(file, JSON.stringify(config));
  return { dir, file };
}

/** `hoga db runs` in `dir` (a command that reads the profile's db and asks no broker). */
const dbRuns = (dir: string, ...extra: string[]) =>
  hoga(['db', 'runs', ...extra], { cwd: dir, env: { HOME: home } });

describe('a hoga.config.json that cannot be used', () => {
  it('a directory: exit 2, the file named, nothing unexpected', async () => {
    const { dir, file } = project(null);
    const r = await dbRuns(dir);
    expect([r.code, r.out]).toEqual([2, '']);
    expect(r.err).toBe(`hoga: cannot read ${file} (EISDIR): give HOGA_CONFIG or a hoga.config.json file\n`);
  });

  it('a .env that is a directory: exit 2, the file named', async () => {
    const { dir } = project({ profiles: {} });
    mkdirSync(join(dir, '.env'));
    const r = await dbRuns(dir);
    expect([r.code, r.out]).toEqual([2, '']);
    expect(r.err).toBe(`hoga: cannot read ${join(dir, '.env')} (EISDIR)\n`);
  });

  it.each([
    [{ profiles: { sim: { db: 5 } } }, 'profile "sim": db: expected a string, found 5'],
    [
      { profiles: { sim: { baseURL: 'http://127.0.0.1:1' } } },
      'profile "sim": unknown key baseURL (a profile has baseUrl, clientId, clientSecret, clientSecretFile, accountSeq, db, tokenFile)',
    ],
    [{ profiles: { sim: 5 } }, 'profile "sim": expected an object (of baseUrl, clientId, …), found 5'],
    [
      { profiles: { sim: { accountSeq: true } } },
      'profile "sim": accountSeq: expected a string or a whole number, found true',
    ],
    [
      { defaultProfile: 5, profiles: { sim: {} } },
      'defaultProfile: expected the name of one of its profiles, found 5',
    ],
  ])('%j: exit 2 naming the file, the profile, the key and what was expected', async (config, problem) => {
    const { dir, file } = project(config);
    const r = await dbRuns(dir, ...('defaultProfile' in config ? [] : ['--profile', 'sim']));
    expect([r.code, r.out]).toEqual([2, '']);
    expect(r.err).toBe(`hoga: ${file}: ${problem}\n`);
  });

  it('a profile as hoga init writes it, and null values, are taken', async () => {
    const { dir } = project({
      defaultProfile: 'sim',
      profiles: {
        sim: {
          baseUrl: 'http://127.0.0.1:1',
          clientId: 'a',
          clientSecret: null,
          accountSeq: 1,
          db: './d.sqlite',
        },
      },
    });
    const r = await dbRuns(dir);
    // the profile's db, relative to the file, is the one looked for
    expect(r.err).toBe(`hoga db: no database at ${join(dir, 'd.sqlite')}: give --db or HOGA_DB\n`);
  });
});

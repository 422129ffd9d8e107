/**
 * Issue 13, items 4, 8 and 10: read commands open the database read-only, a real `hoga` bin that
 * resolves paths against the caller's directory and prints only its own output, and no file
 * created that nobody asked for.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envWithoutHoga, hoga, nodeForAnyUser, REPO_ROOT, simFlags } from './hoga-process.test-helper.js';

const exec = promisify(execFile);
let sim: SimulatorHandle;
const dir = mkdtempSync(join(tmpdir(), 'hoga-files-'));

beforeAll(async () => {
  sim = await startSimulator({ start: '2026-11-23T10:00:00.000+09:00', rateLimit: false });
});
afterAll(async () => {
  await sim.close();
});

describe('read-only database (item 4)', () => {
  it.runIf(process.getuid?.() === 0)(
    'db info and db orders read a 0644 file owned by someone else',
    async () => {
      const file = join(dir, 'theirs.sqlite');
      expect((await hoga(['db', 'migrate', '--db', file])).code).toBe(0);
      chmodSync(dir, 0o755);
      chmodSync(file, 0o644);
      const asNobody = { uid: 65534, cwd: '/', env: { HOME: '/tmp' }, node: nodeForAnyUser() };
      const info = await hoga(['db', 'info', '--db', file, '--json'], asNobody);
      expect(info.err).toBe('');
      expect(info.code).toBe(0);
      expect(JSON.parse(info.out)).toMatchObject({ file, integrity: ['ok'] });
      const orders = await hoga(['db', 'orders', '--db', file, '--json'], asNobody);
      expect(orders.err).toBe('');
      expect(orders.code).toBe(0);
      expect(JSON.parse(orders.out)).toEqual([]);
    },
  );

  it.runIf(process.getuid?.() === 0)('db positions reads a 0644 file owned by someone else', async () => {
    const file = join(dir, 'their-positions.sqlite');
    expect((await hoga(['db', 'migrate', '--db', file])).code).toBe(0);
    chmodSync(dir, 0o755);
    chmodSync(file, 0o644);
    const asNobody = { uid: 65534, cwd: '/', env: { HOME: '/tmp' }, node: nodeForAnyUser() };
    const paper = await hoga(['db', 'positions', '--db', file, '--mode', 'paper', '--json'], asNobody);
    expect(paper.err).toBe('');
    expect(paper.code).toBe(0);
    expect(JSON.parse(paper.out)).toEqual([]);
    const live = await hoga(['db', 'positions', '--db', file], asNobody);
    expect(live.code).toBe(0);
    // the file named is the user's, not the private copy read in its place
    expect(live.err).toContain(`no live run has started on this store (${file})`);
    expect(live.out).toBe(`no live positions in ${file}\n`);
  });

  it('db info on a missing file creates nothing', async () => {
    const file = join(dir, 'nothing-here.sqlite');
    const run = await hoga(['db', 'info', '--db', file]);
    expect(run.code).toBe(2);
    expect(existsSync(file)).toBe(false);
  });
});

describe('files nobody asked for (item 10)', () => {
  it('a broker command with --db missing.sqlite refuses (exit 2) and creates no file', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'hoga-nofile-'));
    const run = await hoga(['quote', '005930', '--db', 'missing.sqlite', ...simFlags(sim.url)], {
      cwd,
      env: { HOME: dir },
    });
    expect(run.err).toMatch(/^hoga: no database at .*missing\.sqlite: create it with hoga db migrate/);
    expect(run.code).toBe(2);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('the token cache goes where HOGA_TOKEN_FILE says, and nowhere else', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hoga-home-'));
    const tokens = join(dir, 'my-tokens.json');
    const run = await hoga(['fx', ...simFlags(sim.url)], { env: { HOME: home, HOGA_TOKEN_FILE: tokens } });
    expect(run.code).toBe(0);
    expect(existsSync(tokens)).toBe(true);
    expect(readdirSync(home)).toEqual([]);
  });
});

describe('the hoga command (item 8)', () => {
  it("resolves relative paths against the caller's directory and prints only its own output", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'hoga-cwd-'));
    const run = await hoga(['db', 'migrate', '--db', './mine.sqlite'], { cwd });
    expect(run.err).toBe('');
    expect(run.out).toMatch(new RegExp(`^${join(cwd, 'mine.sqlite')}: schema version 0 → \\d+\\n$`));
    expect(existsSync(join(cwd, 'mine.sqlite'))).toBe(true);
  });

  it('pnpm -w hoga runs from a subdirectory against that directory, without echoing the command', async () => {
    const sub = join(REPO_ROOT, 'packages', 'engine');
    const { stdout, stderr } = await exec(
      'pnpm',
      ['-w', '--silent', 'hoga', 'db', 'info', '--db', './no-such.sqlite'],
      {
        cwd: sub,
        env: { ...envWithoutHoga(), HOGA_DB: '' },
      },
    ).catch((error: { stdout: string; stderr: string }) => error);
    expect(stdout).toBe('');
    expect(stderr).toContain(`no database at ${join(sub, 'no-such.sqlite')}`);
    expect(stderr).not.toContain('tsx');
  });

  it('installs as a global command (npm i -g) that works from any directory', async () => {
    const prefix = mkdtempSync(join(tmpdir(), 'hoga-global-'));
    await exec('npm', [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--no-audit',
      '--no-fund',
      '--offline',
      REPO_ROOT,
    ]);
    const { stdout, stderr } = await exec(join(prefix, 'bin', 'hoga'), ['--version'], { cwd: tmpdir() });
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(stderr).toBe('');
  });

  it('installs as a global command with pnpm (pnpm add -g .) that works from any directory', async () => {
    // pnpm 10+ has no `link --global`; `add -g` of a directory links it. Its bin directory must be
    // on PATH, as `pnpm setup` arranges on a user's machine.
    const home = mkdtempSync(join(tmpdir(), 'hoga-pnpm-home-'));
    const env = { ...envWithoutHoga(), PNPM_HOME: home, PATH: `${join(home, 'bin')}:${process.env.PATH}` };
    await exec('pnpm', ['add', '-g', '.'], { cwd: REPO_ROOT, env });
    const { stdout, stderr } = await exec('hoga', ['--version'], { cwd: tmpdir(), env });
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(stderr).toBe('');
  });
});

/**
 * With `--json`, a failure is one line of JSON, `{"error":{"code","message","exitCode",…}}`, the last
 * line of stderr (stdout keeps only results, as gh and kubectl do), with the exit code the text
 * form has. Before, the error was a plain `hoga: …` sentence, so a script reading JSON got nothing
 * it could parse. Without `--json` the text is unchanged.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HogaRun, hoga, simFlags } from './hoga-process.test-helper.js';

let sim: SimulatorHandle;
const dir = mkdtempSync(join(tmpdir(), 'hoga-json-errors-'));
const env = { HOGA_TOKEN_FILE: join(dir, 'tokens.json') };

beforeAll(async () => {
  sim = await startSimulator({ start: '2026-11-23T10:00:00.000+09:00', rateLimit: false });
});
afterAll(async () => {
  await sim.close();
});

interface JsonError {
  readonly error: { readonly code: string; readonly message: string; readonly exitCode: number };
}

/** The failure a run printed: its stderr's last line, parsed (throws when it is not JSON). */
function jsonError(run: HogaRun): JsonError['error'] {
  const lines = run.err.trimEnd().split('\n');
  const parsed = JSON.parse(lines.at(-1) ?? '') as JsonError;
  expect(parsed.error.exitCode).toBe(run.code);
  return parsed.error;
}

describe('hoga … --json prints its failure as JSON', () => {
  it('a broker refusal (an unknown symbol) keeps exit 1 and names the broker code', async () => {
    const run = await hoga(['quote', 'NOSUCH', '--json', ...simFlags(sim.url)], { env });
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    const error = jsonError(run);
    expect(error.code).not.toBe('');
    expect(error.message).toMatch(/NOSUCH|symbol/i);
    // the same failure without --json is the sentence it was
    const text = await hoga(['quote', 'NOSUCH', ...simFlags(sim.url)], { env });
    expect(text.code).toBe(1);
    expect(text.err).toMatch(/^hoga: /);
    expect(() => JSON.parse(text.err)).toThrow();
  });

  it('an unreachable broker keeps exit 1', async () => {
    const run = await hoga(
      ['holdings', '--json', '--base-url', 'http://127.0.0.1:1', '--client-id', 'c', '--client-secret', 's'],
      { env },
    );
    expect(run.code).toBe(1);
    const error = jsonError(run);
    expect(error.code).toBe('ECONNREFUSED');
    expect(error.message).toContain('is not reachable');
  });

  it('a usage error found while parsing (an unknown flag) keeps exit 2 and the help hint', async () => {
    const run = await hoga(['quote', '005930', '--json', '--bogus', ...simFlags(sim.url)], { env });
    expect(run.code).toBe(2);
    expect(run.err.trimEnd().split('\n')).toHaveLength(1);
    const error = jsonError(run);
    expect(error).toMatchObject({ code: 'usage', hint: 'see hoga quote --help' });
    expect(error.message).toContain('--bogus');
  });

  it('a missing connection setting keeps exit 2', async () => {
    const run = await hoga(['accounts', '--json'], { env });
    expect(run.code).toBe(2);
    expect(jsonError(run).message).toMatch(/HOGA_BASE_URL.* not set/);
  });

  it('a bad order (hoga order buy without a price) keeps exit 2', async () => {
    const run = await hoga(
      ['order', 'buy', '005930', '1', '--json', ...simFlags(sim.url), '--db', join(dir, 'order.sqlite')],
      { env },
    );
    expect(run.code).toBe(2);
    expect(jsonError(run)).toMatchObject({ code: 'usage', message: expect.stringContaining('--limit') });
  });

  it('hoga db runs on a missing file and hoga db orders on a directory keep exit 2', async () => {
    const missing = await hoga(['db', 'runs', '--json', '--db', join(dir, 'none.sqlite')], { env });
    expect(missing.code).toBe(2);
    expect(missing.out).toBe('');
    expect(jsonError(missing).message).toContain('no database at');
    const folder = join(dir, 'folder');
    mkdirSync(folder, { recursive: true });
    const directory = await hoga(['db', 'orders', '--json', '--db', folder], { env });
    expect(directory.code).toBe(2);
    expect(jsonError(directory).message).toContain('is a directory');
  });

  // Before: db positions on a directory said "unexpected error: EISDIR …" (exit 1) and on a missing
  // file exited 1; db runs on a directory said there was no database there.
  it('hoga db positions and hoga db runs on a directory, and db positions on a missing file, exit 2 saying so', async () => {
    const folder = join(dir, 'folder-read');
    mkdirSync(folder, { recursive: true });
    for (const command of ['positions', 'runs']) {
      const run = await hoga(['db', command, '--json', '--db', folder], { env });
      expect(run.code, command).toBe(2);
      expect(jsonError(run).message).toContain(`${folder} is a directory`);
    }
    const missing = await hoga(['db', 'positions', '--db', join(dir, 'none.sqlite')], { env });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no database at');
  });

  it('hoga data list on a missing file', async () => {
    const run = await hoga(['data', 'list', '--json', '--db', join(dir, 'nothing', 'x.sqlite')], { env });
    expect(run.code).not.toBe(0);
    expect(jsonError(run).message).not.toBe('');
  });

  it('a command that takes no --json is unchanged (hoga sim --bogus)', async () => {
    const run = await hoga(['sim', '--bogus', '--json'], { env });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^hoga sim: /);
  });
});

describe('hoga risk … --json prints its failure as JSON (before: a plain hoga: line)', () => {
  it('a missing store keeps exit 2 and says where it looked', async () => {
    const missing = join(dir, 'no-risk-store.sqlite');
    const run = await hoga(['risk', 'status', '--json', '--db', missing], { env });
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(jsonError(run)).toMatchObject({ code: 'usage', message: expect.stringContaining(missing) });
    // the same failure without --json is the sentence it was
    const text = await hoga(['risk', 'status', '--db', missing], { env });
    expect(text.code).toBe(2);
    expect(text.err).toMatch(/^hoga: no database at /);
  });

  it('a set without exactly one scope, and a reason of two lines, keep exit 2', async () => {
    const db = join(dir, 'risk.sqlite');
    await hoga(['db', 'migrate', '--db', db], { env });
    const unscoped = await hoga(['risk', 'set', 'HALTED', '--json', '--db', db], { env });
    expect(unscoped.code).toBe(2);
    expect(jsonError(unscoped)).toMatchObject({
      code: 'usage',
      message: expect.stringContaining('one scope'),
    });
    const twoLines = await hoga(['risk', 'reset', '--json', '--db', db, '--reason', 'done\nfor today'], {
      env,
    });
    expect(twoLines.code).toBe(2);
    expect(jsonError(twoLines)).toMatchObject({
      code: 'usage',
      message: expect.stringContaining('--reason'),
    });
    // nothing was changed by either
    const status = await hoga(['risk', 'status', '--json', '--db', db], { env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.out)).toEqual({ states: {} });
  });

  it("a file that is not a hoga store keeps exit 1 and names the store's code", async () => {
    const foreign = join(dir, 'notes.sqlite');
    writeFileSync(foreign, 'not a database\n');
    const run = await hoga(['risk', 'reset', '--json', '--db', foreign], { env });
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    const error = jsonError(run);
    expect(error.message).toContain('is not a hoga database');
    expect(error.code).toBe('foreign-database');
  });
});

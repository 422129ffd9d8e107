/**
 * `hoga run --log-file` when the file can no longer be written mid-run (a full disk, a removed
 * mount, the path taken by something else): the run goes on, says so once, and keeps its output.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, REST_ARGS, root, setup, start, until } from './run-process.test-helper.js';

const LOGS_EACH_BAR = join(root, 'packages/cli/test/fixtures/logs-each-bar.ts');

afterEach(async () => {
  await closeSims();
});

describe('hoga run --log-file', () => {
  // Before: every log call threw once the file could not be appended to, into whatever had logged
  // (the strategy's ctx.log inside its onBar, the engine's failure path), and the run died with a
  // raw "Error: EISDIR: illegal operation on a directory" stack trace (exit 7).
  it('goes on when the file can no longer be written, saying so once on stderr', async () => {
    const { sim, db } = await setup();
    const logFile = join(dirname(db), 'run.jsonl');
    const r = start(
      ['run', LOGS_EACH_BAR, '--mode', 'paper', '--log-file', logFile, ...REST_ARGS],
      env(sim, db),
    );
    expect(await until(r, /bar 2 of 005930/, 90_000), r.out.join('')).toBe(true);
    expect(readFileSync(logFile, 'utf8')).toContain('"msg":"bar 1 of 005930"');
    // The path becomes a directory: appending to it fails (EISDIR), even as root.
    rmSync(logFile);
    mkdirSync(logFile);
    expect(await until(r, /bar 5 of 005930/, 90_000), r.out.join('')).toBe(true);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    const out = r.out.join('');
    const warnings = out.split('\n').filter((line) => line.includes('--log-file'));
    expect(warnings).toEqual([
      `hoga: --log-file ${logFile} cannot be written (EISDIR: is a directory); records are no longer written to it`,
    ]);
    expect(out).not.toContain('threw');
  }, 150_000);
});

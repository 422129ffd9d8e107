/**
 * Ctrl-C twice in a running `hoga run`: the first stops the run (it waits for the strategies'
 * hooks), the second quits at once, saying so, exit 130. Before, the second signal ended the process
 * by Node's default (no listener left), with no word (killed by SIGINT) — and only because the token
 * cache's lock library (signal-exit) happened to register its listener first: the other way round it
 * re-raised the first signal in the middle of the stop.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSims,
  env,
  exitedWithin,
  REST_ARGS,
  root,
  setup,
  start,
  until,
} from './run-process.test-helper.js';

afterEach(closeSims);

const WAITS_IN_ON_STOP = join(root, 'packages/cli/test/fixtures/waits-in-on-stop.ts');

describe('hoga run: Ctrl-C twice', () => {
  it('the second quits at once while the stop waits for a hook: said, exit 130', async () => {
    const { sim, db } = await setup();
    const r = start(['run', WAITS_IN_ON_STOP, '--mode', 'paper', ...REST_ARGS], env(sim, db));
    expect(await until(r, / status {2}holdings: /, 90_000), r.out.join('')).toBe(true);
    r.child.kill('SIGINT');
    expect(await until(r, /onStop: waiting/, 60_000), r.out.join('')).toBe(true);
    r.child.kill('SIGINT');
    expect(await exitedWithin(r, 30_000)).toBe(130);
    expect(r.err.join('')).toContain('hoga run: interrupted again: quitting at once');
  }, 180_000);
});

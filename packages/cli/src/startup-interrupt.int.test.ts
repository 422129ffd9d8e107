/**
 * Ctrl-C while the CLI's code is still loading, before any command has its own handler: said, exit
 * 130, as `hoga run` says it once its start-up handler is in place (run-start-interrupt.ts).
 * Before, Node's default ended the process on the signal with no word at all.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, REPO_ROOT, simFlags } from './hoga-process.test-helper.js';

/** Holds the load of the CLI's code, after `test: the bundle is loading` on stderr. */
const HOLD = join(REPO_ROOT, 'packages/cli/test/fixtures/holds-the-bundle-load.mjs');
const dir = mkdtempSync(join(tmpdir(), 'hoga-startup-interrupt-'));
let sim: SimulatorHandle;
let runs = 0;

beforeAll(async () => {
  sim = await startSimulator({ start: '2026-11-23T10:00:00.000+09:00', rateLimit: false });
});
afterAll(async () => {
  await sim.close();
});

/**
 * Runs `hoga <args>` with the load of its code held; once it is loading, Ctrl-C (or `signal`), then the load goes
 * on (the signal comes while the code loads, as during a slow read and compile of the bundle).
 */
function interruptedWhileLoading(args: readonly string[], signal: NodeJS.Signals = 'SIGINT') {
  const release = join(dir, `loaded-${++runs}`);
  return hoga(args, {
    env: {
      NODE_OPTIONS: `--import=${HOLD}`,
      HOLD_BUNDLE_UNTIL: release,
      HOGA_TOKEN_FILE: join(dir, 'tokens.json'),
      // (hoga run's re-execution with its Node settings would load the hold twice; it changes nothing here)
      HOGA_RUN_TUNED: '1',
    },
    onSpawn: (child) => {
      let seen = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        if (seen.includes('test: the bundle is loading')) {
          seen = '';
          child.kill(signal);
          writeFileSync(release, '');
        }
      });
    },
  });
}

describe('Ctrl-C while the bundle is still loading', () => {
  it('hoga run: says no order was placed, exit 130 (the words of its later start-up)', async () => {
    const run = await interruptedWhileLoading([
      'run',
      join(REPO_ROOT, 'strategies/sma-crossover.ts'),
      '--mode',
      'paper',
      ...simFlags(sim.url),
      '--db',
      join(dir, 'run.sqlite'),
    ]);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(130);
    expect(run.err).toContain(
      'hoga run: interrupted during start-up, before the run started: no order was placed\n',
    );
  }, 60_000);

  /** `hoga order buy` of one 005930 at 60,000 into `db`, interrupted by `signal` while it loads. */
  async function orderBuyInterrupted(db: string, signal: NodeJS.Signals) {
    const args = ['order', 'buy', '005930', '1', '--limit', '60000', ...simFlags(sim.url)];
    const run = await interruptedWhileLoading([...args, '--db', join(dir, db)], signal);
    expect(run.signal).toBeNull();
    expect(run.err).toContain(
      'hoga order: interrupted during start-up, before the command ran: nothing was done\n',
    );
    expect(sim.counters().requestsByGroup.ORDER ?? 0).toBe(0);
    return run.code;
  }

  it('hoga order buy: says nothing was done, exit 130', async () => {
    expect(await orderBuyInterrupted('order.sqlite', 'SIGINT')).toBe(130);
  }, 60_000);

  it('SIGTERM while it loads: the same words, exit 143 (before: killed by the signal without a word)', async () => {
    expect(await orderBuyInterrupted('term.sqlite', 'SIGTERM')).toBe(143);
  }, 60_000);
});

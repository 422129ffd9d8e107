/**
 * Numeric flags take plain decimal digits: `hoga` as a child process refuses JavaScript's other
 * number spellings (`1e3`, `0x10`, `+5`, `Infinity`) with exit 2 and a sentence naming the flag and
 * the value, before it connects to anything or starts a simulator.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hoga, REPO_ROOT } from './hoga-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-number-flags-'));
const strategy = join(REPO_ROOT, 'strategies', 'sma-crossover.ts');
writeFileSync(join(dir, 'unused.json'), '{}');

describe('numeric flags take plain digits only', () => {
  it.each([
    ['run --poll-ms', ['run', strategy, '--mode', 'paper', '--poll-ms', '1e3'], '1e3'],
    ['run --poll-ms', ['run', strategy, '--mode', 'paper', '--poll-ms', '0x1f4'], '0x1f4'],
    ['run --status-every', ['run', strategy, '--mode', 'paper', '--status-every', '0x10'], '0x10'],
    ['run --status-every', ['run', strategy, '--mode', 'paper', '--status-every', 'Infinity'], 'Infinity'],
    ['quote --timeout', ['quote', '005930', '--timeout', '1e1'], '1e1'],
    ['start --seconds', ['start', '--seconds', '+5'], '+5'],
    ['sim --speed', ['sim', '--speed', '1e2'], '1e2'],
    ['sim --speed', ['sim', '--speed', 'Infinity'], 'Infinity'],
  ])('%s %j exits 2 naming the flag and the value', async (flag, args, value) => {
    const run = await hoga(args, { cwd: dir, killAfterMs: 30_000 });
    expect(run.code).toBe(2);
    expect(run.err).toContain(`option '${flag.split(' ')[1]}`);
    expect(run.err).toContain(`found "${value}"`);
    expect(run.err).not.toMatch(/\n\s+at /);
  });

  it('a value in range with blanks around it is still taken (--timeout " 5 ")', async () => {
    const run = await hoga(['quote', '--help', '--timeout', ' 5 '], { cwd: dir });
    expect(run.code).toBe(0);
  });
});

import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleScript, collectLines, exited } from './spawn-child.js';
import { tempDir } from './support.js';

const SOAK = join(import.meta.dirname, 'processes', 'gc-soak.ts');
const { dir, cleanup } = tempDir('hoga-gc-soak-');
let bundle: string;
beforeAll(async () => {
  bundle = await bundleScript(SOAK);
});
afterAll(() => {
  cleanup();
  rmSync(bundle, { force: true });
});

describe('better-sqlite3 under forced garbage collection', () => {
  it('finalizes thousands of collected statements without aborting the process', async () => {
    // The full two-minute soak is `pnpm --filter @hoga/store soak`; the suite runs ten seconds of it.
    const child = spawn(process.execPath, ['--expose-gc', bundle, join(dir, 'soak.sqlite'), '10'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = collectLines(child);
    const status = await exited(child);
    expect({ status, stderr: out.stderr() }).toEqual({ status: 0, stderr: '' });
    const iterations = Number(/^iterations (\d+)$/.exec(out.lines.join('\n').trim())?.[1]);
    expect(iterations).toBeGreaterThan(1_000);
  }, 60_000);
});

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useChildScript } from './child-script.test-helper.js';
import { collectLines, exited } from './spawn-child.js';

const SOAK = join(import.meta.dirname, 'processes', 'gc-soak.ts');
const script = useChildScript(SOAK, 'hoga-gc-soak-');
const { dir } = script;

describe('better-sqlite3 under forced garbage collection', () => {
  it('finalizes thousands of collected statements without aborting the process', async () => {
    // The full two-minute soak is `pnpm --filter @hoga/store soak`; the suite runs ten seconds of it.
    const child = spawn(process.execPath, ['--expose-gc', script.bundle, join(dir, 'soak.sqlite'), '10'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = collectLines(child);
    const status = await exited(child);
    expect({ status, stderr: out.stderr() }).toEqual({ status: 0, stderr: '' });
    const iterations = Number(/^iterations (\d+)$/.exec(out.lines.join('\n').trim())?.[1]);
    expect(iterations).toBeGreaterThan(1_000);
  }, 60_000);
});

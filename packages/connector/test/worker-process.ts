/**
 * Another process of the same client, for the tests of what processes share (the token, the rate
 * limits): a worker script run through tsx, its report the last line it prints, as JSON. Test
 * code only.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');

/**
 * Runs `worker` (a `.ts` file of this folder) with `args` in a process of its own and answers the
 * JSON of its last line.
 */
export async function runWorker<T>(worker: string, args: readonly string[]): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, worker), ...args],
    { cwd: root, timeout: 60_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

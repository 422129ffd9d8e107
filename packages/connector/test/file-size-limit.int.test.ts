/**
 * A process under a file-size limit (`ulimit -f`, systemd's `LimitFSIZE`) whose write goes past it:
 * Node ignores the SIGXFSZ the kernel sends and the write fails with EFBIG, which hoga reports (a
 * store write it retries, a command that says the disk could not be written). Loading the token
 * cache (proper-lockfile, and with it signal-exit) must not turn that signal into the process's end.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const cacheModule = join(import.meta.dirname, '..', 'src', 'token', 'file-token-cache.ts');

describe('a process with the file token cache loaded, past its file-size limit', () => {
  it('gets EFBIG from the write and lives on, instead of being ended by SIGXFSZ', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-fsize-'));
    const script = [
      `import { FileTokenCache } from ${JSON.stringify(cacheModule)};`,
      "import { writeFileSync } from 'node:fs';",
      `new FileTokenCache(${JSON.stringify(join(dir, 'tokens.json'))});`,
      `try { writeFileSync(${JSON.stringify(join(dir, 'big.bin'))}, Buffer.alloc(200_000)); }`,
      "catch (e) { console.log('write failed', e.code); }",
      // the signal is handled on a later turn of the event loop: still here several turns on
      "setTimeout(() => console.log('still running'), 200);",
    ].join('\n');
    const command = `ulimit -f 64; exec '${process.execPath}' --import tsx --input-type=module -e "$0"`;
    const result = await run('sh', ['-c', command, script], { cwd: root, timeout: 30_000 }).catch(
      (error: { stdout: string; signal: string | null; code: number | null }) => error,
    );
    expect(result.stdout).toBe('write failed EFBIG\nstill running\n');
    expect((result as { signal?: string | null }).signal ?? null).toBeNull();
  });
});

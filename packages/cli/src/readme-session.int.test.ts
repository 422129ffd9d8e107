/**
 * Issue 13 item 12 and the newcomer's transcript: the README's first session (`hoga sim`, `hoga
 * init`, `hoga quote`, `hoga data download`, `hoga data list`) run as written, in a fresh directory,
 * on whatever day it is (the simulator starts at the real time). The only change: the simulator
 * listens on a free port, given through HOGA_BASE_URL (the environment overrides the profile).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOGA_BIN, hoga, REPO_ROOT } from './hoga-process.test-helper.js';

let sim: ChildProcess | undefined;
afterAll(() => {
  sim?.kill('SIGTERM');
});

/** The `hoga …` lines of the README's sh block under "The `hoga` command". */
function readmeSession(): string[][] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /## The `hoga` command[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('hoga '))
    .map((line) => line.split(/\s+/).slice(1));
}

describe('the README session', () => {
  it('runs as written in a fresh directory', async () => {
    const lines = readmeSession();
    expect(lines[0]).toEqual(['sim', '&']);
    const cwd = mkdtempSync(join(tmpdir(), 'hoga-newcomer-'));
    const home = mkdtempSync(join(tmpdir(), 'hoga-newcomer-home-'));
    sim = spawn(process.execPath, [HOGA_BIN, 'sim', '--port', '0'], {
      cwd,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve) => {
      sim!.stdout!.on('data', (chunk: Buffer) => {
        const match = /listening on (\S+)/.exec(chunk.toString());
        if (match) resolve(match[1]!);
      });
    });
    const transcript: string[] = [`$ hoga sim &\nlistening on ${url}`];
    for (const args of lines.slice(1)) {
      const run = await hoga(args, { cwd, env: { HOME: home, HOGA_BASE_URL: url } });
      transcript.push(`$ hoga ${args.join(' ')}\n${run.out}${run.err}`.trimEnd());
      expect(run.code, `hoga ${args.join(' ')}: ${run.err}`).toBe(0);
    }
    const text = transcript.join('\n\n');
    expect(text).toMatch(/wrote .*hoga\.config\.json/);
    expect(text).toMatch(/^005930\s+\d{1,3}(,\d{3})+\s+KRW/m);
    expect(text).toMatch(/^AAPL\s+\$[\d,]+\.\d\d\s+USD/m);
    expect(text).toMatch(/downloaded [\d,]+ candles in \d+ pages into .*data\/sim\.sqlite/);
    expect(text).toMatch(/^AAPL\s+1d\s+yes\s+1\s/m);
    if (process.env.HOGA_TRANSCRIPT) writeFileSync(process.env.HOGA_TRANSCRIPT, `${text}\n`);
  }, 120_000);
});

/**
 * Start-up of the `hoga` command against bare Node (`node -e 0`), measured in the same run: the
 * median wall time of `hoga --version` and of `hoga quote 005930` (against the simulator, in this
 * process) over repeated runs, as ratios to the baseline and in seconds beside the issue's aims
 * (`--version` ≤ 0.3 s, a quote ≤ 0.6 s).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '@hoga/simulator';

const HOGA = join(import.meta.dirname, '..', 'bin', 'hoga.js');
const RUNS = Number(process.env.HOGA_BENCH_RUNS ?? 15);

function once(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e9);
    });
  });
}

async function median(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  await once(args, env); // warm: the bundle is built if stale, the OS cache is filled
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await once(args, env));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const sim = await startSimulator({ start: '2026-11-23T10:00:00.000+09:00', rateLimit: false });
const env = {
  ...process.env,
  HOME: mkdtempSync(join(tmpdir(), 'hoga-bench-')),
  HOGA_BASE_URL: sim.url,
  HOGA_CLIENT_ID: 'sim-client',
  HOGA_CLIENT_SECRET: 'sim-secret',
  NO_COLOR: '1',
};
try {
  const baseline = await median(['-e', '0'], env);
  const version = await median([HOGA, '--version'], env);
  const quote = await median([HOGA, 'quote', '005930'], env);
  const line = (name: string, s: number, aim: number | null) =>
    `${name.padEnd(22)} ${s.toFixed(3)} s  ${(s / baseline).toFixed(1).padStart(5)}× node -e 0${aim === null ? '' : `  (aim ≤ ${aim} s: ${s <= aim ? 'met' : 'NOT met'})`}`;
  console.log(`hoga start-up, median of ${RUNS} runs each`);
  console.log(line('node -e 0', baseline, null));
  console.log(line('hoga --version', version, 0.3));
  console.log(line('hoga quote 005930', quote, 0.6));
} finally {
  await sim.close();
}

/**
 * Paper engine memory, measured on the process a user runs: `hoga run <sma-crossover.ts> --mode
 * paper` (bin/hoga.js, the bundled command) against the simulator in a process of its own at ×60,
 * the SMA crossover (1m bars, fast 3, slow 8) on the simulator's six KR stocks, or on
 * `HOGA_BENCH_SYMBOLS` symbols (the six and generated KR stocks, which the simulator then lists).
 * From its first status line (the run has started: the risk gate has read every symbol's market
 * data) the engine's RSS is read from /proc every 5 real seconds for an hour of simulated time
 * (`HOGA_BENCH_SECONDS`, default 60 real seconds). Prints the samples, the peak, the drift from the
 * first sample to the last, and what the RSS is made of (file-backed pages, mostly the Node binary
 * itself, and anonymous memory, the heap among it); the baseline, measured in the same run, is an
 * idle Node process doing nothing. The engine runs with what bin/hoga.js gives `hoga run` (its
 * V8 flags and `MALLOC_ARENA_MAX`, applied by re-executing in the same process; `HOGA_RUN_TUNED=1`
 * in the environment measures a run without them). Asserts nothing. Linux only (/proc).
 *
 * Run: `pnpm --filter @hoga/engine exec tsx bench/paper-rss.bench.ts`; `HOGA_BENCH_SYMBOLS=200`
 * for 200 symbols. The client keeps the broker's rate limits (candles 5/s, order books and prices
 * 10/s), so with many symbols each is polled less often.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const SECONDS = Number(process.env.HOGA_BENCH_SECONDS ?? 60);
const SPEED = 60;
const FIXED = ['005930', '000660', '035420', '069500', '035720', '247540'];
const COUNT = Number(process.env.HOGA_BENCH_SYMBOLS ?? FIXED.length);
const EXTRA = Math.max(0, COUNT - FIXED.length);
const SYMBOLS = [...FIXED.slice(0, COUNT), ...Array.from({ length: EXTRA }, (_, i) => String(400_001 + i))];
const root = resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(join(tmpdir(), 'hoga-paper-rss-'));

/** RSS and its file-backed and anonymous parts of a process, in MB. */
interface Memory {
  readonly rss: number;
  readonly file: number;
  readonly anon: number;
}

function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, file: kb('RssFile') / 1024, anon: kb('RssAnon') / 1024 };
}

const mb = (n: number) => n.toFixed(0);

// The baseline: an idle Node process (the same binary), what any Node program starts from.
const idle = spawnSync(
  process.execPath,
  [
    '-e',
    `setTimeout(() => process.stdout.write(require('node:fs').readFileSync('/proc/self/status', 'utf8')), 500)`,
  ],
  { encoding: 'utf8' },
);
const idleRss = Number(/VmRSS:\s+(\d+)/.exec(idle.stdout)?.[1] ?? Number.NaN) / 1024;

const sim = spawn(
  process.execPath,
  ['--import', 'tsx', join(import.meta.dirname, 'sim-process.ts'), String(SPEED), String(EXTRA)],
  { cwd: join(root, 'packages/engine'), stdio: ['ignore', 'pipe', 'inherit'] },
);
const url = await new Promise<string>((done) =>
  sim.stdout.once('data', (c: Buffer) => done(c.toString().trim())),
);
writeFileSync(join(work, 'sma.json'), JSON.stringify({ fast: 3, slow: 8, quantity: 10 }));
const startedReal = performance.now();
const engine = spawn(
  process.execPath,
  [
    join(root, 'packages/cli/bin/hoga.js'),
    'run',
    join(root, 'strategies/sma-crossover.ts'),
    '--mode',
    'paper',
    '--symbols',
    SYMBOLS.join(','),
    '--interval',
    '1m',
    '--config',
    join(work, 'sma.json'),
    '--status-every',
    '5',
    '--cash-krw',
    '100000000',
  ],
  {
    cwd: work,
    env: {
      ...process.env,
      HOGA_BASE_URL: url,
      HOGA_CLIENT_ID: 'sim-client',
      HOGA_CLIENT_SECRET: 'sim-secret',
      HOGA_DB: join(work, 'hoga.sqlite'),
      HOGA_TOKEN_FILE: join(work, 'token.json'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const pid = engine.pid ?? -1;
let lastStatus = '';
let fills = 0;
let started: () => void = () => {};
const running = new Promise<void>((done) => {
  started = done;
});
let buffered = '';
engine.stdout.on('data', (chunk: Buffer) => {
  buffered += chunk.toString();
  const lines = buffered.split('\n');
  buffered = lines.pop() ?? '';
  for (const line of lines) {
    if (/ status /.test(line)) {
      lastStatus = line.trim();
      started();
    }
    if (/ fill /.test(line)) fills++;
  }
});
const exited = new Promise<number | null>((done) => engine.once('exit', (code) => done(code)));

await Promise.race([running, exited]);
const startup = memoryOf(pid);
console.log(
  `${SYMBOLS.length} symbols: the run started after ${((performance.now() - startedReal) / 1000).toFixed(1)} s real ` +
    `(the risk gate reads each symbol's market data first); RSS ${mb(startup.rss)} MB`,
);
const samples: Memory[] = [];
for (let t = 0; t < SECONDS; t += 5) {
  await new Promise((r) => setTimeout(r, 5_000));
  samples.push(memoryOf(pid));
  const m = samples.at(-1) as Memory;
  console.log(`  ${t + 5} s: ${mb(m.rss)} MB (file ${mb(m.file)}, anonymous ${mb(m.anon)}) | ${lastStatus}`);
}
const stopping = performance.now();
engine.kill('SIGTERM');
const code = await exited;
const stopSeconds = (performance.now() - stopping) / 1000;
sim.kill('SIGTERM');
const first = samples[0]?.rss ?? Number.NaN;
const last = samples.at(-1)?.rss ?? Number.NaN;
const peak = Math.max(...samples.map((s) => s.rss));
console.log(`paper engine (hoga run --mode paper), ${SYMBOLS.length} symbols, ×${SPEED}, ${fills} fills`);
console.log(`  RSS samples (MB, every 5 s): ${samples.map((s) => mb(s.rss)).join(' ')}`);
console.log(
  `  peak ${mb(peak)} MB, drift ${(((last - first) / first) * 100).toFixed(1)} % (first to last); target ≤ 150 MB, < 10 %`,
);
console.log(
  `  baseline: an idle Node process ${mb(idleRss)} MB; the engine's peak is ${(peak / idleRss).toFixed(1)} × that, ` +
    `${mb(peak - idleRss)} MB above it`,
);
console.log(`  stopped in ${stopSeconds.toFixed(1)} s real, exit code ${code}`);
rmSync(work, { recursive: true, force: true });

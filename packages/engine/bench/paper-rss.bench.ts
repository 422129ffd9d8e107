/**
 * Paper engine memory: the SMA crossover (1m bars, fast 3, slow 8) trading paper on the simulator's
 * six KR stocks (or `HOGA_BENCH_SYMBOLS` symbols: the six and generated KR stocks, which the
 * simulator then lists) for an hour of simulated time (the simulator, in its own process, at ×60:
 * one real minute), with the engine's RSS sampled every 5 real seconds. Prints the samples, the
 * peak and the drift from the first sample after start-up to the last; asserts nothing.
 *
 * Run: `pnpm --filter @hoga/engine exec tsx bench/paper-rss.bench.ts` (`HOGA_BENCH_SECONDS` to change the length;
 * `HOGA_BENCH_SYMBOLS=200` for 200 symbols; `node --expose-gc --import tsx bench/paper-rss.bench.ts`
 * samples after a full collection). The client keeps the broker's rate limits (candles 5/s, order
 * books and prices 10/s), so with many symbols each is polled less often.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BrokerClient } from '@hoga/connector';
import { createLogger, Decimal, ScaledClock } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { startLiveRun } from '../src/live/run-live.js';
import { FixedFxRates } from '../src/portfolio/fx-rates.js';
import { loadStrategyClass } from '../src/strategy/strategy-loader.js';

const SECONDS = Number(process.env.HOGA_BENCH_SECONDS ?? 60);
const SPEED = 60;
const FIXED = ['005930', '000660', '035420', '069500', '035720', '247540'];
const COUNT = Number(process.env.HOGA_BENCH_SYMBOLS ?? FIXED.length);
const EXTRA = Math.max(0, COUNT - FIXED.length);
const SYMBOLS = [...FIXED.slice(0, COUNT), ...Array.from({ length: EXTRA }, (_, i) => String(400_001 + i))];
const work = mkdtempSync(join(tmpdir(), 'hoga-paper-rss-'));
const root = resolve(import.meta.dirname, '../../..');
const child = spawn(
  process.execPath,
  ['--import', 'tsx', join(import.meta.dirname, 'sim-process.ts'), String(SPEED), String(EXTRA)],
  {
    cwd: join(root, 'packages/engine'),
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const url = await new Promise<string>((done) =>
  child.stdout.once('data', (c: Buffer) => done(c.toString().trim())),
);
const clockAnswer = (await (await fetch(`${url}/_sim/clock`)).json()) as { now: string };
const clock = new ScaledClock({ start: clockAnswer.now, speed: SPEED });
const client = new BrokerClient({
  clock,
  config: { baseUrl: url, clientId: 'sim-client', clientSecret: 'sim-secret' },
});
const db = HogaDatabase.open(join(work, 'hoga.sqlite'), { clock });
const strategyClass = await loadStrategyClass(resolve(root, 'strategies/sma-crossover.ts'));
const mbNow = () => process.memoryUsage().rss / 1024 / 1024;
const loaded = mbNow(); // modules loaded, nothing running yet
const startedReal = performance.now();
let fills = 0;
const run = await startLiveRun({
  settings: {
    runId: 'rss',
    mode: 'paper',
    symbols: SYMBOLS,
    interval: '1m',
    cash: { KRW: new Decimal(100_000_000), USD: new Decimal(100_000) },
  },
  strategies: [{ strategyClass, config: { fast: 3, slow: 8, quantity: 10 } }],
  client,
  db,
  clock,
  logger: createLogger({ level: 'silent' }),
  fx: new FixedFxRates(1400),
  streamIntervals: { candles1m: 1_000 },
  onEvent: (e) => {
    if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled') fills++;
  },
});
const mb = mbNow;
console.log(
  `${SYMBOLS.length} symbols: the run started after ${((performance.now() - startedReal) / 1000).toFixed(1)} s real (the risk gate reads each symbol's market data first); RSS ${mb().toFixed(0)} MB`,
);
const samples: number[] = [];
const started = clock.now();
for (let t = 0; t < SECONDS; t += 5) {
  await new Promise((r) => setTimeout(r, 5_000));
  // With --expose-gc, collect first: the samples then show what stays, not what awaits collection.
  (globalThis as { gc?: () => void }).gc?.();
  samples.push(mb());
  console.log(
    `  ${t + 5} s: ${samples.at(-1)?.toFixed(0)} MB, ${run.status().bars} bars, ${run.status().requests} requests`,
  );
}
const stopping = performance.now();
await run.stop();
const stopSeconds = (performance.now() - stopping) / 1000;
const status = run.status();
client.close();
db.close();
child.kill('SIGTERM');
const first = samples[0] ?? Number.NaN;
const last = samples.at(-1) ?? Number.NaN;
console.log(
  `paper engine, ${SYMBOLS.length} symbols, ${started.toFormat('HH:mm')}–${clock.now().toFormat('HH:mm')} simulated (×${SPEED}), ${status.bars} bars, ${fills} fills`,
);
console.log(`  RSS samples (MB, every 5 s): ${samples.map((s) => s.toFixed(0)).join(' ')}`);
console.log(
  `  before the run (modules loaded) ${loaded.toFixed(0)} MB; peak ${Math.max(...samples).toFixed(0)} MB, drift ${(((last - first) / first) * 100).toFixed(1)} % (first to last); target ≤ 150 MB, < 10 %`,
);
console.log(`  stopped in ${stopSeconds.toFixed(1)} s real`);
rmSync(work, { recursive: true, force: true });

/**
 * Benchmark: one simulated minute of polling prices for 200 symbols, 20 orderbooks and order
 * updates against the simulator with its rate limits on (run in a child process, so the CPU
 * figures are the connector's alone).
 *
 * Figures: per group the achieved rate as a fraction of the limit (the physical ceiling), the
 * number of 429s, CPU time per request, and heap after the run. CPU is also reported as a ratio
 * to a baseline measured in the same run: bare keep-alive `node:http` GETs of the same endpoint.
 *
 * Usage: `pnpm --filter @hoga/connector bench` (optional `--seconds N`, default 60).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Decimal, RateLimitGroup, ScaledClock } from '@hoga/core';
import type { Subscription } from 'rxjs';
import { BrokerClient, BrokerStreams, RateLimiter } from '../src/index.js';

const START = '2026-11-23T10:00:00.000+09:00';
const secondsArg = process.argv.indexOf('--seconds');
const SECONDS = secondsArg === -1 ? 60 : Number(process.argv[secondsArg + 1]);
const root = join(import.meta.dirname, '..', '..', '..');

interface Sim {
  readonly url: string;
  readonly child: ChildProcess;
}

/** Starts `hoga sim` in a child process and waits for its `listening on <url>` line. */
function startSim(rateLimit: boolean): Promise<Sim> {
  const args = [
    '--import',
    'tsx',
    'packages/cli/src/main.ts',
    'sim',
    '--port',
    '0',
    '--start',
    START,
    '--control',
  ];
  if (!rateLimit) args.push('--no-rate-limit');
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /listening on (\S+)/.exec(buffer);
      if (match) resolve({ url: match[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
}

function stopSim(sim: Sim): Promise<void> {
  return new Promise((resolve) => {
    sim.child.once('exit', () => resolve());
    sim.child.kill('SIGTERM');
  });
}

async function counters(
  url: string,
): Promise<{ requestsByGroup: Record<string, number>; rateLimited: number }> {
  const response = await fetch(`${url}/_sim/counters`);
  return (await response.json()) as { requestsByGroup: Record<string, number>; rateLimited: number };
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function client(url: string, limiter?: RateLimiter): BrokerClient {
  return new BrokerClient({
    clock: new ScaledClock({ start: START, speed: 1 }),
    config: { baseUrl: url, clientId: 'sim-client', clientSecret: 'sim-secret', accountSeq: 1 },
    ...(limiter ? { limiter } : {}),
  });
}

/** CPU per request: bare node:http GETs versus BrokerClient.getOrderbook, on an unlimited simulator. */
async function baseline(): Promise<{ rawMs: number; clientMs: number }> {
  const sim = await startSim(false);
  // The client keeps its own rate limits: lift them for this measurement only.
  const unlimited = new RateLimiter({
    clock: new ScaledClock({ start: START, speed: 1 }),
    limits: { MARKET_DATA: { perSecond: 1_000_000, peakPerSecond: null } },
    followServerLimits: false,
  });
  const broker = client(sim.url, unlimited);
  const token = await broker.tokens.token();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.get(
        `${sim.url}/api/v1/orderbook?symbol=005930`,
        { agent, headers: { authorization: `Bearer ${token.accessToken}` } },
        (res) => {
          res.resume();
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
    });
  const n = 400;
  for (let i = 0; i < 50; i++) await get();
  let t = cpuMs();
  for (let i = 0; i < n; i++) await get();
  const rawMs = (cpuMs() - t) / n;
  for (let i = 0; i < 50; i++) await broker.getOrderbook('005930');
  t = cpuMs();
  for (let i = 0; i < n; i++) await broker.getOrderbook('005930');
  const clientMs = (cpuMs() - t) / n;
  agent.destroy();
  broker.close();
  unlimited.dispose();
  await stopSim(sim);
  return { rawMs, clientMs };
}

async function main(): Promise<void> {
  const base = await baseline();
  const sim = await startSim(true);
  const broker = client(sim.url);
  const streams = new BrokerStreams(broker, { pollClosedMarkets: true, intervals: { orders: 0 } });
  // Some open orders for the order stream to watch, and one that fills.
  const book = await broker.getOrderbook('035420');
  for (let i = 0; i < 5; i++) {
    await broker.createOrder({
      symbol: '035420',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: new Decimal(1),
      price: book.bids.at(-1)!.price,
    });
  }
  const stocks = await broker.getStocks([
    '005930',
    '000660',
    '035420',
    '069500',
    '035720',
    '247540',
    'AAPL',
    'NVDA',
  ]);
  const universe = stocks.map((s) => s.symbol);
  // The simulator lists few symbols; it keeps duplicates, so a 200-entry list costs what 200 would.
  const symbols200 = Array.from({ length: 200 }, (_, i) => universe[i % universe.length]!);
  const books20 = Array.from({ length: 20 }, (_, i) => universe[i % universe.length]!);

  const before = await counters(sim.url);
  const eluBefore = performance.eventLoopUtilization();
  const cpuBefore = cpuMs();
  const requestsBefore = broker.executor.stats.requests;
  const started = Date.now();
  const subs: Subscription[] = [];
  let priceUpdates = 0;
  let bookUpdates = 0;
  let orderEvents = 0;
  const errors: unknown[] = [];
  const onError = (e: unknown) => errors.push(e);
  subs.push(
    streams.polls
      .poll$({
        group: RateLimitGroup.MARKET_DATA,
        key: 'prices:200',
        fetch: (signal) => broker.getPrices(symbols200, { signal, priority: 3 }),
      })
      .subscribe({ next: () => priceUpdates++, error: onError }),
  );
  books20.forEach((symbol, i) => {
    subs.push(
      streams.polls
        .poll$({
          group: RateLimitGroup.MARKET_DATA,
          key: `orderbook:${symbol}:${i}`,
          fetch: (signal) => broker.getOrderbook(symbol, { signal, priority: 3 }),
        })
        .subscribe({ next: () => bookUpdates++, error: onError }),
    );
  });
  subs.push(streams.orderUpdates$().subscribe({ next: () => orderEvents++, error: onError }));
  // One marketable order a few seconds in, so the order stream has a fill to report.
  const fill = setTimeout(() => {
    void broker.getOrderbook('000660').then((b) =>
      broker.createOrder({
        symbol: '000660',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: new Decimal(1),
        price: b.asks[0]!.price,
      }),
    );
  }, 5_000);
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  for (const s of subs) s.unsubscribe();
  clearTimeout(fill);
  const elapsed = (Date.now() - started) / 1000;
  const cpu = cpuMs() - cpuBefore;
  const busyMs = performance.eventLoopUtilization(eluBefore).active;
  const requests = broker.executor.stats.requests - requestsBefore;
  const after = await counters(sim.url);
  broker.close();
  await stopSim(sim);
  (globalThis as { gc?: () => void }).gc?.();
  const heapMb = process.memoryUsage().heapUsed / 2 ** 20;

  const rows = [RateLimitGroup.MARKET_DATA, RateLimitGroup.ORDER_HISTORY].map((group) => {
    const sent = (after.requestsByGroup[group] ?? 0) - (before.requestsByGroup[group] ?? 0);
    const limit = group === RateLimitGroup.MARKET_DATA ? 10 : 5;
    return { group, sent, limit, fraction: sent / (limit * elapsed) };
  });
  console.log(
    `polling for ${elapsed.toFixed(1)} s against the simulator (limits on, client in this process)`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.group.padEnd(14)} ${String(r.sent).padStart(5)} requests  ${(r.sent / elapsed).toFixed(2)}/s of ${r.limit}/s  → ${r.fraction.toFixed(3)} of the limit`,
    );
  }
  console.log(
    `  updates: ${priceUpdates} price batches, ${bookUpdates} books, ${orderEvents} order events; poll errors ${errors.length}`,
  );
  console.log(`  429s: ${after.rateLimited - before.rateLimited}`);
  console.log(
    `  CPU per request while polling: ${(cpu / requests).toFixed(3)} ms process-wide (all threads, GC included), ` +
      `${(busyMs / requests).toFixed(3)} ms of event-loop time (${requests} requests)`,
  );
  console.log(
    `  CPU per request, unlimited: client ${base.clientMs.toFixed(3)} ms vs bare node:http ${base.rawMs.toFixed(3)} ms → ratio ${(base.clientMs / base.rawMs).toFixed(2)}`,
  );
  console.log(
    `  heap after the run: ${heapMb.toFixed(1)} MiB${(globalThis as { gc?: unknown }).gc ? ' (after gc)' : ''}`,
  );
}

await main();

/**
 * Order-manager benchmark (no network: a gateway stand-in answers in-process).
 *
 * (a) Fill accounting: polls of 200 broker orders' reports of growing cumulative execution applied
 *     through `OrderManager.applyRecords` (fill derived, stored in `fills`, positions, logical order
 *     state; one transaction per poll) on a SQLite file, as fills/s, beside a baseline measured in
 *     the same run: the same number of bare `INSERT`s into a table of the same shape, one
 *     transaction per 200 rows. The reports are built before the clock starts (decoding them is the
 *     connector's work).
 * (b) Event → order request latency: a bar handed to a strategy that buys on every bar, through the
 *     runtime, the risk gate and the live venue (command written to the store first) to the moment
 *     the gateway's `createOrder` is called; p50 and p99, for each durability of the command write,
 *     over 2,000 orders after 100 warm-up ones (printed apart: the JIT compiles the path while they
 *     run), and how many of the slowest 1 % came first after a WAL checkpoint or saw a GC.
 *
 * Prints figures; asserts nothing. Run: `pnpm --filter @hoga/engine exec tsx bench/order-manager.bench.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { OrderRecord } from '@hoga/connector';
import { type Bar, createLogger, Decimal, VirtualClock } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { DateTime } from 'luxon';
import { OrderManager } from '../src/orders/order-manager.js';
import type { OrderGateway } from '../src/orders/order-requests.js';
import { CHECKPOINT_EVERY_MS, type LatencySample, startLiveRunOffline } from './order-manager-bench-run.js';

const FILLS = Number(process.env.HOGA_BENCH_FILLS ?? 20_000);
const ORDERS = 200;
const work = mkdtempSync(join(tmpdir(), 'hoga-om-bench-'));
const clock = new VirtualClock('2026-11-23T10:00:00+09:00');
const orderedAt = DateTime.fromISO('2026-11-23T10:00:00+09:00', { setZone: true });

/** CPU time (user + system) since a `process.cpuUsage()` reading, in ms. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function report(orderId: string, filled: number, status: string): OrderRecord {
  const q = new Decimal(filled);
  return {
    orderId,
    symbol: '005930',
    side: 'BUY',
    orderType: 'LIMIT',
    timeInForce: 'DAY',
    status,
    price: new Decimal(70000),
    quantity: new Decimal(1_000_000),
    orderAmount: null,
    currency: 'KRW',
    orderedAt,
    canceledAt: null,
    execution: {
      filledQuantity: q,
      averageFilledPrice: filled === 0 ? null : new Decimal(70000),
      filledAmount: q.times(70000),
      commission: q.times(10.5),
      tax: new Decimal(0),
      filledAt: orderedAt,
      settlementDate: null,
    },
    raw: {},
  } as OrderRecord;
}

const idle: OrderGateway = {
  createOrder: async () => ({ orderId: 'x', clientOrderId: null, raw: {} }) as never,
  modifyOrder: async () => {
    throw new Error('unused');
  },
  cancelOrder: async () => {
    throw new Error('unused');
  },
  getOrder: async () => {
    throw new Error('unused');
  },
  listOrders: async () => ({ orders: [], nextCursor: null, hasNext: false }),
  getHoldings: async () => ({ items: [] }) as never,
};

// (a) fill accounting
{
  const db = HogaDatabase.open(join(work, 'fills.sqlite'), { clock });
  const manager = new OrderManager(idle, db, clock);
  await manager.reconcile();
  for (let i = 0; i < ORDERS; i++) manager.applyRecord(report(`b${i}`, 0, 'PENDING')); // adopted
  const perOrder = Math.ceil(FILLS / ORDERS);
  let fills = 0;
  manager.events$.subscribe((e) => {
    if (e.type === 'OrderPartiallyFilled' || e.type === 'OrderFilled') fills++;
  });
  // The reports are built first: decoding them is the connector's work, not the accounting's.
  const polls = Array.from({ length: perOrder }, (_, step) =>
    Array.from({ length: ORDERS }, (_, i) => report(`b${i}`, step + 1, 'PARTIAL_FILLED')),
  );
  const startedCpu = process.cpuUsage();
  const started = performance.now();
  // one poll brings every order's newest report: one batch (one commit) per poll
  for (const poll of polls) manager.applyRecords(poll);
  const ms = performance.now() - started;
  const cpuMs = cpuMsSince(startedCpu);
  // the same reports again: nothing counted twice
  manager.applyRecords(Array.from({ length: ORDERS }, (_, i) => report(`b${i}`, perOrder, 'PARTIAL_FILLED')));
  db.close();

  const raw = HogaDatabase.open(join(work, 'raw.sqlite'), { clock }).connection;
  raw.exec(
    `CREATE TABLE f (order_id TEXT, cum TEXT, q TEXT, p TEXT, c TEXT, t TEXT, at INTEGER, PRIMARY KEY (order_id, cum))`,
  );
  const insert = raw.prepare('INSERT OR IGNORE INTO f VALUES (?, ?, ?, ?, ?, ?, ?)');
  const poll = raw.transaction((step: number) => {
    for (let i = 0; i < ORDERS; i++) insert.run(`b${i}`, String(step), '1', '70000', '10.5', '0', step);
  });
  const bareCpu = process.cpuUsage();
  const bareStart = performance.now();
  for (let step = 1; step <= perOrder; step++) poll(step); // 200 rows per commit, like a poll
  const bareMs = performance.now() - bareStart;
  const bareCpuMs = cpuMsSince(bareCpu);
  raw.close();
  const rate = (fills / ms) * 1000;
  const bareRate = ((perOrder * ORDERS) / bareMs) * 1000;
  console.log(`fill accounting: ${fills} fills from ${ORDERS} broker orders (repeated reports counted once)`);
  console.log(
    `  order manager  ${rate.toFixed(0).padStart(8)} fills/s  (${((ms / fills) * 1000).toFixed(1)} µs per fill)`,
  );
  console.log(
    `  bare INSERT    ${bareRate.toFixed(0).padStart(8)} rows/s   (${((bareMs / (perOrder * ORDERS)) * 1000).toFixed(1)} µs per row)`,
  );
  console.log(
    `  CPU time       ${((cpuMs / fills) * 1000).toFixed(1)} µs per fill, ${((bareCpuMs / (perOrder * ORDERS)) * 1000).toFixed(1)} µs per bare row (${(fills / cpuMs).toFixed(1)}k fills per CPU-second; the wall figures above follow the machine's load)`,
  );
  console.log(
    `  ratio          ${(rate / bareRate).toFixed(2)} of the bare insert rate; target 20000 fills/s: ${rate >= 20_000 ? 'met' : 'NOT met'}`,
  );
}

// (b) event → order request latency
const only = process.env.HOGA_BENCH_DURABILITY;
const durabilities: readonly ('normal' | 'full')[] = process.env.HOGA_BENCH_NO_LATENCY
  ? []
  : only === 'normal' || only === 'full'
    ? [only]
    : ['normal', 'full'];
/** p50, p90, p99 and max of some orders' latencies, in µs. */
function percentiles(samples: readonly LatencySample[]): string {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? Number.NaN;
  const us = (p: number) => (q(p) * 1000).toFixed(0);
  return `p50 ${us(0.5)} µs, p90 ${us(0.9)} µs, p99 ${us(0.99)} µs, max ${us(1)} µs over ${ms.length} orders`;
}
for (const durability of durabilities) {
  const { samples, warmUp, checkpoints } = await startLiveRunOffline(
    join(work, `latency-${durability}.sqlite`),
    durability,
    2_000,
  );
  console.log(
    `event → order request (${durability} durability of the command write): ${percentiles(samples)}, after ${warmUp.length} warm-up orders`,
  );
  console.log(`  the ${warmUp.length} warm-up orders (JIT still compiling): ${percentiles(warmUp)}`);
  // What the slowest 1 % (what sets the p99) had in common.
  const slowest = [...samples].sort((a, b) => b.ms - a.ms).slice(0, Math.ceil(samples.length / 100));
  console.log(
    `  of the ${slowest.length} slowest: ${slowest.filter((s) => s.afterCheckpoint).length} first after a WAL checkpoint, ${slowest.filter((s) => s.gc).length} with a GC during them`,
  );
  // Between events: an event arriving during one of these waits for it (not in the figures above).
  console.log(
    `  WAL checkpoints between events: ${checkpoints.count} (every ${CHECKPOINT_EVERY_MS} ms; the engine's default is 1,000), mean ${(checkpoints.totalMs / Math.max(1, checkpoints.count)).toFixed(2)} ms, max ${checkpoints.maxMs.toFixed(2)} ms; ${samples.filter((s) => s.afterCheckpoint).length} of the ${samples.length} orders came first after one`,
  );
}
void createLogger;
void ({} as Bar);
rmSync(work, { recursive: true, force: true });

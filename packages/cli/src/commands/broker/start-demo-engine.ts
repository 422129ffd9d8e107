/**
 * `pnpm start`: the reference strategy (SMA crossover on 1m bars, fast 3, slow 8) trading live
 * against the in-process simulator at a raised speed for about a minute, printing orders, fills,
 * status lines and a PnL summary. The simulated clock is moved to 10:00 KST of the next KR trading
 * day first, so it trades whatever the day of the week.
 *
 * @module
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { BrokerClient, MemoryTokenCache } from '@hoga/connector';
import { Decimal, ScaledClock } from '@hoga/core';
import { loadStrategyClass } from '@hoga/engine';
import { startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { fmtMoney, startSession } from '../run-session.js';
import { demoTradingDay } from './demo-day.js';

const REFERENCE_STRATEGY = join('strategies', 'sma-crossover.ts');

/**
 * The repository's reference strategy, found from this module's directory upwards (it is
 * `src/commands/broker` run from the sources and `dist` in the bundle).
 */
function referenceStrategyFile(): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    const file = join(dir, REFERENCE_STRATEGY);
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) return resolve(REFERENCE_STRATEGY);
  }
}

/** Options of {@link runEngineDemo}. */
export interface EngineDemoOptions {
  /** Real ms to trade (default 60 s). */
  readonly durationMs?: number;
  /** Simulated seconds per real second (default 30). */
  readonly speed?: number;
  /** The strategy file (default `strategies/sma-crossover.ts` of the repository). */
  readonly strategyFile?: string;
  readonly print?: (line: string) => void;
  /** Where the simulator's clock starts before the demo moves it to a trading day (default now). */
  readonly simStart?: string;
  /** Stops the demo early once aborted (Ctrl-C): it stops as at its end, with its summary. */
  readonly signal?: AbortSignal;
}

const SYMBOLS = ['005930', '000660', '035420'];

/**
 * Runs the demo; resolves once everything is closed. Returns the number of fills.
 *
 * @param options - duration, speed, output
 */
export async function runEngineDemo(options: EngineDemoOptions = {}): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  const speed = options.speed ?? 30;
  const durationMs = options.durationMs ?? 60_000;
  const file = options.strategyFile ?? referenceStrategyFile();
  const strategyClass = await loadStrategyClass(file);
  const sim = await startSimulator({
    port: 0,
    speed: 0,
    rateLimit: true,
    ...(options.simStart === undefined ? {} : { start: options.simStart }),
  });
  const dir = mkdtempSync(join(tmpdir(), 'hoga-start-'));
  let client: BrokerClient | null = null;
  let db: HogaDatabase | null = null;
  try {
    const probe = new BrokerClient({
      config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
      tokenCache: new MemoryTokenCache(),
    });
    const day = await demoTradingDay(probe);
    probe.close();
    if (day.note !== null) print(`hoga: ${day.note}`);
    sim.setClock(`${day.date}T10:00:00.000+09:00`);
    sim.setSpeed(speed);
    const clock = new ScaledClock({ start: sim.now(), speed });
    client = new BrokerClient({
      config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
      clock,
      tokenCache: new MemoryTokenCache(),
    });
    db = HogaDatabase.open(join(dir, 'hoga.sqlite'), { clock });
    print(
      `hoga start: SMA crossover (1m bars, fast 3, slow 8) live on ${SYMBOLS.join(', ')} against the simulator at ${sim.url},` +
        ` clock ${clock.now().toFormat('yyyy-MM-dd HH:mm')} KST ×${speed}, for ${Math.round(durationMs / 1000)} s`,
    );
    const session = await startSession({
      mode: 'live',
      strategies: [{ strategyClass, config: { fast: 3, slow: 8, quantity: 10 } }],
      symbols: SYMBOLS,
      interval: '1m',
      client,
      db,
      clock,
      cash: { KRW: new Decimal(0), USD: new Decimal(0) },
      statusEveryMs: 10_000,
      pollIntervalMs: 500,
      candlePollMs: 1_000,
      print,
    });
    const early = await tradeFor(durationMs, options.signal);
    print(early ? 'interrupted: stopping early…' : 'stopping…');
    const status = await session.stop();
    print('stopped: strategies stopped, open orders kept, store flushed');
    const orders = db.orders.list({ mode: 'live' }).filter((o) => !o.clientOrderId.startsWith('ext-'));
    print(`summary: ${orders.length} orders, ${status.fills} fills, ${status.bars} bars`);
    for (const c of ['KRW', 'USD'] as const) {
      const p = status.pnl[c];
      if (!p.realized.isZero() || !p.unrealized.isZero() || !p.charges.isZero())
        print(
          `  ${c}: realized ${fmtMoney(p.realized, c)}, unrealized ${fmtMoney(p.unrealized, c)} (the strategy's positions at the last prices), ` +
            `charges ${fmtMoney(p.charges, c)}, net ${fmtMoney(p.realized.plus(p.unrealized).minus(p.charges), c)}`,
        );
    }
    // the account's, shares held before the run included (the strategy's are in the PnL above)
    const holdings = [...status.positions].map(([symbol, q]) => `${symbol} ${q.toString()}`);
    print(`  account holdings: ${holdings.join(', ') || 'none'}`);
    print('done: closing the connector and the simulator.');
    return status.fills;
  } finally {
    client?.close();
    db?.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Waits `ms`, or less once `signal` is aborted; true when it was cut short. */
function tradeFor(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (early: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(early);
    };
    const onAbort = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    signal?.addEventListener('abort', onAbort);
  });
}

/**
 * `hoga run --mode live` as a child process beside the simulator (its clock stopped: a test moves
 * it), a store and the log of `crash-plan.ts` in a fresh folder, for the tests that kill or stop a
 * run and start it again (`run-killed-mid-order.int.test.ts`, `run-told-after-restart.int.test.ts`).
 * Test code only.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerClient, FileTokenCache, type OrderRecord } from '@hoga/connector';
import { Decimal } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { expect } from 'vitest';
import {
  env,
  exitedWithin,
  hogaToEnd,
  lastRunsSaid,
  type Running,
  root,
  start,
} from './run-process.test-helper.js';

export const PLAN = join(root, 'packages/cli/test/fixtures/crash-plan.ts');
/** 09:30 New York: the US regular session has just opened. */
export const US_OPEN = '2026-11-23T23:30:00+09:00';

/** What the strategy wrote to its log (crash-plan.ts). */
export interface Heard {
  readonly pid: number;
  readonly hook: string;
  readonly id?: string;
  readonly type?: string;
  /** An event's code (a denial's, a rejection's). */
  readonly code?: string;
  readonly tag?: string;
  readonly quantity?: string;
  readonly cumulative?: string;
  readonly positions?: { symbol: string; quantity: string }[];
  readonly open?: { id: string; state: string; filled: string; price?: string }[];
  readonly cash?: string;
  /** What `ctx.order(id)` answered as an event or fill of the order was told (null: unknown). */
  readonly order?: { state: string; filled: string; average?: string } | null;
  /** The fills counted in the strategy's `ctx.state` (`fillsHeard`) at a start or after a fill. */
  readonly counted?: number;
}

/** What crash-plan.ts is told to do in a run (its config, the log aside). */
export interface Plan {
  readonly place: readonly Planned[];
  readonly cancel?: readonly string[];
  readonly modify?: readonly { readonly tag: string; readonly price: string }[];
  /** A file: `onStart` ends only once it exists. */
  readonly hold?: string;
  /** A file: the first fill told with no such file makes it and kills the process in `onFill`. */
  readonly killOnFill?: string;
}

/** What a strategy's log (`crash-plan.ts`'s `log`) holds so far, line by line (none: no file yet). */
export function heardIn(file: string): Heard[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Heard);
  } catch {
    return [];
  }
}

/** The starts the strategy wrote, in order. */
export function starts(heard: readonly Heard[]): Heard[] {
  return heard.filter((h) => h.hook === 'start');
}

/** An order of the strategy's config. */
export interface Planned {
  readonly tag: string;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: string;
  readonly price: string;
}

/** A buy of ZOM partly filled at once (its best two asks: 5,619) and filling more each second moved. */
export const PART: Planned = { tag: 'part', symbol: 'ZOM', side: 'BUY', quantity: '20000', price: '0.1616' };
/** A buy of AAPL resting far below the market (226.40). */
export const REST: Planned = { tag: 'rest', symbol: 'AAPL', side: 'BUY', quantity: '1', price: '200' };

const sessions: Session[] = [];

/** Closes the sessions the tests opened (call from `afterEach`): their runs killed, the simulator closed. */
export async function closeSessions(): Promise<void> {
  for (const s of sessions.splice(0)) await s.close();
}

/**
 * Polls `read` every 100 ms until it answers something other than undefined or false; after
 * `timeoutMs` (half a test's 120 s) throws, naming the wait and what the last runs printed.
 */
export async function waitFor<T>(
  what: string,
  read: () => T | Promise<T>,
  timeoutMs = 60_000,
): Promise<Exclude<T, false | undefined>> {
  const end = performance.now() + timeoutMs;
  let last: unknown;
  while (performance.now() < end) {
    try {
      const v = await read();
      if (v !== undefined && v !== false) return v as Exclude<T, false | undefined>;
    } catch (error) {
      last = error; // the file being written, the token being renewed
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `waited ${timeoutMs} ms for ${what}${last === undefined ? '' : ` (last: ${String(last)})`}\n${lastRunsSaid()}`,
  );
}

/** The simulator, a store and the strategy's log in a fresh folder; `hoga run` on them. */
export class Session {
  readonly dir = mkdtempSync(join(tmpdir(), 'hoga-run-killed-'));
  readonly db = join(this.dir, 'hoga.sqlite');
  readonly log = join(this.dir, 'heard.jsonl');
  readonly environment: NodeJS.ProcessEnv;
  /** Shares the runs' token file: the broker keeps one token per client. */
  readonly client: BrokerClient;
  private readonly runs: Running[] = [];

  static async open(): Promise<Session> {
    const sim = await startSimulator({
      port: 0,
      seed: 7,
      start: US_OPEN,
      speed: 0,
      control: true,
      rateLimit: false,
    });
    const session = new Session(sim);
    sessions.push(session);
    return session;
  }

  private constructor(readonly sim: SimulatorHandle) {
    this.environment = env(sim, this.db);
    this.client = new BrokerClient({
      config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
      tokenCache: new FileTokenCache(join(this.dir, 'tokens.json')),
    });
  }

  /** Starts the `n`th live run, its strategy configured with `plan` (another strategy id logs apart). */
  run(n: number, plan: Plan, id?: string, env: NodeJS.ProcessEnv = {}): Running {
    return this.start('live', n, plan, id, env);
  }

  /** Starts the `n`th run in `mode`, its strategy configured with `plan` (`env` added to the session's). */
  start(mode: 'live' | 'paper', n: number, plan: Plan, id?: string, env: NodeJS.ProcessEnv = {}): Running {
    const config = join(this.dir, mode === 'live' ? `run-${n}.json` : `paper-${n}.json`);
    // another strategy id logs apart
    const log = id === undefined ? this.log : join(this.dir, `heard-${id}.jsonl`);
    writeFileSync(config, JSON.stringify({ log, ...plan }));
    // a status line a second: the tests wait for the first as the sign the run's start is done
    // (every 2 s held each of a test's four to six starts a second longer)
    const args = ['--symbols', 'ZOM,AAPL', '--config', config, '--poll-ms', '200', '--status-every', '1'];
    const r = start(['run', id === undefined ? PLAN : `${PLAN}:${id}`, '--mode', mode, ...args], {
      ...this.environment,
      ...env,
    });
    this.runs.push(r);
    return r;
  }

  async kill(r: Running): Promise<void> {
    r.child.kill('SIGKILL');
    expect(await r.exited).toBeNull();
  }

  heard(): Heard[] {
    return heardIn(this.log);
  }

  /** The order id the strategy gave the order of `tag`. */
  idOf(tag: string): Promise<string> {
    return waitFor(
      `order ${tag} placed`,
      () => this.heard().find((h) => h.hook === 'placed' && h.tag === tag)?.id,
    );
  }

  /**
   * Runs the strategy (run 1) with its resting AAPL buy ({@link REST}), waits until the broker
   * accepted it and kills the run (SIGKILL): the order's id.
   */
  async restThenKill(): Promise<string> {
    const first = this.run(1, { place: [REST] });
    const rest = await this.idOf('rest');
    await waitFor('the order accepted', () =>
      this.heard().some((h) => h.type === 'OrderAccepted' && h.id === rest),
    );
    await this.kill(first);
    return rest;
  }

  /** The fills the strategy heard of the order `id`, in order. */
  fillsHeard(id: string): Heard[] {
    return this.heard().filter((h) => h.hook === 'fill' && h.id === id);
  }

  /** Every broker order of the account. */
  async brokerOrders(): Promise<OrderRecord[]> {
    const out = [...(await this.client.listOrders({ status: 'OPEN' })).orders];
    let cursor: string | undefined;
    for (;;) {
      const page = await this.client.listOrders({
        status: 'CLOSED',
        limit: 100,
        ...(cursor === undefined ? {} : { cursor }),
      });
      out.push(...page.orders);
      if (!page.hasNext || page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    return out;
  }

  async filledAtBroker(symbol: string): Promise<Decimal> {
    return (await this.brokerOrders())
      .filter((o) => o.symbol === symbol)
      .reduce((sum, o) => sum.plus(o.execution.filledQuantity), new Decimal(0));
  }

  /** Quantity of the stored fills of `symbol` (read while a run may write). */
  storedFilled(symbol: string): Decimal {
    const store = HogaDatabase.open(this.db, { readonly: true });
    try {
      const rows = store.connection.prepare('SELECT quantity FROM fills WHERE symbol = ?').all(symbol) as {
        quantity: string;
      }[];
      return rows.reduce((sum, r) => sum.plus(r.quantity), new Decimal(0));
    } finally {
      store.close();
    }
  }

  /** Moves the simulator's clock a second at a time until the broker filled more of `symbol`. */
  async fillMore(symbol: string): Promise<void> {
    const before = await this.filledAtBroker(symbol);
    await waitFor(`another fill of ${symbol} at the broker`, async () => {
      this.sim.advanceClock(1_000);
      return (await this.filledAtBroker(symbol)).greaterThan(before);
    });
  }

  async hoga<T>(args: string[]): Promise<T> {
    const r = await hogaToEnd([...args, '--json'], this.environment);
    expect(r.code, r.out).toBe(0);
    return JSON.parse(r.stdout) as T;
  }

  async close(): Promise<void> {
    for (const r of this.runs) await exitedWithin(r, 0);
    this.client.close();
    await this.sim.close();
  }
}

/** What `hoga db orders --json` lists of an order. */
export interface StoredOrder {
  readonly clientOrderId: string;
  readonly state: string;
  readonly filledQuantity: string;
  readonly brokerOrderIds: { brokerOrderId: string }[];
}

/** What `hoga db fills --json` lists of a fill. */
export interface StoredFill {
  readonly brokerOrderId: string;
  readonly clientOrderId: string;
  readonly quantity: string;
  readonly cumulativeQuantity: string;
}

/** Stops a run with SIGTERM once it printed a status line (it is up): it exits 0 within 30 s. */
export async function stopRun(r: Running): Promise<void> {
  await waitFor('a status line', () => /holdings:/.test(r.out.join('')));
  r.child.kill('SIGTERM');
  expect(await exitedWithin(r, 30_000), r.out.join('')).toBe(0);
}

/** Rows of the session's store, read while a run may write. */
export function storeRows<T>(s: Session, sql: string, ...params: unknown[]): T[] {
  const store = HogaDatabase.open(s.db, { readonly: true });
  try {
    return store.connection.prepare(sql).all(...params) as T[];
  } finally {
    store.close();
  }
}

/**
 * Whether no fill waits in the store's notes for its telling (`untold-events.ts`): a fill is noted
 * as it is stored and the note dropped once the strategy was told, a moment after its hook ran. A
 * test that kills the run to test what comes after a fill waits for this after its hook: a kill in
 * that moment tells the fill once more at the next start (twice rather than never, by design).
 */
export function fillsToldNoted(s: Session): boolean {
  const [row] = storeRows<{ n: number }>(
    s,
    "SELECT COUNT(*) AS n FROM strategy_state WHERE strategy_id IN ('live:untold-events', 'paper:untold-events')",
  );
  return row?.n === 0;
}

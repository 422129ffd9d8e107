/**
 * What `hoga risk` does, on the store's trading states of `--mode` (owner `__risk__` in
 * `strategy_state` live, `paper/__risk__` paper, and the journal). A running engine reads them
 * again before every order.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { type Clock, LiveClock } from '@hoga/core';
import {
  describeTradingState,
  lapsedLineOf,
  type RiskScope,
  StoreTradingStatePersistence,
  scopeKey,
  statusLineOf,
  type TradingState,
  type TradingStateEntry,
  TradingStateGateway,
  TradingStateSource,
  viewTradingStates,
} from '@hoga/engine';
import { HogaDatabase, resolveDatabasePath } from '@hoga/store';
import { directoryDatabase } from '../runtime/database-path.js';
import { ExitCode } from '../runtime/exit-codes.js';
import { codeOfExit, writeFailure } from '../runtime/failure-output.js';
import { simulatorClock } from './broker/broker-clock.js';
import { openForReading } from './db/open-for-reading.js';
import type { RiskFlags } from './risk.js';

/**
 * Reports a failure through the shared output (`hoga: …` on stderr, or one line of JSON under
 * `--json`) and sets the exit code.
 *
 * @param message - what was wrong and what to do
 * @param exitCode - see {@link ExitCode}
 * @param error - what was thrown: its code (`foreign-database`, `EISDIR`) is the failure's code
 */
function fail(message: string, exitCode: ExitCode, error?: unknown): void {
  const own = (error as { code?: unknown } | undefined)?.code;
  const code = typeof own === 'string' && own !== '' ? own : codeOfExit(exitCode);
  process.exitCode = writeFailure({ code, lines: [message], exitCode }, { error });
}

/** The database file `--db` names, or undefined when there is none there (said, exit 2). */
function storeFile(flags: RiskFlags): string | undefined {
  const file = resolveDatabasePath(flags.db);
  if (file !== ':memory:' && !existsSync(file)) {
    // a mistyped path would be a new, empty store: 'all ACTIVE' while the real one is halted
    fail(
      `no database at ${file}: give --db or HOGA_DB (the store hoga run and hoga order use), or create it with hoga db migrate`,
      ExitCode.USAGE,
    );
    return undefined;
  }
  // as hoga data list and hoga db say it (before: exit 1, `EISDIR: illegal operation on a directory`)
  const directory = directoryDatabase(file);
  if (directory !== undefined) {
    fail(directory, ExitCode.USAGE);
    return undefined;
  }
  return file;
}

/** What a change's body works on: the gateway over the store's states, and the clock it runs on. */
interface RiskStore {
  readonly gateway: TradingStateGateway;
  readonly persistence: StoreTradingStatePersistence;
  readonly clock: Clock;
}

async function withGateway(flags: RiskFlags, body: (store: RiskStore) => void): Promise<void> {
  let db: HogaDatabase | undefined;
  const file = storeFile(flags);
  if (file === undefined) return;
  try {
    const clock = await riskClock(flags);
    db = HogaDatabase.open(file);
    const persistence = new StoreTradingStatePersistence(db, flags.mode ?? 'live');
    body({ gateway: new TradingStateGateway(clock, persistence), persistence, clock });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), ExitCode.FAILURE, error);
  } finally {
    db?.close();
  }
}

/**
 * The clock a kill switch's end is judged on: the engine's, so the simulator's when the broker
 * (`--base-url`, else `HOGA_BASE_URL` or the profile's) is the simulator, as `hoga run` and
 * `hoga order` take it; else the machine's. Before, always the machine's: against a simulator set to
 * another day, `status` called lapsed a kill switch the running engine still held.
 */
async function riskClock(flags: RiskFlags): Promise<Clock> {
  const base = flags.baseUrl ?? process.env.HOGA_BASE_URL ?? '';
  return (base === '' ? null : await simulatorClock(base)) ?? new LiveClock();
}

/** A line break or another control character: a reason holding one would break one-line output. */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029]/u;

/**
 * Whether `--reason` is one line of text, not empty; else says so (as every failure) and sets exit code 2. The reason
 * is journalled and shown in the status line, in every denial of the scope and in a run's log, each
 * one line: a line break (or a tab, or another control character) is refused as bad usage rather
 * than folded, so the operator's words are kept as written.
 */
function reasonIsOneLine(flags: RiskFlags): boolean {
  if (flags.reason !== undefined && flags.reason.trim() === '') {
    // before: kept as it was, and the status line and every denial said why as `()`
    fail(
      '--reason is empty: say in a few words why (it is journalled and shown in every denial of the scope)',
      ExitCode.USAGE,
    );
    return false;
  }
  if (flags.reason === undefined || !NOT_ONE_LINE.test(flags.reason)) return true;
  fail(
    `--reason ${JSON.stringify(flags.reason)}: give the reason as one line of text, without line breaks or other control characters`,
    ExitCode.USAGE,
  );
  return false;
}

/** The scopes named by the flags (none: all). */
export function scopesOf(flags: RiskFlags): RiskScope[] {
  const scopes: RiskScope[] = [];
  if (flags.account === true) scopes.push({ kind: 'account' });
  if (flags.strategy !== undefined) scopes.push({ kind: 'strategy', strategyId: flags.strategy });
  if (flags.symbol !== undefined) scopes.push({ kind: 'symbol', symbol: flags.symbol.toUpperCase() });
  return scopes;
}

/**
 * Prints the kept states as they stand at `nowMs`, read without changing them: the status line (the
 * `named` scopes alone, when given) and the lapsed kill switches apart (`--json`: `states` and
 * `lapsed`, the latter absent when none, after `extra`'s fields). A scope a command did not name is
 * left as it was: its lapse is its own reset's, or a running engine's, to journal.
 */
function printStates(
  flags: RiskFlags,
  persistence: StoreTradingStatePersistence,
  nowMs: number,
  named: readonly string[] = [],
  extra: Record<string, unknown> = {},
): void {
  const view = viewTradingStates(persistence, nowMs);
  const shown = (key: string) => named.length === 0 || named.includes(key);
  const states = [...view.states].filter(([key]) => shown(key));
  const gone = view.lapsed.filter((l) => shown(l.scope));
  if (flags.json === true) {
    const lapsed = gone.length === 0 ? {} : { lapsed: gone };
    console.log(JSON.stringify({ ...extra, states: Object.fromEntries(states), ...lapsed }));
  } else {
    console.log(statusLineOf(new Map(states), named));
    if (gone.length > 0) console.log(lapsedLineOf(gone));
  }
}

/**
 * `hoga risk status`: reads the store (opened read-only) and writes nothing. With `--account`,
 * `--strategy` or `--symbol`, those scopes alone (one not restricted: `strategy:s9 ACTIVE`). A kill switch past its
 * end that no process has lapsed yet is reported apart, as lapsed (a second line; `--json`: `lapsed`,
 * absent when none), and left for a running engine or `hoga risk reset` to lapse and journal.
 */
export async function riskStatus(flags: RiskFlags): Promise<void> {
  const file = storeFile(flags);
  if (file === undefined) return;
  let reading: { readonly db: HogaDatabase; close(): void } | undefined;
  try {
    const clock = await riskClock(flags);
    reading = openRiskStore(file);
    const persistence = new StoreTradingStatePersistence(reading.db, flags.mode ?? 'live');
    printStates(flags, persistence, clock.nowMs(), scopesOf(flags).map(scopeKey));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), ExitCode.FAILURE, error);
  } finally {
    reading?.close();
  }
}

/**
 * Opens the store `risk status` reads, read-only and in one snapshot (every scope's state as of the
 * first read, whatever a running engine commits meanwhile): `:memory:` as an empty store.
 *
 * @param file - the database file
 */
export function openRiskStore(file: string): { readonly db: HogaDatabase; close(): void } {
  return file === ':memory:'
    ? { db: HogaDatabase.open(file), close() {} }
    : openForReading(file, { snapshot: true });
}

/**
 * `hoga risk reset`: the named scopes (or all) back to ACTIVE. Prints each source's state it
 * cleared (`cleared strategy:s1 HALTED (daily-loss: …)`), a kill switch found past its end too
 * (`…: it had lapsed at its end already`), or that a scope had none, then the status line;
 * `--json` lists them in `cleared` (`lapsed: true` on the lapsed ones).
 */
export async function riskReset(flags: RiskFlags): Promise<void> {
  if (!reasonIsOneLine(flags)) return;
  await withGateway(flags, ({ gateway, persistence, clock }) => {
    const scopes = scopesOf(flags);
    const done = gateway.reset(flags.reason ?? 'hoga risk reset', scopes.length === 0 ? undefined : scopes);
    // what was in force, then what had lapsed at its end with no process there to see it
    const cleared: (TradingStateEntry & { scope: string; lapsed?: true })[] = done.flatMap(
      ({ scope, cleared: layers, lapsed = [] }) => [
        ...layers.map((l) => ({ scope: scopeKey(scope), ...l })),
        ...lapsed.map((l) => ({ scope: scopeKey(scope), ...l, lapsed: true as const })),
      ],
    );
    if (flags.json !== true) {
      for (const { scope, lapsed, ...layer } of cleared) {
        const gone = lapsed === true ? ': it had lapsed at its end already' : '';
        console.log(`cleared ${scope} ${describeTradingState(layer)}${gone}`);
      }
      const found = new Set(done.map((d) => scopeKey(d.scope)));
      for (const key of scopes.map(scopeKey).filter((k) => !found.has(k))) {
        console.log(`nothing to reset for ${key}: it was already ACTIVE`);
      }
      if (scopes.length === 0 && done.length === 0) {
        console.log('nothing to reset: every scope was already ACTIVE');
      }
    }
    // `reset`: the scopes a state was in force in (not one whose states had all lapsed)
    const reset = done.filter((d) => d.cleared.length > 0).map((d) => d.scope);
    printStates(flags, persistence, clock.nowMs(), [], { reset, cleared });
  });
}

/**
 * `hoga risk set <state>`: one named scope. When the scope already held that state by hand (or was
 * ACTIVE) nothing changes, and it says so with the reason that stands (`--json`: `changed`).
 */
export async function riskSet(to: TradingState, flags: RiskFlags): Promise<void> {
  const scopes = scopesOf(flags);
  if (scopes.length !== 1) {
    fail('name exactly one scope: --account, --strategy <id> or --symbol <symbol>', ExitCode.USAGE);
    return;
  }
  if (!reasonIsOneLine(flags)) return;
  const scope = scopes[0]!;
  await withGateway(flags, ({ gateway, persistence, clock }) => {
    const changed = gateway.set(scope, to, TradingStateSource.MANUAL, flags.reason ?? 'set by hand');
    if (!changed && flags.json !== true) {
      // before: only the status line, as if this --reason had been taken
      const held = gateway.entry(scope);
      const mode = flags.mode === 'paper' ? ' --mode paper' : '';
      console.log(
        held === undefined
          ? `nothing changed: ${scopeKey(scope)} was already ACTIVE`
          : `nothing changed: ${scopeKey(scope)} was already ${describeTradingState(held)}; to give another reason, hoga risk reset ${scopeFlag(scope)}${mode} first`,
      );
    }
    printStates(flags, persistence, clock.nowMs(), [], { changed });
  });
}

/** The flag that names a scope: `--account`, `--strategy s1`, `--symbol 005930`. */
function scopeFlag(scope: RiskScope): string {
  if (scope.kind === 'account') return '--account';
  return scope.kind === 'strategy' ? `--strategy ${scope.strategyId}` : `--symbol ${scope.symbol}`;
}

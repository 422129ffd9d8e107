/**
 * What `hoga run` does: connect (`HOGA_*`), open the store (`HOGA_DB`, default
 * `./data/hoga.sqlite`), follow the simulator's clock when the broker is the simulator (it answers
 * `GET /_sim/clock`), run the session until SIGINT or SIGTERM, stop gracefully, exit 0 (a signal
 * before the run is up: exit 130, see run-start-interrupt.ts).
 *
 * @module
 */
import { resolve } from 'node:path';
import { counted, Decimal, ScaledClock } from '@hoga/core';
import {
  engineStateRefusal,
  loadStrategyClass,
  parseStrategyConfig,
  StrategyConfigError,
  type StrategyHookError,
  type StrategySpec,
} from '@hoga/engine';
import { HogaDatabase, resolveDatabasePath } from '@hoga/store';
import { loadRiskConfig, warnUnmatchedStrategyLimits } from '../config/risk-config-file.js';
import {
  checkConfigCount,
  checkStrategyConfig,
  loadStrategyFile,
  parseStrategyArgument,
  parseSymbolList,
  readStrategyConfig,
  requireKnownSymbols,
  requireNewStrategyId,
} from '../config/strategy-inputs.js';
import { formatMoney } from '../output/table.js';
import { cliRuntime } from '../runtime/cli-runtime.js';
import { type CliError, ExitCode, usageError } from '../runtime/exit-codes.js';
import { brokerClock, followSimulatorClock } from './broker/broker-clock.js';
import { brokerClientOf, connect, reportError } from './broker/connection.js';
import { refuseDirectoryDatabase } from './market-source.js';
import { paperCashWarnings } from './paper-cash-warning.js';
import type { RunFlags } from './run.js';
import { manualIdWarning } from './run-manual-id.js';
import { cancelOnStopLine, type Session, startSession } from './run-session.js';
import { interruptedStartLine, StartInterrupt } from './run-start-interrupt.js';

/**
 * The strategies of the command line: each file loaded, with the `--config` of the same position
 * (the defaults without one), its config checked against its schema and its id against the
 * others', all before anything connects or starts (a failed start would leave nothing running,
 * but it would have read the broker first).
 *
 * @throws {@link CliError} (usage) for more `--config` files than strategies, a file that fails to
 * load, a bad config (naming its file, each field, its value and what was expected), two
 * strategies with one id
 */
async function strategySpecs(argv: readonly string[], configs: readonly string[]): Promise<StrategySpec[]> {
  checkConfigCount(configs, argv.length, 'run');
  const specs: StrategySpec[] = [];
  for (const [i, argument] of argv.entries()) {
    const { file, id } = parseStrategyArgument(argument);
    const strategyClass = await loadStrategyFile(loadStrategyClass, file, 'run');
    requireNewStrategyId(
      specs.map((s) => s.id ?? s.strategyClass.name),
      id ?? strategyClass.name,
      file,
      'run',
    );
    const configFile = configs[i];
    const config = configFile === undefined ? {} : readStrategyConfig(configFile, 'run');
    checkStrategyConfig(
      { parseStrategyConfig, StrategyConfigError },
      strategyClass,
      config,
      configFile,
      undefined,
      id ?? strategyClass.name,
    );
    specs.push({ strategyClass, config, ...(id === undefined ? {} : { id }) });
  }
  return specs;
}

/**
 * `--cancel-on-stop`: cancels the run's open orders and says what it did; false when an order still
 * works (its cancel refused, or the cancels failed: said on stderr), or its cancel is not stored
 * (paper, the store refusing writes: the next paper run works it again).
 */
async function cancelOnStop(session: Session, print: (line: string) => void): Promise<boolean> {
  try {
    const result = await session.run.cancelOpenOrders();
    print(cancelOnStopLine(result));
    return result.stillOpen.length === 0 && result.unstored.length === 0;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `hoga run: cancel on stop failed (${why}): the run's orders may still work at the broker\n`,
    );
    return false;
  }
}

/**
 * `--json` and `--csv` (flags every broker command shares) have no meaning for a run, which prints
 * lines as it goes: refused before anything runs, naming where its JSON is.
 *
 * @throws {@link CliError} (usage)
 */
function refuseTabularFlags(flags: RunFlags): void {
  const flag = flags.json === true ? '--json' : flags.csv === true ? '--csv' : null;
  if (flag === null) return;
  throw usageError(
    `${flag}: a run prints lines as it goes; its orders, fills and session are JSON afterwards ` +
      '(hoga db orders --json, hoga db fills --json, hoga db runs --id RUN --json), and --log-file keeps every record as JSON lines',
    'run',
  );
}

/**
 * Runs the command.
 *
 * @param files - the strategy files (`FILE.ts` or `FILE.ts:ID`)
 * @param flags - the flags
 */
export async function runCommand(files: readonly string[], flags: RunFlags): Promise<void> {
  let db: HogaDatabase | null = null;
  let close: (() => void) | null = null;
  let unfollow: (() => void) | null = null;
  // Ctrl-C and SIGTERM: before the run is up said, exit 130 (run-start-interrupt.ts); once it is
  // up the first stops it, a second quits at once
  const interrupt = new StartInterrupt(() => {
    unfollow?.();
    close?.();
    db?.close();
  });
  try {
    refuseTabularFlags(flags);
    const dbFile = resolveDatabasePath(flags.db);
    refuseDirectoryDatabase(dbFile, 'run');
    const risk = loadRiskConfig(flags.riskConfig);
    const symbols = parseSymbolList(flags.symbols, 'run');
    const strategies = await strategySpecs(files, flags.config);
    const ids = strategies.map((s) => s.id ?? s.strategyClass.name);
    // an id the store keeps the engine's own state under: refused before the run starts
    for (const id of ids) {
      const refusal = engineStateRefusal(flags.mode === 'paper' ? 'paper/' : '', id);
      if (refusal !== null) throw usageError(refusal);
    }
    warnUnmatchedStrategyLimits(risk, flags.riskConfig, ids);
    // a live strategy of id manual takes over hoga order's orders: refused unless asked for
    const manualWarning = manualIdWarning(flags.mode, ids, flags.takeOverManual === true);
    // The broker settings only: the run makes its database below when missing (a broker command's
    // connection would insist that --db exists).
    const { db: _runDb, ...brokerFlags } = flags;
    const probe = connect(brokerFlags, { ...process.env, HOGA_DB: '' });
    const brokerConfig = probe.client.config;
    probe.close();
    const clock = await brokerClock(brokerConfig.baseUrl);
    // the simulator's speed and clock can change through its control API while the run goes on
    if (clock instanceof ScaledClock) {
      unfollow = followSimulatorClock(brokerConfig.baseUrl, clock, {
        onAhead: (aheadMs) =>
          process.stderr.write(
            `hoga run: the simulator's clock is ${Math.round(aheadMs / 1000)} s behind the run's (set back, or slowed down): the run's clock waits for it\n`,
          ),
      });
    }
    db = HogaDatabase.open(dbFile, { clock });
    // The engine's client runs on the engine clock; as every other hoga command's, it shares its
    // token through the token file and the store, and the client's rate limits with the others.
    const client = brokerClientOf(brokerConfig, { clock, database: db });
    close = () => client.close();
    await requireKnownSymbols(client, symbols, 'run');
    const print = (line: string) => console.log(line);
    // the strategies' cash is a budget given here (live and paper), not the account's (the broker's
    // buying power, or the paper account's, still bounds every order); said at the start so that it
    // is never a surprise
    const cash = { KRW: new Decimal(flags.cashKrw), USD: new Decimal(flags.cashUsd) };
    const budget = `, strategies' cash ${formatMoney(cash.KRW, 'KRW')} KRW + ${formatMoney(cash.USD, 'USD')}`;
    print(
      `hoga run: ${files.join(', ')} ${flags.mode} on ${symbols.join(',')} (${flags.interval})${budget}, store ${db.file}`,
    );
    if (manualWarning !== null) process.stderr.write(`${manualWarning}\n`);
    interrupt.engineStarts();
    const session = await startSession({
      mode: flags.mode,
      strategies,
      strategyPath: [...new Set(files.map((f) => resolve(parseStrategyArgument(f).file)))].join(', '),
      symbols,
      interval: flags.interval,
      client,
      db,
      clock,
      cash,
      paperFromAccount: flags.paperFromAccount,
      risk,
      statusEveryMs: flags.statusEvery * 1000,
      pollIntervalMs: flags.pollMs,
      ...(flags.candlePollMs === undefined ? {} : { candlePollMs: flags.candlePollMs }),
      print,
    });
    // paper: a budget the paper account (an earlier paper run's) cannot cover, said once
    for (const line of paperCashWarnings(session.run, cash)) process.stderr.write(`${line}\n`);
    const interrupted = interrupt.interrupted;
    // Until SIGINT or SIGTERM, or until a strategy's hook throws: no strategy is called after
    // that, so the run stops as a backtest does, saying which strategy and hook, exit 1. A closed
    // stdout (`hoga run … | head`) stops it as SIGINT does. Interrupted while it started: it stops
    // now. A second SIGINT or SIGTERM quits at once, saying so (exit 130, SIGTERM 143): the
    // listener stays until the command ends (runtime/interrupts.ts).
    let wake: (() => void) | null = null;
    interrupt.runIsUp(() => wake?.());
    const failure = await new Promise<StrategyHookError | null>((resolve) => {
      if (interrupted) {
        resolve(null);
        return;
      }
      wake = () => resolve(null);
      cliRuntime.onStdoutClosed = () => resolve(null);
      void session.run.failed.then(resolve);
    });
    if (failure !== null) process.stderr.write(`hoga run: ${failure.message}; stopping the run\n`);
    print('stopping…');
    // --cancel-on-stop that leaves an order working (a cancel refused, the broker gone) is a
    // failure of the command (exit 1): the run still stops
    const cancelled = flags.cancelOnStop ? await cancelOnStop(session, print) : true;
    await session.stop();
    // a paper store that refused writes to the end: said (the warning above says why), exit 1
    const unstored = session.run.unstoredAtStop();
    print(
      unstored === null
        ? 'stopped: strategies stopped, store flushed'
        : `stopped: strategies stopped; the store refused the paper account's last changes (${counted(unstored, 'order event')} and its ledger): the next paper run works their orders again from what it holds`,
    );
    // a hook that failed while stopping (onStop): said, and the run ends as failed
    const late = failure === null ? session.run.runtime.failure : null;
    if (late !== null) process.stderr.write(`hoga run: ${late.message}\n`);
    const ok = failure === null && late === null && cancelled && unstored === null;
    if (interrupted) process.stderr.write(interruptedStartLine(session.placed()));
    process.exitCode = !ok ? ExitCode.FAILURE : interrupted ? interrupt.exitCode : ExitCode.OK;
  } catch (error) {
    reportError(error);
  } finally {
    interrupt.release();
    unfollow?.();
    close?.();
    db?.close();
  }
}

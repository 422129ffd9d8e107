import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { registerBacktestCommand } from './commands/backtest.js';
import { registerBrokerCommands } from './commands/broker.js';
import { registerDataCommands } from './commands/data.js';
import { registerDbCommands } from './commands/db.js';
import { registerInitCommand } from './commands/init.js';
import { registerOrderCommand } from './commands/order.js';
import { registerRiskCommand } from './commands/risk.js';
import { registerRunCommand } from './commands/run.js';
import { registerSimCommands } from './commands/sim.js';
import { registerStartCommand } from './commands/start.js';
import { cliRuntime, STRATEGY_COMMANDS } from './runtime/cli-runtime.js';
import { ExitCode, usageError } from './runtime/exit-codes.js';
import { acceptsJson, codeOfExit, writeFailure } from './runtime/failure-output.js';
import { releaseStartupInterruptSoon } from './runtime/startup-interrupt.js';

/**
 * Builds the `hoga` command. Each command family lives in its own module under `commands/` and
 * registers itself on the program with one `register<Name>Command(program)` line below; modules
 * import heavy packages lazily inside their action handlers so `hoga --version` stays fast.
 * After registration every command gets the common flags (`--profile`, `-v/--verbose`,
 * `--log-file`) and short usage errors (`see hoga <cmd> --help`, exit 2).
 */
export function createProgram(): Command {
  const program = new Command('hoga')
    .description('Event-driven algorithmic trading engine for the Securities Brokerage Open API')
    .version(cliVersion(), '-V, --version', 'print the version')
    .enablePositionalOptions();

  registerInitCommand(program);
  registerStartCommand(program);
  registerRunCommand(program);
  registerSimCommands(program);
  registerBrokerCommands(program);
  registerDbCommands(program);
  registerOrderCommand(program);
  registerRiskCommand(program);
  registerBacktestCommand(program);
  registerDataCommands(program);

  finishCommands(program);
  program.hook('preAction', async (_program, action) => {
    const flags = action.opts<{
      profile?: string;
      verbose?: boolean;
      logFile?: string;
      json?: unknown;
      csv?: unknown;
      baseUrl?: string;
    }>();
    cliRuntime.verbose = flags.verbose === true;
    cliRuntime.json = flags.json === true && acceptsJson(action);
    // one format: before, db and data commands printed JSON and dropped --csv without a word
    if (cliRuntime.json && flags.csv === true) {
      throw usageError('give --json or --csv, not both', commandPath(action));
    }
    cliRuntime.logFile = flags.logFile;
    cliRuntime.endWhenDone = STRATEGY_COMMANDS.has(commandPath(action));
    // Ctrl-C is the command's from here (hoga run's once its start-up handler is in place)
    if (commandPath(action) !== 'run') await releaseStartupInterruptSoon();
    const { applyProfile } = await import('./config/profile.js');
    applyProfile(flags.profile, process.cwd(), process.env);
    // a password in the broker's address is refused before anything shows or keeps it
    const { refuseCredentialsInBaseUrl } = await import('./config/base-url.js');
    refuseCredentialsInBaseUrl(flags.baseUrl ?? process.env.HOGA_BASE_URL);
    // the client secret is the connection's alone: no process the command starts inherits it
    const { holdClientSecret } = await import('./commands/broker/client-secret.js');
    holdClientSecret(process.env);
  });
  return program;
}

/** The command's name as typed: `quote`, `db info`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c !== null && c.parent !== null; c = c.parent)
    names.unshift(c.name());
  return names.join(' ');
}

/**
 * Adds the common flags to every command that runs something, and makes usage errors short: the
 * one problem and `see hoga <cmd> --help` on stderr, exit 2 (the caller catches the
 * `CommanderError` that `exitOverride` throws).
 */
function finishCommands(command: Command): void {
  const path = commandPath(command);
  command.exitOverride();
  command.configureOutput({
    outputError: (text, write) => {
      const problem = text.replace(/^error: /, '').trimEnd();
      const name = `hoga${path === '' ? '' : ` ${path}`}`;
      writeFailure(
        {
          code: codeOfExit(ExitCode.USAGE),
          lines: [problem, `see ${name} --help`],
          exitCode: ExitCode.USAGE,
        },
        { prefix: name, write },
      );
    },
  });
  const has = (flag: string) => command.options.some((o) => o.long === flag);
  if (command.commands.length === 0 && command.parent !== null) {
    if (!has('--profile')) {
      command.addOption(
        new Option(
          '--profile <name>',
          "profile of hoga.config.json to use (default $HOGA_PROFILE, else the file's default)",
        ),
      );
    }
    if (!has('--verbose')) {
      command.addOption(
        new Option('-v, --verbose', 'also show rate-limit waits and token refreshes (retries always show)'),
      );
    }
    if (!has('--log-file')) {
      command.addOption(
        new Option(
          '--log-file <file>',
          'append every log record to this file as JSON lines (made readable by you only, 0600, an existing one too)',
        ),
      );
    }
  }
  for (const sub of command.commands) finishCommands(sub);
}

/** The version of the `hoga` command: the CLI package's own version (the bundle has it built in). */
function cliVersion(): string {
  const built = (import.meta as { HOGA_VERSION?: string }).HOGA_VERSION;
  if (built !== undefined) return built;
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

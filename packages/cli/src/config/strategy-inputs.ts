/**
 * A strategy's inputs on the command line, read the same way by `hoga backtest` and `hoga run`: its
 * `--config` file (JSON) and its config checked against the strategy's schema, its `.ts` file, its
 * id, and the `--symbols` it trades. Any of them failing is a usage error (exit 2) that names the
 * file or the symbol and what is wrong with it, before anything connects or runs.
 *
 * @module
 */
import type { BrokerClient } from '@hoga/connector';
import { strategyId } from '@hoga/core';
import type { StrategyClass } from '@hoga/engine';
import { CliError, ExitCode, usageError } from '../runtime/exit-codes.js';
import { readJsonText } from './json-file.js';

/** A symbol as `--symbols` takes it: letters, digits, "." and "-". */
const SYMBOL = /^[A-Za-z0-9.-]{1,20}$/;
/** Symbols per stock-info request (the endpoint takes 1 to 200). */
const STOCKS_PER_REQUEST = 200;

/**
 * The `--symbols` list: upper case (aapl is AAPL: one cache series, one position, and the broker's
 * stock info knows it), each once, in the given order.
 *
 * @param raw - the flag
 * @param command - the command whose help the error points to
 * @throws a usage error for a missing or empty list, or an entry that is not a symbol
 */
export function parseSymbolList(raw: string | undefined, command: string): string[] {
  if (raw === undefined || raw.trim() === '')
    throw usageError('--symbols is required, e.g. --symbols 005930,AAPL', command);
  const symbols = raw
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== '');
  for (const s of symbols) {
    if (!SYMBOL.test(s))
      throw usageError(`--symbols: "${s}" is not a symbol (letters, digits, "." and "-")`, command);
  }
  const unique = [...new Set(symbols)];
  if (unique.length === 0) throw usageError('--symbols is empty', command);
  return unique;
}

/**
 * Checks that the broker knows every symbol (its stock info lists it) before anything runs.
 *
 * @param client - the broker
 * @param symbols - upper-case symbols
 * @param command - the command whose help the error points to
 * @throws a usage error naming the symbols the broker does not know
 */
export async function requireKnownSymbols(
  client: BrokerClient,
  symbols: readonly string[],
  command: string,
): Promise<void> {
  const known = new Set<string>();
  for (let i = 0; i < symbols.length; i += STOCKS_PER_REQUEST) {
    for (const info of await client.getStocks(symbols.slice(i, i + STOCKS_PER_REQUEST)))
      known.add(info.symbol);
  }
  const unknown = symbols.filter((s) => !known.has(s));
  if (unknown.length > 0) {
    throw usageError(
      `unknown symbol${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: the broker has no stock with that code; check --symbols`,
      command,
    );
  }
}

/**
 * Reads a `--config` file.
 *
 * @param file - the file
 * @param command - the command whose help the error points to
 * @throws a usage error naming the file when it cannot be read or is not JSON
 */
export function readStrategyConfig(file: string, command: string): unknown {
  let text: string;
  try {
    text = readJsonText(file);
  } catch (error) {
    throw usageError(
      `--config: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      command,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // on one line: Node's message quotes the file's text, newlines and all
    const why = (error as Error).message.replace(/\r?\n/g, '\\n');
    throw usageError(`--config: ${file} is not JSON: ${why}`, command);
  }
}

/**
 * Loads a strategy class through the engine's loader.
 *
 * @param load - the engine's `loadStrategyClass`
 * @param file - the strategy's `.ts` file
 * @param command - the command whose help the error points to
 * @throws a usage error with the loader's message when the file is missing, fails to import or
 * exports no strategy (the loader's `strategy-load-failed`)
 */
export async function loadStrategyFile<C>(
  load: (file: string) => Promise<C>,
  file: string,
  command: string,
): Promise<C> {
  try {
    return await load(file);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'strategy-load-failed') {
      throw usageError((error as Error).message, command);
    }
    throw error;
  }
}

/** A strategy on the command line: its file, and the id `FILE.ts:ID` gives it (else its class name). */
export interface StrategyArgument {
  readonly file: string;
  readonly id?: string;
}

/**
 * `FILE.ts:ID` as file and id (no id: the class name is the strategy's id).
 *
 * @throws a usage error for an id the engine would refuse (core's `strategyId`)
 */
export function parseStrategyArgument(argument: string): StrategyArgument {
  // the id's characters are core's rule (strategyId), checked below: this one had its own, without
  // ".", and read s.ts:sma.v2 as a file of that name
  const m = /^(.+\.[cm]?ts):([^/\\]*)$/.exec(argument);
  return m === null ? { file: argument } : { file: m[1] as string, id: checkStrategyId(m[2] as string) };
}

/**
 * A strategy id given on the command line (`FILE.ts:ID`, `--id`), checked by core's rule before
 * anything runs.
 *
 * @throws a usage error naming the id and the characters an id may have
 */
export function checkStrategyId(id: string): string {
  try {
    return strategyId(id);
  } catch {
    throw new CliError(
      `strategy id ${JSON.stringify(id)} is not valid: use 1-64 characters of letters, digits, "_", "." and "-"`,
      ExitCode.USAGE,
    );
  }
}

/**
 * Checks that `--config` was not given more often than there are strategies (each takes the one
 * of its position).
 *
 * @throws a usage error for more `--config` files than strategies
 */
export function checkConfigCount(configs: readonly string[], strategies: number, command: string): void {
  if (configs.length > strategies) {
    throw usageError(
      `${configs.length} --config files for ${strategies} strateg${strategies === 1 ? 'y' : 'ies'}: give at most one per strategy, in their order`,
      command,
    );
  }
}

/** The engine's config check, passed in: `hoga backtest` imports the engine only when it runs. */
export type StrategyConfigParser = Pick<
  typeof import('@hoga/engine'),
  'parseStrategyConfig' | 'StrategyConfigError'
>;

/**
 * Checks a strategy's config against its class's `configSchema` (as the engine will when it adds
 * the strategy), before anything connects or runs.
 *
 * @param engine - the engine's `parseStrategyConfig` and `StrategyConfigError`
 * @param strategyClass - the strategy's class
 * @param config - its parsed `--config` JSON (`{}` without one)
 * @param configFile - the `--config` file it came from, as given, if any
 * @param write - where the warning for a `--config` of a strategy without a schema goes (stderr)
 * @param id - the strategy's id (`FILE.ts:ID`), when it is not its class name: the error names it
 *   (before, `a.ts a.ts:b2` given one `--config` said `invalid config for strategy A:` of b2)
 * @returns the config parsed (defaults applied); a strategy without a `configSchema` gets its
 * `--config` as it is, with a warning naming the strategy and the file: its fields are not checked
 * (before, unsaid: a misspelt or unused field went unseen)
 * @throws a usage error (exit 2): `invalid config for strategy NAME (from FILE):`, then one line
 * per problem naming the field, the value found and what was expected
 */
export function checkStrategyConfig(
  engine: StrategyConfigParser,
  strategyClass: StrategyClass,
  config: unknown,
  configFile: string | undefined,
  write: (line: string) => void = (line) => process.stderr.write(line),
  id: string = strategyClass.name,
): unknown {
  if (configFile !== undefined && strategyClass.configSchema === undefined) {
    write(
      `hoga: warning: strategy ${strategyClass.name} declares no configSchema: the config of ${configFile} ` +
        'is passed on as this.config unchecked (a misspelt or unused field is not caught); ' +
        'declare static configSchema = z.object({…}) to have it checked\n',
    );
  }
  try {
    return engine.parseStrategyConfig(strategyClass.name, strategyClass.configSchema, config);
  } catch (error) {
    if (error instanceof engine.StrategyConfigError) {
      const other = id !== strategyClass.name;
      const where =
        configFile !== undefined
          ? ` (${other ? `class ${strategyClass.name}; ` : ''}from ${configFile})`
          : other
            ? ` (class ${strategyClass.name}; no --config given)`
            : ' (no --config given)';
      const message = error.message.replace(
        `invalid config for strategy ${strategyClass.name}:\n`,
        `invalid config for strategy ${id}${where}:\n`,
      );
      throw new CliError(message, ExitCode.USAGE, { cause: error });
    }
    throw error;
  }
}

/**
 * Checks that a strategy's id is not one an earlier strategy of the command line has.
 *
 * @param taken - the ids of the strategies before it
 * @param id - its id (`FILE.ts:ID`, else its class name)
 * @param file - its file, for the suggestion
 * @param command - the command whose help the error points to
 * @throws a usage error naming the id and how to give each strategy its own
 */
export function requireNewStrategyId(
  taken: readonly string[],
  id: string,
  file: string,
  command: string,
): void {
  if (taken.includes(id)) {
    throw usageError(
      `two strategies have the id ${id}: give each its own as FILE.ts:ID (e.g. ${file}:${id}2)`,
      command,
    );
  }
}

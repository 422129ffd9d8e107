/**
 * A strategy's inputs on the command line, read the same way by `hoga backtest` and `hoga run`: its
 * `--config` file (JSON) and its `.ts` file. Either one failing is a usage error (exit 2) that names
 * the file and what is wrong with it.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { usageError } from '../runtime/exit-codes.js';

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
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw usageError(
      `--config: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      command,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw usageError(`--config: ${file} is not JSON: ${(error as Error).message}`, command);
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

import { type Command, InvalidArgumentError } from 'commander';
import { reportError } from './broker/connection.js';
import { runStartDemo } from './broker/start-demo.js';

/**
 * `hoga start` (`pnpm start`): until the engine exists, a demo of the connector against the
 * built-in simulator — account, holdings, live quotes and books, and one order filling.
 */
export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('demo: the connector against the built-in simulator (account, quotes, one order filling)')
    .option('--watch <seconds>', 'how long to watch quotes', parseSeconds, 15)
    .action(async (flags: { watch: number }) => {
      try {
        await runStartDemo({ watchMs: flags.watch * 1000 });
      } catch (error) {
        reportError(error);
      }
    });
}

/** Parses `--watch`: a number of seconds from 1 to 3600. */
function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600) {
    throw new InvalidArgumentError(`expected seconds from 1 to 3600, found "${value}"`);
  }
  return seconds;
}

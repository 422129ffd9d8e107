import type { Command } from 'commander';
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
    .option('--watch <seconds>', 'how long to watch quotes', (v) => Number(v), 15)
    .action(async (flags: { watch: number }) => {
      try {
        await runStartDemo({ watchMs: Math.max(1, flags.watch) * 1000 });
      } catch (error) {
        reportError(error);
      }
    });
}
